// Liberty fetch: one GET of the region's city summary (`companyGroupCode` names the region: LUMO is Empire District),
// its JSON returned as is (the whole chain: a 304 with the snapshot held is UNCHANGED, not re-parsed).
import { readHead, type FetchContext, urlPath } from '../connector.ts';
import { SourceError } from '../../errors.ts';

const PATH = /^\/OutageAPI\/api\/1\/Outage\/OutageSummaryCity\/?$/i;

/** The region the url asks for, or the `config` failure naming the form it must have. */
export function regionOf(url: string): string {
  let region: string | null = null;
  try {
    region = new URL(url).searchParams.get('companyGroupCode');
  } catch {
    // not a URL: the failure below names it
  }
  if (!PATH.test(urlPath(url)) || !region?.trim())
    throw new SourceError(
      'config',
      'Liberty url must be the city summary with its region, e.g. ' +
        `https://libertycf2-svc.smartcmobile.com/OutageAPI/api/1/Outage/OutageSummaryCity?companyGroupCode=LUMO; got ${url}`,
    );
  return region;
}

export async function fetch(ctx: FetchContext): Promise<unknown> {
  regionOf(ctx.source.url);
  return readHead(ctx, ctx.source.url);
}
