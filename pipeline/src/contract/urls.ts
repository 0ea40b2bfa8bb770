// The URL builder: public URL ↔ prebuilt file, for every catalogue entry. Guards that no file leaves the output root.
import path from 'node:path';
import {
  CATALOGUE,
  FORMAT_EXT,
  FUNCTION_ENDPOINTS,
  type Endpoint,
  type Format,
  type FunctionEndpoint,
} from './catalogue.ts';

export type Params = Record<string, string>;

/** Public path of an endpoint with its parameters filled in, e.g. /api/v1/live/counties/12086 */
export function urlFor(e: Endpoint, params: Params = {}, query: Record<string, string | undefined> = {}): string {
  const p = e.path.replace(/\{(\w+)\}/g, (_, k: string) => {
    const v = params[k];
    if (v === undefined || !/^[A-Za-z0-9_-]+$/.test(v)) throw new Error(`Bad value for {${k}} in ${e.path}: ${v}`);
    return v;
  });
  const q = Object.entries(query)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => a.localeCompare(b));
  return q.length ? `${p}?${new URLSearchParams(q as Array<[string, string]>).toString()}` : p;
}

/**
 * Relative file of a prebuilt response. A path with an extension is its own file (openapi.json, llms.txt); any other
 * path is stored as <path>.<ext>, with the segments after a keyed segment joined by dots, so one directory holds
 * every county (/live/counties/12086 → live/counties/12086.json, …/12086/areas → live/counties/12086.areas.json).
 * Directories are the expensive part of a publish on a metadata-bound disk; the host config maps URLs to files.
 */
export function fileFor(e: Endpoint, params: Params, format: Format, table?: string): string {
  const url = urlFor(e, params);
  if (/\.[a-z]+$/.test(url)) return safeRelative(url.slice(1));
  const keyAt = lastKeyed(e);
  const segs = url.slice(1).split('/');
  const rel = keyAt < 0 ? segs.join('/') : [...segs.slice(0, keyAt - 1), segs.slice(keyAt - 1).join('.')].join('/');
  const t = e.tables ? `.${table ?? e.tables[0]}` : '';
  if (e.tables && !e.tables.includes(table ?? e.tables[0])) throw new Error(`Unknown table ${table} for ${e.id}`);
  return safeRelative(`${rel}${t}.${FORMAT_EXT[format]}`);
}

const keyedAt = new WeakMap<Endpoint, number>();
/** The index of the path's last keyed segment (`{fips}`), or -1: the segments after it are joined by dots. */
function lastKeyed(e: Endpoint): number {
  let at = keyedAt.get(e);
  if (at === undefined) {
    const segs = e.path.split('/');
    at = segs.length - 1;
    while (at >= 0 && !/^\{\w+\}$/.test(segs[at])) at -= 1;
    keyedAt.set(e, at);
  }
  return at;
}

/** The names of an endpoint's path parameters, in order. */
export const pathParams = (e: Endpoint): string[] => [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

export function safeRelative(rel: string): string {
  const norm = path.posix.normalize(rel);
  if (norm.startsWith('..') || path.posix.isAbsolute(norm) || norm.includes('\0'))
    throw new Error(`Path leaves the output root: ${rel}`);
  return norm;
}

/** The endpoint, parameters and format a prebuilt file answers (the inverse of fileFor). */
export function fileRoute(rel: string): (RouteMatch & { format: Format; table?: string }) | undefined {
  for (const e of CATALOGUE) {
    const names = pathParams(e);
    for (const format of e.formats) {
      for (const table of e.tables ?? [undefined]) {
        const probe = fileFor(e, Object.fromEntries(names.map((n) => [n, `KEY${n}`])), format, table);
        let src = probe.replace(/[.]/g, '\\.');
        for (const n of names) src = src.replace(`KEY${n}`, `(?<${n}>[^/.]+)`);
        const m = new RegExp(`^${src}$`).exec(rel);
        if (m) return { endpoint: e, params: { ...(m.groups ?? {}) }, format, ...(table ? { table } : {}) };
      }
    }
  }
  return undefined;
}

/** A regular expression matching the endpoint's public path, with named groups for its parameters. */
const patterns = new Map<string, RegExp>();
export function pathPattern(e: { path: string }): RegExp {
  let re = patterns.get(e.path); // built once per template: routing runs on every request
  if (!re) {
    const src = e.path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, (_, k: string) => `(?<${k}>[^/]+)`);
    patterns.set(e.path, (re = new RegExp(`^${src}$`)));
  }
  return re;
}

/** The function-layer routes whose path matches (one per method), with the path parameters. */
export function matchFunction(pathname: string): Array<{ fn: FunctionEndpoint; params: Params }> {
  return FUNCTION_ENDPOINTS.flatMap((fn) => {
    const m = pathPattern(fn).exec(pathname);
    return m ? [{ fn, params: { ...(m.groups ?? {}) } }] : [];
  });
}

export interface RouteMatch {
  endpoint: Endpoint;
  params: Params;
}

export function matchRoute(pathname: string): RouteMatch | undefined {
  for (const e of CATALOGUE) {
    const m = pathPattern(e).exec(pathname);
    if (m) return { endpoint: e, params: { ...(m.groups ?? {}) } };
  }
  return undefined;
}

/** Example values for the documentation's links: Palm Beach County FL, and Harris County TX for the reports. */
export const EXAMPLE_PARAMS: Record<string, string> = { fips: '12086', year: '2024', state: 'tx', county: '48201' };

/** The endpoint's path with example parameters filled in (a link that works on a populated deployment). */
export const exampleUrl = (e: Endpoint): string =>
  e.path.replace(/\{(\w+)\}/g, (_, k: string) => EXAMPLE_PARAMS[k] ?? k);
