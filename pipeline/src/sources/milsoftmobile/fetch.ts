// Milsoft mobile service fetch: GetAllCounties (the row's url) and GetAllOutages beside it, in parallel; each answer's
// text as sent (a saved probe replays byte for byte), under the XML body cap. GetAllOutages is optional: a 403 or 404
// means the service does not offer it.
import { type FetchContext, urlPath } from '../connector.ts';
import { SourceError } from '../../errors.ts';
import type { RequestSpec } from '../source-http.ts';
import { xmlCap } from '../xml.ts';
import type { MilsoftMobileRaw } from './schema.ts';

const COUNTIES = /\/MobileMap\/OMSMobileService\.asmx\/GetAllCounties$/i;

/** The GetAllOutages url beside the row's GetAllCounties url, or the `config` failure for any other url. */
export function outagesUrl(url: string): string {
  if (!COUNTIES.test(urlPath(url)))
    throw new SourceError(
      'config',
      `Milsoft mobile url must be the service's GetAllCounties, e.g. http://outage.yorkelectric.net/omswebmap/MobileMap/OMSMobileService.asmx/GetAllCounties; got ${url}`,
    );
  const u = new URL(url);
  u.search = '';
  u.pathname = u.pathname.replace(/GetAllCounties$/i, 'GetAllOutages');
  return u.href;
}

export async function fetch(ctx: FetchContext): Promise<MilsoftMobileRaw> {
  const other = outagesUrl(ctx.source.url);
  const spec: RequestSpec = { headers: { accept: 'text/xml, application/xml, */*' }, ...xmlCap(ctx.source.options) };
  const [counties, outages] = await Promise.all([
    ctx.http.get(ctx.source.url, ctx.priority, spec),
    optional(ctx, other, spec),
  ]);
  return { counties: counties.body, outages };
}

async function optional(ctx: FetchContext, url: string, spec: RequestSpec): Promise<string | null> {
  try {
    return (await ctx.http.get(url, ctx.priority, spec)).body;
  } catch (err) {
    if (err instanceof SourceError && (err.status === 403 || err.status === 404)) return null;
    throw err;
  }
}
