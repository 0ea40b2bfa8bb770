// ODIN fetch: pages `/records` with limit/offset until total_count is reached (option page_size, default 100).
import type { FetchContext } from '../connector.ts';
import { parseUpstream } from '../parse.ts';
import { pageSchema, type OdinRecord } from './schema.ts';

export async function fetch(ctx: FetchContext): Promise<{ total_count: number; results: OdinRecord[] }> {
  const size = typeof ctx.source.options.page_size === 'number' ? ctx.source.options.page_size : 100;
  const results: OdinRecord[] = [];
  let total = 0;
  for (let page = 0; page < 1000; page += 1) {
    const u = new URL(ctx.source.url);
    u.searchParams.set('limit', String(size));
    u.searchParams.set('offset', String(results.length));
    const data = parseUpstream(pageSchema, await ctx.http.getJson(u.href, ctx.priority), 'ODIN records page');
    total = data.total_count;
    results.push(...data.results);
    if (data.results.length === 0 || results.length >= total) break;
  }
  return { total_count: total, results };
}
