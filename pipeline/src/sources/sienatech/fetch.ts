// SienaTech fetch: one POST with an empty body to the map's UpdatePushpin action; the raw is the answer's text.
import type { FetchContext } from '../connector.ts';
import { SourceError } from '../../errors.ts';
import { xmlCap } from '../xml.ts';

/** The map's pushpin action (ASP.NET MVC routes are case-insensitive). */
const PATH = /^\/Outages\/Home\/UpdatePushpin$/i;

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
      `SienaTech url must be {site}/Outages/Home/UpdatePushpin, e.g. https://outages.unitedpower.com/Outages/Home/UpdatePushpin; got ${url}`,
    );
  }
  // The map posts an empty body; the action answers XML, not the JSON the client's default Accept lists first. The
  // action only reads the map's outages: safe to retry.
  const answer = await ctx.http.get(url, ctx.priority, {
    method: 'POST',
    body: '',
    headers: { accept: 'application/xml, text/xml, */*' },
    idempotent: true,
    ...xmlCap(ctx.source.options),
  });
  return answer.body;
}
