// MLGW fetch: one GET of https://outagemap.mlgw.org/geojson.php, returned as is (the whole chain: a 304 with the
// snapshot held is UNCHANGED, not re-parsed).
import { readHead, type FetchContext, urlPath } from '../connector.ts';
import { SourceError } from '../../errors.ts';

const PATH = /^\/geojson\.php$/i;

/** The answer as MLGW sends it: normalize reads it as is (schema.ts). The client's own User-Agent goes with it. */
export async function fetch(ctx: FetchContext): Promise<unknown> {
  const { url } = ctx.source;
  if (!PATH.test(urlPath(url))) {
    throw new SourceError(
      'config',
      `MLGW url must be the outage GeoJSON, https://outagemap.mlgw.org/geojson.php; got ${url}`,
    );
  }
  return readHead(ctx, url);
}
