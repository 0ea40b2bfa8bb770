// Chugach Electric fetch: GET of Grids.js (the row's url: the map's sections) and of Incidents.js beside it (the
// outages), in parallel; both are JSON despite the name, and both are needed: `{grids, incidents}`.
import { type FetchContext, urlPath } from '../connector.ts';
import { SourceError } from '../../errors.ts';

const GRIDS = /\/Grids\.js$/i;

/** The incidents file beside the row's Grids.js, or the `config` failure for any other url. */
export function incidentsUrl(url: string): string {
  if (!GRIDS.test(urlPath(url)))
    throw new SourceError(
      'config',
      `Chugach url must be the outage map's sections, https://www.chugachelectric.com/outage/Grids.js; got ${url}`,
    );
  return new URL('Incidents.js', url).href;
}

export async function fetch(ctx: FetchContext): Promise<{ grids: unknown; incidents: unknown }> {
  const other = incidentsUrl(ctx.source.url);
  const [grids, incidents] = await Promise.all([
    ctx.http.getJson(ctx.source.url, ctx.priority),
    ctx.http.getJson(other, ctx.priority),
  ]);
  return { grids, incidents };
}
