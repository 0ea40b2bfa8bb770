// The secrets a webhook channel signs with: its current one, and each one rotated out until its own grace ends
// (issue 37: a second rotation inside the grace dropped the original secret early). `previous_secret` is the one
// rotated out last, `older_secrets` (JSONB) the ones before it; at most MAX_RETIRED_SECRETS are in their grace at once,
// so a request carries at most MAX_RETIRED_SECRETS + 1 signatures.
import { ApiError } from '../contract/errors.ts';

export interface RetiredSecret {
  secret: string;
  /** ISO time its grace ends */
  expires_at: string;
}
/** A channel's secret columns, as the account database returns them (JSONB parsed, or as text). */
export interface SecretColumns {
  secret: string | null;
  previous_secret: string | null;
  previous_secret_expires_at: string | Date | null;
  older_secrets: RetiredSecret[] | string | null;
}

export const MAX_RETIRED_SECRETS = 3;

const olderOf = (v: SecretColumns['older_secrets']): RetiredSecret[] =>
  (typeof v === 'string' ? (JSON.parse(v) as RetiredSecret[]) : v) ?? [];

/** The rotated-out secrets still in their grace at `now`, the one rotated out last first. */
export function secretsInGrace(c: SecretColumns, now: Date): RetiredSecret[] {
  const previous =
    c.previous_secret && c.previous_secret_expires_at
      ? [{ secret: c.previous_secret, expires_at: new Date(c.previous_secret_expires_at).toISOString() }]
      : [];
  return [...previous, ...olderOf(c.older_secrets)].filter((s) => Date.parse(s.expires_at) > now.getTime());
}

/** What a delivery is signed with: the current secret, then every rotated-out one still in its grace. */
export const signingSecrets = (c: SecretColumns, now: Date): string[] =>
  c.secret ? [c.secret, ...secretsInGrace(c, now).map((s) => s.secret)] : [];

/** 403 `account_limit`: a rotation now would leave more secrets in their grace than a request carries. */
export function tooManySecrets(inGrace: RetiredSecret[]): ApiError {
  const first = inGrace.map((s) => s.expires_at).sort()[0];
  return new ApiError({
    status: 403,
    code: 'account_limit',
    param: 'channel_id',
    message: `A webhook channel signs with at most ${MAX_RETIRED_SECRETS + 1} secrets at once, and ${inGrace.length} rotated-out secrets of this channel are still in their grace (the first until ${first}). Rotate again after that.`,
  });
}
