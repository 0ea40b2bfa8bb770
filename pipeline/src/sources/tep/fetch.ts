// TEP fetch: one POST of an empty form to OutageApp/mapfeed (a GET is refused), kept with the answer's HTTP Date.
import { type FetchContext, urlPath } from '../connector.ts';
import { parseJson } from '../parse.ts';
import { SourceError } from '../../errors.ts';
import { divisionsOf, type TepRaw } from './schema.ts';

const PATH = /^\/OutageApp\/mapfeed\/?$/i;

export async function fetch(ctx: FetchContext): Promise<TepRaw> {
  const { url, options } = ctx.source;
  if (!PATH.test(urlPath(url))) {
    throw new SourceError('config', `TEP url must be https://apps.tep.com/OutageApp/mapfeed; got ${url}`);
  }
  divisionsOf(options); // a bad division fails before any request
  const answer = await ctx.http.get(url, ctx.priority, {
    method: 'POST',
    body: '',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    idempotent: true, // the map's read of its outages: safe to retry
  });
  // The ETRs have no year: the upstream's own clock (HTTP Date) supplies it, so a replayed raw reads the same.
  const date = answer.headers.date ? Date.parse(answer.headers.date) : Number.NaN;
  return {
    captured_at: Number.isNaN(date) ? null : new Date(date).toISOString(),
    answer: parseJson(url, answer.body),
  };
}
