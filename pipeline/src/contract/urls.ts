// The URL builder: public URL ↔ prebuilt file, for every catalogue entry. Guards that no file leaves the output root.
import path from 'node:path';
import { CATALOGUE, FORMAT_EXT, type Endpoint, type Format } from './catalogue.ts';

export type Params = Record<string, string>;

/** Public path of an endpoint with its parameters filled in, e.g. /api/v1/live/counties/12086 */
export function urlFor(e: Endpoint, params: Params = {}, query: Record<string, string | undefined> = {}): string {
  const p = e.path.replace(/\{(\w+)\}/g, (_, k: string) => {
    const v = params[k];
    if (v === undefined || !/^[A-Za-z0-9_-]+$/.test(v)) throw new Error(`Bad value for {${k}} in ${e.path}: ${v}`);
    return v;
  });
  const q = Object.entries(query).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b));
  return q.length ? `${p}?${new URLSearchParams(q as Array<[string, string]>).toString()}` : p;
}

/**
 * Relative file of a prebuilt response. A path with an extension is its own file (openapi.json, llms.txt); any other
 * path P is stored as P/index.<ext>, so /live/counties/12086 and /live/counties/12086/areas can both exist.
 */
export function fileFor(e: Endpoint, params: Params, format: Format): string {
  const url = urlFor(e, params);
  const rel = /\.[a-z]+$/.test(url) ? url.slice(1) : `${url.slice(1)}/index.${FORMAT_EXT[format]}`;
  return safeRelative(rel);
}

export function safeRelative(rel: string): string {
  const norm = path.posix.normalize(rel);
  if (norm.startsWith('..') || path.posix.isAbsolute(norm) || norm.includes('\0')) throw new Error(`Path leaves the output root: ${rel}`);
  return norm;
}

/** A regular expression matching the endpoint's public path, with named groups for its parameters. */
export function pathPattern(e: Endpoint): RegExp {
  const src = e.path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, (_, k: string) => `(?<${k}>[^/]+)`);
  return new RegExp(`^${src}$`);
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
