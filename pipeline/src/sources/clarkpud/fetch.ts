// Clark PUD fetch: one GET of the outage map's data.js, a JSONP call whose argument (the outage data) is the raw.
import { type FetchContext, UNCHANGED, urlPath } from '../connector.ts';
import { parseJson } from '../parse.ts';
import { SourceError } from '../../errors.ts';

const PATH = /^\/outage-map\/data\.js$/i;
const CALLBACK = 'gksUpdateOutageData(';
/** The call's close: `)`, an optional `;`, then only whitespace. */
const CLOSE = /\)\s*;?\s*$/;

/**
 * The JSON inside `gksUpdateOutageData(…)`. Anything else (an HTML error page, another callback) is a `bad_body`
 * failure quoting the start of the body, as parseJson does for a body that is not JSON.
 */
export function unwrap(url: string, body: string): unknown {
  const text = body.trim();
  const close = CLOSE.exec(text);
  if (!text.startsWith(CALLBACK) || !close) {
    throw new SourceError(
      'bad_body',
      `${url} did not return the gksUpdateOutageData(…) call (starts with ${JSON.stringify(body.slice(0, 40))})`,
    );
  }
  return parseJson(url, text.slice(CALLBACK.length, close.index));
}

export async function fetch(ctx: FetchContext): Promise<unknown> {
  const { url } = ctx.source;
  if (!PATH.test(urlPath(url))) {
    throw new SourceError(
      'config',
      `Clark PUD url must be the outage map's data file, https://www.clarkpublicutilities.com/outage-map/data.js; got ${url}`,
    );
  }
  const r = await ctx.http.get(url, ctx.priority);
  // The one request is the whole chain: a 304 while the last snapshot is held means nothing changed.
  if (r.notModified && ctx.held) return UNCHANGED;
  return unwrap(url, r.body);
}
