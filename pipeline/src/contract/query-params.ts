// The query parameters each endpoint takes, derived from the catalogue (issue 38 part 5): a name an endpoint the
// function layer answers does not take is a 400 `unknown_parameter` listing the ones it does (`/api/v1/events?cursor=`
// answered the first page forever, so a client looped), except the cache-busting names clients add, which are
// ignored. The local server, the nginx config and the OpenAPI document read the lists from here.
import type { Endpoint, FunctionEndpoint } from './catalogue.ts';

/**
 * Names ignored everywhere: `_` (jQuery's `cache: false` and the many clients that copy it) and `cb` (the common
 * hand-written cache buster). No endpoint takes either; they never change an answer.
 */
export const IGNORED_QUERY_NAMES: readonly string[] = ['_', 'cb'];

/** The names a prebuilt file is chosen by: `format` on every entry (one format or several), `table` where it has tables. */
export const fileQueryNames = (e: Endpoint): string[] => ['format', ...(e.tables ? ['table'] : [])];

/** Every query parameter a catalogue entry takes, in the order the OpenAPI document lists them. */
export const queryNames = (e: Endpoint): string[] => [
  ...(e.tables ? ['table'] : []),
  'format',
  ...(e.functionParams ?? []).map((p) => p.name),
];

/**
 * Whether the function layer checks an entry's query names: it answers the entry wholly, or whenever a query has one
 * of its own parameters. A prebuilt-only entry is a file, and a file host serves it whatever the query says.
 */
export const checksQuery = (e: Endpoint): boolean => e.servedBy === 'function' || Boolean(e.functionParams?.length);

/** A function route's query names; null where it takes any (the 410 and /healthz answer whatever is asked). */
export const routeQueryNames = (f: FunctionEndpoint): string[] | null =>
  f.kind ? null : (f.query ?? []).map((q) => q.name);

/** The names in `query` that are neither taken nor ignored, each once, in the order sent. */
export function unknownNames(query: URLSearchParams, takes: readonly string[]): string[] {
  const known = new Set([...takes, ...IGNORED_QUERY_NAMES]);
  return [...new Set(query.keys())].filter((name) => !known.has(name));
}

/** `url` without the ignored names: what an answer is built from, so a cache buster never shows in a link or a tag. */
export function withoutIgnored(url: URL): URL {
  if (!IGNORED_QUERY_NAMES.some((name) => url.searchParams.has(name))) return url;
  const clean = new URL(url);
  for (const name of IGNORED_QUERY_NAMES) clean.searchParams.delete(name);
  return clean;
}
