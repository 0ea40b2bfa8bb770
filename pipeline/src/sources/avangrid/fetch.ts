// Avangrid fetch: the opco's outagedata answer twice, `?filter=county` (totals and counties) and `?filter=town` (towns
// and street incidents), each with the `ocp-apim-subscription-key` header the deployment's credential gives
// (options.credential_env). The key is a request header only: never in the URL, a log line or a saved probe.
import { UNCHANGED, type FetchContext, urlPath } from '../connector.ts';
import { credentialOf, explainRefusal } from '../credential.ts';
import { parseJson } from '../parse.ts';
import { SourceError } from '../../errors.ts';

const PATH = /^\/[a-z]+\/v1\/public\/outagedata\/?$/i;
const FEED = 'the Avangrid outagedata API';

/** The row's url with `filter` set to `filter` (the row may name either answer). */
export function filterUrl(url: string, filter: 'county' | 'town'): string {
  const u = new URL(url);
  u.searchParams.set('filter', filter);
  return u.href;
}

function checkUrl(url: string): void {
  if (!PATH.test(urlPath(url)))
    throw new SourceError(
      'config',
      `Avangrid url must be an opco's outagedata API, https://apim.avangrid.com/cmp/v1/public/outagedata?filter=county; got ${url}`,
    );
}

/** `{county, town}`: both answers as Avangrid sends them (schema.ts). */
export async function fetch(ctx: FetchContext): Promise<unknown> {
  const { url, options } = ctx.source;
  checkUrl(url);
  const key = credentialOf(options);
  const headers: Record<string, string> = key ? { 'ocp-apim-subscription-key': key } : {};
  const spec = { headers };
  const urls = [filterUrl(url, 'county'), filterUrl(url, 'town')];
  // Settled, not raced: a poll that fails leaves no request of its own in flight.
  const [county, town] = await Promise.allSettled(urls.map((u) => ctx.http.get(u, ctx.priority, spec)));
  if (county.status === 'rejected') throw explainRefusal(county.reason, options, FEED);
  if (town.status === 'rejected') throw explainRefusal(town.reason, options, FEED);
  // Both unchanged: the snapshot held was made of these very answers.
  if (county.value.notModified && town.value.notModified && ctx.held) return UNCHANGED;
  return { county: parseJson(urls[0], county.value.body), town: parseJson(urls[1], town.value.body) };
}
