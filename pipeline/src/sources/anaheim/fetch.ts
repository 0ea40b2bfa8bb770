// Anaheim fetch: one GET of ActiveIncidents.cshtml (GeoJSON); its answer is the raw as is.
import { readHead, type FetchContext } from '../connector.ts';
import { SourceError } from '../../errors.ts';

const PATH = /\/electricoutages\/ActiveIncidents\.cshtml$/i;

export async function fetch(ctx: FetchContext): Promise<unknown> {
  const { url } = ctx.source;
  if (!URL.canParse(url) || !PATH.test(new URL(url).pathname)) {
    throw new SourceError(
      'config',
      `Anaheim url must be {site}/electricoutages/ActiveIncidents.cshtml, e.g. https://gis.anaheim.net/electricoutages/ActiveIncidents.cshtml; got ${url}`,
    );
  }
  // One GET is the whole chain: a 304 with the snapshot held is UNCHANGED.
  return readHead(ctx, url);
}
