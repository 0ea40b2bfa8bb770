// El Paso Electric fetch: one POST of OmsApi/GetOutages (body `{}`) with the deployment's `x-api-key`; the API answers
// an AES-256-GCM envelope `{data, iv}`, opened with the key the same credential names. Both come from the variable in
// options.credential_env (`<api key>` or `<api key>;<key as 64 hex digits>`), never from the map's JavaScript, and
// never reach a URL, a log line or a saved probe. A plain answer (a saved, decrypted one) is read as it is.
import { createDecipheriv } from 'node:crypto';
import { UNCHANGED, type FetchContext, urlPath } from '../connector.ts';
import { credentialOf, credentialEnv, explainRefusal } from '../credential.ts';
import { parseJson } from '../parse.ts';
import { SourceError } from '../../errors.ts';
import { isEnvelope, type Envelope } from './schema.ts';

const PATH = /^\/OmsApi\/GetOutages\/?$/i;
const HEX = /^(?:[0-9a-f]{2})+$/i;

/** The API key and the AES key (null when the value names none) a credential holds. */
export function keysOf(credential: string): { apiKey: string; aesKey: Buffer | null } {
  const [apiKey, key] = credential.split(';').map((s) => s.trim());
  if (key !== undefined && !(HEX.test(key) && key.length === 64))
    throw new SourceError(
      'config',
      'the El Paso Electric credential must be `<api key>` or `<api key>;<64 hex digits>`',
    );
  return { apiKey, aesKey: key ? Buffer.from(key, 'hex') : null };
}

/** The envelope opened: hex ciphertext whose last 16 bytes are the GCM tag, hex IV; a refused tag is `bad_body`. */
export function openEnvelope(url: string, env: Envelope, key: Buffer): unknown {
  if (!HEX.test(env.data) || !HEX.test(env.iv) || env.data.length <= 32)
    throw new SourceError('bad_body', `${url} answered an envelope whose data or iv is not hex`);
  const data = Buffer.from(env.data, 'hex');
  try {
    const d = createDecipheriv('aes-256-gcm', key, Buffer.from(env.iv, 'hex'));
    d.setAuthTag(data.subarray(data.length - 16));
    return parseJson(url, Buffer.concat([d.update(data.subarray(0, data.length - 16)), d.final()]).toString('utf8'));
  } catch (err) {
    if (err instanceof SourceError) throw err;
    throw new SourceError('bad_body', `${url} answered an envelope the key does not open (${(err as Error).message})`);
  }
}

export async function fetch(ctx: FetchContext): Promise<unknown> {
  const { url, options } = ctx.source;
  if (!PATH.test(urlPath(url)))
    throw new SourceError(
      'config',
      `El Paso Electric url must be the outage list, https://starlit.epelectric.com/OmsApi/GetOutages; got ${url}`,
    );
  const credential = credentialOf(options);
  const keys = credential ? keysOf(credential) : null;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (keys) headers['x-api-key'] = keys.apiKey;
  let answer: unknown;
  try {
    const r = await ctx.http.get(url, ctx.priority, { method: 'POST', body: '{}', idempotent: true, headers });
    if (r.notModified && ctx.held) return UNCHANGED;
    answer = parseJson(url, r.body);
  } catch (err) {
    throw explainRefusal(err, options, 'the El Paso Electric outage API');
  }
  if (!isEnvelope(answer)) return answer;
  if (!keys?.aesKey)
    throw new SourceError(
      'config',
      `${url} answered an encrypted envelope: set ${credentialEnv(options) ?? 'options.credential_env'} to \`<api key>;<AES key as 64 hex digits>\``,
    );
  return openEnvelope(url, answer, keys.aesKey);
}
