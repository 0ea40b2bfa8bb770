// GridVu fetch: one GET of {site}/GridVuServer/Public/getAllOutages, returned as is (a 304 with the snapshot held is
// UNCHANGED, not re-parsed).
import { readHead, type FetchContext, urlPath } from '../connector.ts';
import { SourceError } from '../../errors.ts';

const PATH = /^\/GridVuServer\/Public\/getAllOutages\/?$/i;

/** The answer as GridVu sends it: normalize reads it as is (schema.ts). */
export async function fetch(ctx: FetchContext): Promise<unknown> {
  const { url } = ctx.source;
  if (!PATH.test(urlPath(url))) {
    throw new SourceError(
      'config',
      `GridVu url must be {site}/GridVuServer/Public/getAllOutages, e.g. https://outages.lbwl.com/GridVuServer/Public/getAllOutages; got ${url}`,
    );
  }
  return readHead(ctx, url);
}
