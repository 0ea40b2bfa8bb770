// Test helper: an interpreter of the generated Vercel Build Output routes (src/methods/has/missing/dest/check/continue),
// to prove the host config routes every request the way the local server does.
import type { HostRoute } from '../src/publish/host-config.ts';

export type HostOutcome = { kind: 'file'; file: string; headers: Record<string, string> } | { kind: 'function'; headers: Record<string, string> };

export function routeLikeHost(routes: HostRoute[], method: string, pathname: string, query: URLSearchParams, exists: (file: string) => boolean): HostOutcome {
  const headers: Record<string, string> = {};
  for (const r of routes) {
    const m = new RegExp(r.src).exec(pathname);
    if (!m) continue;
    if (r.methods && !r.methods.includes(method)) continue;
    if (r.has && !r.has.every((h) => query.has(h.key) && (h.value === undefined || query.get(h.key) === h.value))) continue;
    if (r.missing && r.missing.some((h) => query.has(h.key) && (h.value === undefined || query.get(h.key) === h.value))) continue;
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
