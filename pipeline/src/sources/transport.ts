// How a feed is fetched: https, or plain http where the registry row says why (issue 26, "More of the country").
// Some utilities serve their outage viewer only over http (public scrapers reach those Milsoft viewers as
// `http://cvoutage.remc.com:8083/`). Such a row must say so in `options.plain_http` ("the utility serves this viewer
// only over http, per <source>"); `outage sources check` rejects plain http without it, and the sources list shows
// the row as plain http, because nothing authenticates what that feed answers. Its answer is read as hostile as every
// other (the same budgets, schemas and checks): the option changes what users are told, never how the answer is read.

/** `https`, or `plain_http` for an `http://` feed URL: what /api/v1/live/sources publishes per source. */
export type Transport = 'https' | 'plain_http';
export const TRANSPORTS = ['https', 'plain_http'] as const;

const PLAIN = /^http:\/\//i;

export const transportOf = (url: string): Transport => (PLAIN.test(url) ? 'plain_http' : 'https');

/** The URL with `http://` read as `https://`: what a connector's https URL shape is matched against. */
export const httpsForm = (url: string): string => url.replace(PLAIN, 'https://');

/** A reason is a sentence: at least this many characters (so `true` or `"yes"` is not one). */
const MIN_REASON = 20;
const EXAMPLE = '"plain_http": "the utility serves this viewer only over http, per <public source>"';

/**
 * What is wrong with a row's transport, or null: plain http needs `options.plain_http` saying why; the option on an
 * https row is stale. A feed on this machine (a test server) is exempt; a shipped registry rejects it anyway.
 */
export function transportProblem(url: URL, options: Record<string, unknown>, onThisMachine: boolean): string | null {
  const why = options.plain_http;
  const plain = url.protocol === 'http:';
  if (!plain)
    return why === undefined
      ? null
      : 'options.plain_http is set but the url is https; remove the option (the feed is read over https)';
  if (onThisMachine) return null;
  if (why === undefined)
    return `\`${url.origin}\` is plain http, which nothing authenticates: use the https URL, or, when the utility serves this feed only over http, say so in options (${EXAMPLE})`;
  if (typeof why !== 'string' || why.trim().length < MIN_REASON)
    return `options.plain_http must say why the feed is plain http (${EXAMPLE}), got \`${JSON.stringify(why)}\``;
  return null;
}
