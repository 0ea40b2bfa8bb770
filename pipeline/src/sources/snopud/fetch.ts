// Snohomish PUD fetch: one GET of the outage map's Home/KMLOutageAreas; the raw is the answer's text, unchanged (so a
// saved probe replays byte for byte), under the XML body cap (options.max_xml_bytes raises it).
import { type FetchContext, urlPath } from '../connector.ts';
import { SourceError } from '../../errors.ts';
import { xmlCap } from '../xml.ts';

const PATH = /^\/Home\/KMLOutageAreas\/?$/i;

export async function fetch(ctx: FetchContext): Promise<string> {
  const { url, options } = ctx.source;
  if (!PATH.test(urlPath(url)))
    throw new SourceError(
      'config',
      `Snohomish PUD url must be the outage map's KML, https://outagemap.snopud.com/Home/KMLOutageAreas; got ${url}`,
    );
  const answer = await ctx.http.get(url, ctx.priority, {
    headers: { accept: 'application/vnd.google-earth.kml+xml, application/xml, text/xml, */*' },
    ...xmlCap(options),
  });
  return answer.body;
}
