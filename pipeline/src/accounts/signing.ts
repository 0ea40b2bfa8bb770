// Webhook signatures. spec: Authentication — `Service-Signature: t=<timestamp>,v1=<signature>`, HMAC-SHA256.
// Signed content: the ASCII string `<t>.<raw body>` where t is the Unix time in seconds of the attempt and the raw
// body is the exact bytes sent (UTF-8 JSON). Signature: lower-case hex of HMAC-SHA256(signing secret, content); the
// secret is used as its UTF-8 bytes, `whsec_` prefix included. During a secret rotation the header carries one v1
// per valid secret (`t=…,v1=<new>,v1=<old>`); a receiver accepts the request when any v1 matches one of its secrets
// and |now − t| ≤ the tolerance (300 s recommended), which stops replays of old requests.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'Service-Signature';
export const SIGNATURE_TOLERANCE_S = 300;

export const signatureOf = (secret: string, t: number, body: string): string =>
  createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');

export function signatureHeader(secrets: string[], t: number, body: string): string {
  return [`t=${t}`, ...secrets.map((s) => `v1=${signatureOf(s, t, body)}`)].join(',');
}

/**
 * The verification helper receivers can copy: true when `header` carries a v1 signature of `body` by one of
 * `secrets` made within `toleranceS` of `nowS`.
 */
export function verifySignature(
  header: string | null | undefined,
  body: string,
  secrets: string[],
  nowS = Math.floor(Date.now() / 1000),
  toleranceS = SIGNATURE_TOLERANCE_S,
): boolean {
  if (!header) return false;
  const parts = header.split(',').map((p) => p.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowS - t) > toleranceS) return false;
  const given = parts
    .filter(([k, v]) => k === 'v1' && /^[0-9a-f]{64}$/.test(v ?? ''))
    .map(([, v]) => Buffer.from(v, 'hex'));
  return secrets.some((s) => {
    const want = Buffer.from(signatureOf(s, t, body), 'hex');
    return given.some((g) => g.length === want.length && timingSafeEqual(g, want));
  });
}
