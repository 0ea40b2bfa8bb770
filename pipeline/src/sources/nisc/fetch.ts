// NISC fetch: one GET of summary.json.
import type { FetchContext } from '../connector.ts';

export async function fetch(ctx: FetchContext): Promise<unknown> {
  return ctx.http.getJson(ctx.source.url, ctx.priority);
}
