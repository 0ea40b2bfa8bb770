// A real static host's routing, generated from the catalogue: Vercel's Build Output API v3 `config.json`, plus the
// edge middleware that gives every v1 response its X-Request-Id (routes can set fixed headers, not a fresh id).
// Prebuilt files are served straight from the CDN; anything a file cannot answer (query filters, bad input,
// unknown counties, wrong methods, the 410, entries served by the function layer) is routed to it at /api/fn.
// Vercel's routes match query keys by name only, so a query that names only parameters an entry does not take is
// served its file here, where nginx and the local server answer 400 `unknown_parameter` (contract/query-params.ts).
import {
  CACHE_CONTROL,
  CATALOGUE,
  CONTENT_TYPE,
  FUNCTION_ENDPOINTS,
  type Endpoint,
  type Format,
} from '../contract/catalogue.ts';
import { dataNotice } from '../contract/notice.ts';
import { fileFor, pathParams, pathPattern } from '../contract/urls.ts';
import { EMBED_PATH_SOURCE, securityHeaders } from '../contract/security-headers.ts';
import { checkDeprecation, deprecationHeaders, EXPOSE_HEADERS, V1_PATH_SOURCE } from '../contract/v1-headers.ts';

export const FUNCTION_DEST = '/api/fn';
/** The edge middleware's name: `functions/<name>.func` in the build output. */
export const MIDDLEWARE = '_middleware';

export interface HostRoute {
  src: string;
  dest?: string;
  headers?: Record<string, string>;
  methods?: string[];
  continue?: boolean;
  check?: boolean;
  /** run this edge middleware (functions/<name>.func) before routing; `override` lets it run on every match */
  middlewarePath?: string;
  override?: boolean;
  has?: Array<{ type: 'query'; key: string; value?: string }>;
  missing?: Array<{ type: 'query'; key: string; value?: string }>;
}

function destFor(e: Endpoint, format: Format, table?: string): string {
  const params = Object.fromEntries(pathParams(e).map((k) => [k, `__${k}__`]));
  return `/${fileFor(e, params, format, table)}`.replace(/__(\w+)__/g, (_, k: string) => `$${k}`);
}

export function vercelConfig(simulated: boolean): { version: 3; routes: HostRoute[] } {
  const routes: HostRoute[] = [
    { src: V1_PATH_SOURCE, middlewarePath: MIDDLEWARE, override: true, continue: true },
    {
      src: V1_PATH_SOURCE,
      continue: true,
      headers: {
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Expose-Headers': EXPOSE_HEADERS,
        'X-API-Version': '1',
        'X-Data-Notice': dataNotice(simulated),
      },
    },
    // CSP, nosniff and Referrer-Policy on every answer; only the embed pages may be framed by other sites
    { src: `^/(?!${EMBED_PATH_SOURCE.slice(2)}).*$`, continue: true, headers: securityHeaders(false) },
    { src: `${EMBED_PATH_SOURCE}.*$`, continue: true, headers: securityHeaders(true) },
    // spec: Versioning — a deprecated entry announces its sunset on every response, file or function.
    ...CATALOGUE.filter((e) => e.deprecated).map((e) => ({
      src: pathPattern(e).source,
      continue: true,
      headers: checkedHeaders(e.id, e.deprecated!),
    })),
    ...FUNCTION_ENDPOINTS.filter((f) => f.deprecated).map((f) => ({
      src: pathPattern(f).source,
      methods: [f.method],
      continue: true,
      headers: checkedHeaders(f.id, f.deprecated!),
    })),
    { src: '^/(api/v1|feeds)/.*$', methods: ['OPTIONS'], dest: FUNCTION_DEST },
    ...[...new Set(FUNCTION_ENDPOINTS.map((f) => pathPattern(f).source))].map((src) => ({ src, dest: FUNCTION_DEST })),
  ];
  for (const e of CATALOGUE) {
    const src = pathPattern(e).source;
    if (e.servedBy === 'function') {
      routes.push({ src, dest: FUNCTION_DEST }); // nothing prebuilt: every request, every method
      continue;
    }
    for (const p of e.functionParams ?? [])
      routes.push({ src, has: [{ type: 'query', key: p.name }], dest: FUNCTION_DEST });
    // Files only for canonical parameters (five-digit FIPS, lower-case state, digits): `12086.areas` must not reach
    // another file; anything else goes to the function's checks, which answer it as the local server does.
    const fileSrc = src
      .replace(/\(\?<fips>\[\^\/\]\+\)/, '(?<fips>\\d{5})')
      .replace(/\(\?<year>\[\^\/\]\+\)/, '(?<year>\\d{4})')
      .replace(/\(\?<state>\[\^\/\]\+\)/, '(?<state>[a-z]{2})')
      .replace(/\(\?<county>\[\^\/\]\+\)/, '(?<county>\\d{5})');
    for (const table of e.tables ?? [undefined]) {
      const tableHas = table ? [{ type: 'query' as const, key: 'table', value: table }] : [];
      const tableMissing = table === e.tables?.[0] ? [{ type: 'query' as const, key: 'table' }] : [];
      for (const f of e.formats) {
        const headers = { 'Content-Type': CONTENT_TYPE[f], 'Cache-Control': CACHE_CONTROL[e.cache] };
        const dest = destFor(e, f, table);
        const variants: Array<{ has: HostRoute['has']; missing: HostRoute['missing'] }> = [];
        if (e.formats.length > 1)
          variants.push({ has: [...tableHas, { type: 'query', key: 'format', value: f }], missing: [] });
        if (f === e.formats[0]) variants.push({ has: tableHas, missing: [{ type: 'query', key: 'format' }] });
        for (const v of [...variants])
          if (tableMissing.length)
            variants.push({ has: v.has!.filter((h) => h.key !== 'table'), missing: [...v.missing!, ...tableMissing] });
        for (const v of variants) {
          routes.push({
            src: fileSrc,
            methods: ['GET', 'HEAD'],
            ...(v.has!.length ? { has: v.has } : {}),
            ...(v.missing!.length ? { missing: v.missing } : {}),
            dest,
            headers,
            check: true,
          });
        }
      }
    }
  }
  routes.push({ src: '^/(api/v1|feeds)/.*$', dest: FUNCTION_DEST });
  // Site pages are prebuilt as `<page>/index.html`: `/counties/12086` (no trailing slash) is that file.
  routes.push({ src: '^/(?<page>(?!api/|feeds/)[^.]*[^/])$', dest: '/$page/index.html', check: true });
  return { version: 3, routes };
}

function checkedHeaders(id: string, d: Parameters<typeof deprecationHeaders>[0]): Record<string, string> {
  checkDeprecation(id, d);
  return deprecationHeaders(d);
}

/**
 * The edge middleware (Vercel Routing Middleware, edge runtime): a fresh UUID as the response's X-Request-Id, also
 * forwarded as the request's X-Request-Id (replacing any the client sent) so the function layer answers with the same
 * one. The override list must name every request header the origin should still see.
 */
export function middlewareSource(): string {
  return `// Generated by \`outage host-config\` (pipeline/src/publish/host-config.ts): X-Request-Id on every v1 response.
export default function middleware(request) {
  const id = crypto.randomUUID();
  const headers = new Headers({ 'x-middleware-next': '1', 'x-request-id': id });
  const forwarded = [];
  for (const [name, value] of request.headers) {
    if (name === 'x-request-id') continue;
    headers.set('x-middleware-request-' + name, value);
    forwarded.push(name);
  }
  headers.set('x-middleware-request-x-request-id', id);
  headers.set('x-middleware-override-headers', [...forwarded, 'x-request-id'].join(','));
  return new Response(null, { headers });
}
`;
}

/** Every file of the build output this module owns, by path relative to `.vercel/output/`. */
export function hostOutput(simulated: boolean): Record<string, string> {
  return {
    'config.json': `${JSON.stringify(vercelConfig(simulated), null, 2)}\n`,
    [`functions/${MIDDLEWARE}.func/index.js`]: middlewareSource(),
    [`functions/${MIDDLEWARE}.func/.vc-config.json`]: `${JSON.stringify({ runtime: 'edge', entrypoint: 'index.js' }, null, 2)}\n`,
  };
}
