// SMUD fetch: one GET of the community list (https://usage.smud.org/omkml/api/communitylist/), returned as is (the
// whole chain: a 304 with the snapshot held is UNCHANGED, not re-parsed).
import { readHead, type FetchContext, urlPath } from '../connector.ts';
import { SourceError } from '../../errors.ts';

const PATH = /^\/omkml\/api\/communitylist\/?$/i;

/** The answer as SMUD sends it: normalize reads it as is (schema.ts). */
export async function fetch(ctx: FetchContext): Promise<unknown> {
  const { url } = ctx.source;
  if (!PATH.test(urlPath(url))) {
    throw new SourceError(
      'config',
      `SMUD url must be the community list, https://usage.smud.org/omkml/api/communitylist/; got ${url}`,
    );
  }
  return readHead(ctx, url);
}
