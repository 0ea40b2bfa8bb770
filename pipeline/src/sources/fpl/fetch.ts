// FPL fetch: one GET; option `nw_url` adds the Northwest Florida list (returned as {main, nw}).
import type { FetchContext } from '../connector.ts';

export async function fetch(ctx: FetchContext): Promise<unknown> {
  const main = await ctx.http.getJson(ctx.source.url, ctx.priority);
  const nwUrl = ctx.source.options.nw_url;
  if (typeof nwUrl !== 'string') return main;
  return { main, nw: await ctx.http.getJson(nwUrl, ctx.priority) };
}
