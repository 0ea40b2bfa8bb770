// KUB fetch: one GET of https://www.kub.org/api/outage/v1/electric-outages, returned as is (the whole chain: a 304
// with the snapshot held is UNCHANGED, not re-parsed).
import { readHead, type FetchContext, urlPath } from '../connector.ts';
import { SourceError } from '../../errors.ts';

const PATH = /^\/api\/outage\/v1\/electric-outages\/?$/i;

/** The answer as KUB sends it: normalize reads it as is (schema.ts). */
export async function fetch(ctx: FetchContext): Promise<unknown> {
  const { url } = ctx.source;
  if (!PATH.test(urlPath(url))) {
    throw new SourceError(
      'config',
      `KUB url must be the electric outage list, https://www.kub.org/api/outage/v1/electric-outages; got ${url}`,
    );
  }
  return readHead(ctx, url);
}
