// Point-list fetch: one GET of the row's url, its JSON answer returned as is (the whole chain: a 304 with the snapshot
// held is UNCHANGED, not re-parsed). The options are checked before the request, so a bad row never reaches the host.
import { readHead, type FetchContext } from '../connector.ts';
import { specOf } from './options.ts';

export async function fetch(ctx: FetchContext): Promise<unknown> {
  specOf(ctx.source.options);
  return readHead(ctx, ctx.source.url);
}
