// NiSource fetch: one GET of nisource-api/ldc/GetPowerOutages (the whole chain: a 304 with the snapshot held is
// UNCHANGED, not re-parsed).
import { readHead, type FetchContext } from '../connector.ts';
import { SourceError } from '../../errors.ts';

const PATH = /\/nisource-api\/ldc\/GetPowerOutages$/i;

export async function fetch(ctx: FetchContext): Promise<unknown> {
  const { url } = ctx.source;
  if (!PATH.test(new URL(url).pathname)) {
    throw new SourceError(
      'config',
      `NiSource url must be {site}/nisource-api/ldc/GetPowerOutages, e.g. https://www.nipsco.com/nisource-api/ldc/GetPowerOutages; got ${url}`,
    );
  }
  return readHead(ctx, url);
}
