// OMAP fetch: one GET of the Tabular URL ({base}/api/Omap/Outage/Tabular?opco=PA), returned as is (the whole chain:
// a 304 with the snapshot held is UNCHANGED, not re-parsed).
import { readHead, type FetchContext } from '../connector.ts';

export async function fetch(ctx: FetchContext): Promise<unknown> {
  return readHead(ctx, ctx.source.url);
}
