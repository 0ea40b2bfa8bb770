// FPL fetch: one GET; option `nw_url` adds the Northwest Florida list (returned as {main, nw}).
import { readHead, type FetchContext } from '../connector.ts';

export async function fetch(ctx: FetchContext): Promise<unknown> {
  const nwUrl = ctx.source.options.nw_url;
  // One GET is the whole chain: a 304 with the snapshot held is UNCHANGED. Two independent lists are both read.
  if (typeof nwUrl !== 'string') return readHead(ctx, ctx.source.url);
  const main = await ctx.http.getJson(ctx.source.url, ctx.priority);
  return { main, nw: await ctx.http.getJson(nwUrl, ctx.priority) };
}
