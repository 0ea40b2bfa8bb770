// NOVEC fetch: one GET of the storm center's outagedtl.xml; the raw is the answer's text, unchanged.
import type { FetchContext } from '../connector.ts';
import { SourceError } from '../../errors.ts';
import { xmlCap } from '../xml.ts';

/** The storm center map's data file; the map adds `?{timestamp}`, which conditional requests make unnecessary. */
const PATH = /^\/stormcenter\/data\/outagedtl\.xml$/i;

/** The answer's text as sent, so a saved probe replays byte for byte; normalize parses it. */
export async function fetch(ctx: FetchContext): Promise<string> {
  const { url } = ctx.source;
  let path = '';
  try {
    path = new URL(url).pathname;
  } catch {
    // not a URL: the failure below names it
  }
  if (!PATH.test(path)) {
    throw new SourceError(
      'config',
      `NOVEC url must be {site}/stormcenter/data/outagedtl.xml, e.g. https://www.novec.com/stormcenter/data/outagedtl.xml; got ${url}`,
    );
  }
  // The client's default Accept lists JSON first; this file is XML.
  const answer = await ctx.http.get(url, ctx.priority, {
    headers: { accept: 'application/xml, text/xml, */*' },
    ...xmlCap(ctx.source.options),
  });
  return answer.body;
}
