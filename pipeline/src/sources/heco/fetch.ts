// Hawaiian Electric fetch: one GET of api/v1/outages with the Authorization the deployment's credential gives
// (options.credential_env); returns the answer with its HTTP Date. The credential is a request header only: never in
// the URL, a log line or a saved probe. The project never takes a token from the map's own access-token endpoint.
import { UNCHANGED, type FetchContext, urlPath } from '../connector.ts';
import { credentialOf, explainRefusal } from '../credential.ts';
import { parseJson } from '../parse.ts';
import { SourceError } from '../../errors.ts';
import type { HecoRaw } from './schema.ts';

const PATH = /^\/api\/v1\/outages\/?$/i;

/** A whole header value (`Bearer …`) as is; a bare token as `Bearer <token>`. */
export function authorizationOf(credential: string): string {
  return /^[A-Za-z][\w-]*\s+\S/.test(credential) ? credential : `Bearer ${credential}`;
}

/** The HTTP Date as ISO, or null: the upstream's clock, so a replayed answer reads its "Today" the same. */
function dateOf(value: string | undefined): string | null {
  const t = value ? Date.parse(value) : Number.NaN;
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

export async function fetch(ctx: FetchContext): Promise<HecoRaw | typeof UNCHANGED> {
  const { url, options } = ctx.source;
  if (!PATH.test(urlPath(url)))
    throw new SourceError(
      'config',
      `Hawaiian Electric url must be the outage list, https://outagemap-api-heco.azurewebsites.net/api/v1/outages; got ${url}`,
    );
  const credential = credentialOf(options);
  const headers: Record<string, string> = credential ? { authorization: authorizationOf(credential) } : {};
  try {
    const r = await ctx.http.get(url, ctx.priority, { headers });
    if (r.notModified && ctx.held) return UNCHANGED;
    return { captured_at: dateOf(r.headers.date), answer: parseJson(url, r.body) };
  } catch (err) {
    throw explainRefusal(err, options, 'the Hawaiian Electric outage API');
  }
}
