// A real static host's routing, generated from the catalogue: Vercel's Build Output API v3 `config.json`.
// Prebuilt files are served straight from the CDN; anything a file cannot answer (query filters, bad input,
// unknown counties, wrong methods, the 410) is routed to the function layer at /api/fn.
import { CACHE_CONTROL, CATALOGUE, CONTENT_TYPE, FUNCTION_ENDPOINTS, type Endpoint, type Format } from '../contract/catalogue.ts';
import { dataNotice } from '../contract/notice.ts';
import { fileFor, pathPattern } from '../contract/urls.ts';

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

function destFor(e: Endpoint, format: Format): string {
  const params: Record<string, string> = e.key ? { [e.key]: `__${e.key}__` } : {};
  return `/${fileFor(e, params, format)}`.replace(/__(\w+)__/g, (_, k: string) => `$${k}`);
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
    ...FUNCTION_ENDPOINTS.map((f) => ({ src: `^${f.path}$`, dest: FUNCTION_DEST })),
  ];
  for (const e of CATALOGUE) {
    const src = pathPattern(e).source;
    for (const p of e.functionParams ?? []) routes.push({ src, has: [{ type: 'query', key: p.name }], dest: FUNCTION_DEST });
    for (const f of e.formats) {
      const headers = { 'Content-Type': CONTENT_TYPE[f], 'Cache-Control': CACHE_CONTROL[e.cache] };
      if (e.formats.length > 1) routes.push({ src, methods: ['GET', 'HEAD'], has: [{ type: 'query', key: 'format', value: f }], dest: destFor(e, f), headers, check: true });
      if (f === e.formats[0]) routes.push({ src, methods: ['GET', 'HEAD'], missing: [{ type: 'query', key: 'format' }], dest: destFor(e, f), headers, check: true });
    }
  }
  routes.push({ src: '^/(api/v1|feeds)/.*$', dest: FUNCTION_DEST });
  return { version: 3, routes };
}
