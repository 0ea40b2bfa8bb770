// PSE fetch: one GET of the outage map's list view, AnonymoussMapListView (the double "s" is PSE's spelling).
import { type FetchContext, urlPath } from '../connector.ts';
import { SourceError } from '../../errors.ts';

const PATH = /^\/api\/sitecore\/OutageMap\/AnonymoussMapListView\/?$/i;

/** The answer as PSE sends it: normalize reads it as is (schema.ts). */
export async function fetch(ctx: FetchContext): Promise<unknown> {
  const { url } = ctx.source;
  if (!PATH.test(urlPath(url))) {
    throw new SourceError(
      'config',
      `PSE url must be https://www.pse.com/api/sitecore/OutageMap/AnonymoussMapListView (double "s"); got ${url}`,
    );
  }
  return ctx.http.getJson(url, ctx.priority);
}
