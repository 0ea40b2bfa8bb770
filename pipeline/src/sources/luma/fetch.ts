// LUMA fetch: one GET of regionsWithoutService
// (https://api.miluma.lumapr.com/miluma-outage-api/outage/regionsWithoutService), returned as is (the whole chain).
import { readHead, type FetchContext, urlPath } from '../connector.ts';
import { SourceError } from '../../errors.ts';

const PATH = /^\/miluma-outage-api\/outage\/regionsWithoutService\/?$/i;
const EXAMPLE = 'https://api.miluma.lumapr.com/miluma-outage-api/outage/regionsWithoutService';

/** The answer as LUMA sends it: normalize reads it as is (schema.ts). */
export async function fetch(ctx: FetchContext): Promise<unknown> {
  const { url } = ctx.source;
  if (!PATH.test(urlPath(url))) {
    throw new SourceError('config', `LUMA url must be the regionsWithoutService endpoint, ${EXAMPLE}; got ${url}`);
  }
  return readHead(ctx, url);
}
