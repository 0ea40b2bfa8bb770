// A real static host's routing, generated from the catalogue: Vercel's Build Output API v3 `config.json`.
// Prebuilt files are served straight from the CDN; anything a file cannot answer (query filters, bad input,
// unknown counties, wrong methods, the 410) is routed to the function layer at /api/fn.
import { CACHE_CONTROL, CATALOGUE, CONTENT_TYPE, FUNCTION_ENDPOINTS, type Endpoint, type Format } from '../contract/catalogue.ts';
import { dataNotice } from '../contract/notice.ts';
import { fileFor, pathParams, pathPattern } from '../contract/urls.ts';

export const FUNCTION_DEST = '/api/fn';

export interface HostRoute {
  src: string;
  dest?: string;
  headers?: Record<string, string>;
  methods?: string[];
  continue?: boolean;
  check?: boolean;
  has?: Array<{ type: 'query'; key: string; value?: string }>;
  missing?: Array<{ type: 'query'; key: string; value?: string }>;
}

function destFor(e: Endpoint, format: Format, table?: string): string {
  const params = Object.fromEntries(pathParams(e).map((k) => [k, `__${k}__`]));
  return `/${fileFor(e, params, format, table)}`.replace(/__(\w+)__/g, (_, k: string) => `$${k}`);
}

export function vercelConfig(simulated: boolean): { version: 3; routes: HostRoute[] } {
  const routes: HostRoute[] = [
    {
      src: '^/(api/v1/.*|feeds/.*|llms\\.txt)$', continue: true,
      headers: {
        'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': 'ETag, X-Request-Id, X-API-Version, X-Data-Notice',
        'X-API-Version': '1', 'X-Data-Notice': dataNotice(simulated),
      },
    },
    { src: '^/(api/v1|feeds)/.*$', methods: ['OPTIONS'], dest: FUNCTION_DEST },
    ...[...new Set(FUNCTION_ENDPOINTS.map((f) => pathPattern(f).source))].map((src) => ({ src, dest: FUNCTION_DEST })),
  ];
  for (const e of CATALOGUE) {
    const src = pathPattern(e).source;
    for (const p of e.functionParams ?? []) routes.push({ src, has: [{ type: 'query', key: p.name }], dest: FUNCTION_DEST });
    // Report paths: canonical (lower-case state, digits) only; anything else goes to the function's checks.
    const fileSrc = e.id.startsWith('reports.') ? src.replace(/\(\?<year>\[\^\/\]\+\)/, '(?<year>\\d{4})').replace(/\(\?<state>\[\^\/\]\+\)/, '(?<state>[a-z]{2})').replace(/\(\?<county>\[\^\/\]\+\)/, '(?<county>\\d{5})') : src;
    for (const table of e.tables ?? [undefined]) {
      const tableHas = table ? [{ type: 'query' as const, key: 'table', value: table }] : [];
      const tableMissing = table === e.tables?.[0] ? [{ type: 'query' as const, key: 'table' }] : [];
      for (const f of e.formats) {
        const headers = { 'Content-Type': CONTENT_TYPE[f], 'Cache-Control': CACHE_CONTROL[e.cache] };
        const dest = destFor(e, f, table);
        const variants: Array<{ has: HostRoute['has']; missing: HostRoute['missing'] }> = [];
        if (e.formats.length > 1) variants.push({ has: [...tableHas, { type: 'query', key: 'format', value: f }], missing: [] });
        if (f === e.formats[0]) variants.push({ has: tableHas, missing: [{ type: 'query', key: 'format' }] });
        for (const v of [...variants]) if (tableMissing.length) variants.push({ has: v.has!.filter((h) => h.key !== 'table'), missing: [...v.missing!, ...tableMissing] });
        for (const v of variants) {
          routes.push({ src: fileSrc, methods: ['GET', 'HEAD'], ...(v.has!.length ? { has: v.has } : {}), ...(v.missing!.length ? { missing: v.missing } : {}), dest, headers, check: true });
        }
      }
    }
  }
  routes.push({ src: '^/(api/v1|feeds)/.*$', dest: FUNCTION_DEST });
  return { version: 3, routes };
}
