// MidAmerican fetch: one JSON POST of `{}` to OutageWatch's CountyInfo endpoint; the answer is the raw as is.
import { type FetchContext, urlPath } from '../connector.ts';
import { parseJson } from '../parse.ts';
import { SourceError } from '../../errors.ts';

const PATH = /^\/OutageWatch\/api\/County\/CountyInfo\/?$/i;
const EXAMPLE = 'https://www.midamericanenergy.com/OutageWatch/api/County/CountyInfo/';

export async function fetch(ctx: FetchContext): Promise<unknown> {
  const { url } = ctx.source;
  if (!PATH.test(urlPath(url))) {
    throw new SourceError(
      'config',
      `MidAmerican url must be {site}/OutageWatch/api/County/CountyInfo/, e.g. ${EXAMPLE}; got ${url}`,
    );
  }
  // The map posts an empty JSON object. The client keeps no validators for a POST, so no 304 and no UNCHANGED here.
  const answer = await ctx.http.get(url, ctx.priority, {
    method: 'POST',
    body: '{}',
    headers: { 'content-type': 'application/json' },
    idempotent: true, // the map's read of its outages: safe to retry
  });
  return parseJson(url, answer.body);
}
