// How a request resolves, before anything is read: a prebuilt file, a function route, a redirect or the error it is.
// Routing, method, path parameters and query names are all checked here, from the catalogue; the app (app.ts), the
// host-config agreement tests and the nginx test share it.
import type { Format } from '../contract/catalogue.ts';
import { fileFor, matchFunction, matchRoute } from '../contract/urls.ts';
import {
  type ApiError,
  badFormat,
  badTable,
  methodNotAllowed,
  notFound,
  unknownParameter,
} from '../contract/errors.ts';
import {
  checksQuery,
  IGNORED_QUERY_NAMES,
  queryNames,
  routeQueryNames,
  unknownNames,
} from '../contract/query-params.ts';
import { pathParamError } from '../contract/path-params.ts';
import { checkReportPath } from './report-path.ts';

/** How a request resolves: a prebuilt file, or a function handler. Shared with the host-config agreement test. */
export type Resolution =
  | { kind: 'file'; file: string; format: Format }
  | { kind: 'function'; id: string }
  | { kind: 'error'; error: ApiError }
  | { kind: 'redirect'; location: string };

export function resolve(method: string, pathname: string, query: URLSearchParams): Resolution {
  const fns = matchFunction(pathname);
  if (fns.length) {
    // HEAD is answered by every GET route, as a file is
    const hit = fns.find((f) => f.fn.method === method || (method === 'HEAD' && f.fn.method === 'GET'));
    if (!hit) return { kind: 'error', error: methodNotAllowed(method, [...fns.map((f) => f.fn.method), 'OPTIONS']) };
    const takes = routeQueryNames(hit.fn);
    const unknown = takes ? unknownNames(query, takes) : [];
    if (unknown.length)
      return { kind: 'error', error: unknownParameter(hit.fn.path, unknown, takes!, IGNORED_QUERY_NAMES) };
    return { kind: 'function', id: hit.fn.id };
  }
  const m = matchRoute(pathname);
  if (!m) return { kind: 'error', error: notFound(pathname) };
  if (method !== 'GET' && method !== 'HEAD')
    return { kind: 'error', error: methodNotAllowed(method, ['GET', 'HEAD', 'OPTIONS']) };
  const e = m.endpoint;
  const report = checkReportPath(m.params);
  if (report === 'redirect') {
    const q = query.toString();
    return {
      kind: 'redirect',
      location: `${pathname.replace(`/${m.params.state}/`, `/${m.params.state.toLowerCase()}/`)}${q ? `?${q}` : ''}`,
    };
  }
  if (report) return { kind: 'error', error: report };
  const param = pathParamError(m.params);
  if (param) return { kind: 'error', error: param };
  const unknown = checksQuery(e) ? unknownNames(query, queryNames(e)) : [];
  if (unknown.length)
    return { kind: 'error', error: unknownParameter(e.path, unknown, queryNames(e), IGNORED_QUERY_NAMES) };
  const format = query.get('format');
  if (format !== null && !e.formats.includes(format as Format))
    return { kind: 'error', error: badFormat(format, e.formats) };
  const table = e.tables ? (query.get('table') ?? e.tables[0]) : undefined;
  if (e.tables && !e.tables.includes(table!)) return { kind: 'error', error: badTable(table!, e.tables) };
  if (e.servedBy === 'function' || e.functionParams?.some((p) => query.has(p.name)))
    return { kind: 'function', id: e.id };
  return {
    kind: 'file',
    file: fileFor(e, m.params, (format ?? e.formats[0]) as Format, table),
    format: (format ?? e.formats[0]) as Format,
  };
}
