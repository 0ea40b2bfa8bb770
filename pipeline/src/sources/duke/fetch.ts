// Duke fetch: one GET of outage-maps/v1/counties?jurisdiction=…, with the Authorization the deployment's credential
// gives (options.credential_env); the answer is returned as is (the whole chain: a 304 with the snapshot held is
// UNCHANGED, not re-parsed). The credential is a request header only: never in the URL, a log line or a saved probe.
import { UNCHANGED, type FetchContext, urlPath } from '../connector.ts';
import { credentialOf, explainRefusal } from '../credential.ts';
import { parseJson } from '../parse.ts';
import { SourceError } from '../../errors.ts';

const PATH = /^\/outage-maps\/v1\/counties\/?$/i;

/**
 * The Authorization value for what the variable holds: a whole header value (`Basic …`, `Bearer …`) as is, or the
 * API's consumer key and secret as `key:secret`, sent as HTTP Basic.
 */
export function authorizationOf(credential: string): string {
  if (/^[A-Za-z][\w-]*\s+\S/.test(credential)) return credential;
  return credential.includes(':') ? `Basic ${Buffer.from(credential, 'utf8').toString('base64')}` : credential;
}

/** The counties answer as Duke sends it: normalize reads it as is (schema.ts). */
export async function fetch(ctx: FetchContext): Promise<unknown> {
  const { url, options } = ctx.source;
  let jurisdiction: string | null = null;
  try {
    jurisdiction = new URL(url).searchParams.get('jurisdiction');
  } catch {
    // not a URL: the config error below says what the url must be
  }
  if (!PATH.test(urlPath(url)) || !jurisdiction)
    throw new SourceError(
      'config',
      `Duke url must be the counties list of one jurisdiction, https://prod.apigee.duke-energy.app/outage-maps/v1/counties?jurisdiction=DEC (DEC, DEP, DEF, DEI, DEM); got ${url}`,
    );
  const credential = credentialOf(options);
  const headers: Record<string, string> = credential ? { authorization: authorizationOf(credential) } : {};
  try {
    const r = await ctx.http.get(url, ctx.priority, { headers });
    return r.notModified && ctx.held ? UNCHANGED : parseJson(url, r.body);
  } catch (err) {
    throw explainRefusal(err, options, 'the Duke outage-maps API');
  }
}
