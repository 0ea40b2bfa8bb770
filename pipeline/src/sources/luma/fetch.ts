// LUMA fetch: one GET of regionsWithoutService
// (https://api.miluma.lumapr.com/miluma-outage-api/outage/regionsWithoutService), returned as is (the whole chain).
import { readHead, type FetchContext } from '../connector.ts';
import { SourceError } from '../../errors.ts';

const PATH = /^\/miluma-outage-api\/outage\/regionsWithoutService\/?$/i;
const EXAMPLE = 'https://api.miluma.lumapr.com/miluma-outage-api/outage/regionsWithoutService';

function pathOf(url: string): string | null {
  try {
    return new URL(url).pathname;
  } catch {
    return null;
  }
}

/** The answer as LUMA sends it: normalize reads it as is (schema.ts). */
export async function fetch(ctx: FetchContext): Promise<unknown> {
  const { url } = ctx.source;
  if (!PATH.test(pathOf(url) ?? '')) {
    throw new SourceError('config', `LUMA url must be the regionsWithoutService endpoint, ${EXAMPLE}; got ${url}`);
  }
  return readHead(ctx, url);
}
