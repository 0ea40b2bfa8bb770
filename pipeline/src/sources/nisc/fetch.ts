// NISC fetch: one GET of summary.json (the whole chain: a 304 with the snapshot held is UNCHANGED, not re-parsed).
import { readHead, type FetchContext } from '../connector.ts';

export async function fetch(ctx: FetchContext): Promise<unknown> {
  return readHead(ctx, ctx.source.url);
}
