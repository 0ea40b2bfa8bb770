// OMAP fetch: one GET of the Tabular URL ({base}/api/Omap/Outage/Tabular?opco=PA), returned as is.
import type { FetchContext } from '../connector.ts';

export async function fetch(ctx: FetchContext): Promise<unknown> {
  return ctx.http.getJson(ctx.source.url, ctx.priority);
}
