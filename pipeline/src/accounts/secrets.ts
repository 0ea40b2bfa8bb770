// API keys, verification codes and signing secrets: random, shown once, stored only as SHA-256 hashes (keys, codes)
// and compared in constant time. Keys look like `odk_<8-char prefix>_<32 chars>`; the prefix finds the row.
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

export const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

/** Constant-time equality of two hex digests (or any equal-length strings). */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const token = (bytes: number) => randomBytes(bytes).toString('base64url');

export function newApiKey(): { key: string; prefix: string; hash: string } {
  const prefix = token(6).replace(/[-_]/g, 'x').slice(0, 8);
  const key = `odk_${prefix}_${token(24)}`;
  return { key, prefix, hash: sha256(key) };
}

/** The prefix of a presented key, or null when it does not have the key shape. */
export function keyPrefix(key: string): string | null {
  const m = /^odk_([A-Za-z0-9]{8})_[A-Za-z0-9_-]{32}$/.exec(key);
  return m ? m[1] : null;
}

/** Digits of an emailed sign-in code: 10^8 codes keep a day of allowed guesses under 1 in a million (sign-in-limits.ts). */
export const CODE_DIGITS = 8;

/** An email code of CODE_DIGITS digits and a link token (192 random bits). */
export function newVerification(): { code: string; token: string } {
  return { code: String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0'), token: token(24) };
}

/** A webhook signing secret (`whsec_…`), shown when the channel is created or rotated. */
export const newSigningSecret = (): string => `whsec_${token(32)}`;

export const newId = (kind: string): string => `${kind}_${token(12).replace(/[-_]/g, 'x')}`;
