// Test helper: an interpreter of the generated Vercel Build Output (routes: src/methods/has/missing/dest/check/continue;
// middlewarePath: the built edge middleware), to prove the host answers every request the way the local server does.
import type { HostRoute } from '../src/publish/host-config.ts';

export type HostOutcome =
  | { kind: 'file'; file: string; headers: Record<string, string> }
  | { kind: 'function'; headers: Record<string, string> };

export function routeLikeHost(
  routes: HostRoute[],
  method: string,
  pathname: string,
  query: URLSearchParams,
  exists: (file: string) => boolean,
): HostOutcome {
  const headers: Record<string, string> = {};
  for (const r of routes) {
    const m = new RegExp(r.src).exec(pathname);
    if (!m) continue;
    if (r.methods && !r.methods.includes(method)) continue;
    if (r.has && !r.has.every((h) => query.has(h.key) && (h.value === undefined || query.get(h.key) === h.value)))
      continue;
    if (r.missing?.some((h) => query.has(h.key) && (h.value === undefined || query.get(h.key) === h.value))) continue;
    if (r.continue) {
      Object.assign(headers, r.headers ?? {});
      continue;
    }
    if (!r.dest) continue;
    const dest = r.dest.replace(/\$(\w+)/g, (_, k: string) => m.groups?.[k] ?? '');
    if (r.check && !exists(dest.slice(1))) continue;
    Object.assign(headers, r.headers ?? {});
    return dest === '/api/fn' ? { kind: 'function', headers } : { kind: 'file', file: dest.slice(1), headers };
  }
  return { kind: 'function', headers };
}

export type Handler = (req: Request) => Response | Promise<Response>;
export interface HostResponse {
  kind: 'file' | 'function' | 'middleware';
  file?: string;
  status: number;
  headers: Headers;
  /** the response as the function layer sent it, before the host's headers were merged in */
  fromFunction?: Response;
}

/**
 * A whole request as the host runs it: the middleware route first (Vercel Routing Middleware protocol: answer, or
 * `x-middleware-next` with response headers to add and `x-middleware-override-headers` / `x-middleware-request-*` to
 * replace the request headers), then the routes. A file answers 200; a function route calls `fn` with the request as
 * the middleware left it. The host's headers (routes, then middleware) are set over the function's.
 */
export async function requestLikeHost(
  routes: HostRoute[],
  middleware: Record<string, Handler>,
  req: Request,
  opts: { exists: (file: string) => boolean; fn: Handler },
): Promise<HostResponse> {
  const url = new URL(req.url);
  let reqHeaders = new Headers(req.headers);
  const added = new Headers();
  const mw = routes.find((r) => r.middlewarePath && new RegExp(r.src).test(url.pathname));
  if (mw) {
    const run = middleware[mw.middlewarePath!];
    if (!run) throw new Error(`The config names middleware \`${mw.middlewarePath}\` but no such function was built.`);
    const res = await run(new Request(url, { method: req.method, headers: reqHeaders }));
    if (res.headers.get('x-middleware-next') !== '1')
      return { kind: 'middleware', status: res.status, headers: res.headers };
    const override = res.headers.get('x-middleware-override-headers');
    if (override !== null) {
      reqHeaders = new Headers();
      for (const name of override.split(',').filter(Boolean))
        reqHeaders.set(name, res.headers.get(`x-middleware-request-${name}`) ?? '');
    }
    for (const [k, v] of res.headers) if (!k.startsWith('x-middleware-')) added.set(k, v);
  }
  const outcome = routeLikeHost(routes, req.method, url.pathname, url.searchParams, opts.exists);
  const hostHeaders = new Headers(outcome.headers);
  for (const [k, v] of added) hostHeaders.set(k, v);
  if (outcome.kind === 'file') return { kind: 'file', file: outcome.file, status: 200, headers: hostHeaders };
  const fromFunction = await opts.fn(new Request(url, { method: req.method, headers: reqHeaders }));
  const headers = new Headers(fromFunction.headers);
  for (const [k, v] of hostHeaders) headers.set(k, v);
  return { kind: 'function', status: fromFunction.status, headers, fromFunction };
}
