// A rule's channels after they are saved: a webhook's signing secret rotated, a disabled channel enabled again, the
// rule's delivery log; and the notices the account was sent (a channel disabled after sustained failure, a target
// paused by its circuit breaker).
import { z } from 'zod';
import { ApiError } from '../contract/errors.ts';
import { err, parse } from './account-errors.ts';
import { iso, type Account, type AccountServiceOptions } from './account-types.ts';
import { resetBreaker } from './delivery-breaker.ts';
import { getRule } from './rule-store.ts';
import { newSigningSecret } from './secrets.ts';
import { MAX_RETIRED_SECRETS, secretsInGrace, tooManySecrets, type SecretColumns } from './signing-secrets.ts';

/** A rotated-out signing secret stays valid this long by default (it is also signed with during the window). */
export const ROTATION_GRACE_H = 24;

/**
 * New signing secret for a webhook channel; the one it replaces stays valid (and is also signed with) for
 * `grace_hours`, and every secret rotated out before keeps the rest of its own grace (signing-secrets.ts).
 */
export async function rotateSecret(
  o: AccountServiceOptions,
  a: Account,
  ruleId: string,
  channelId: string,
  body: unknown,
) {
  const { grace_hours } = parse(
    z.object({ grace_hours: z.number().min(0).max(168).default(ROTATION_GRACE_H) }).strict(),
    body ?? {},
  );
  await getRule(o, a, ruleId);
  const now = o.clock();
  const expires = new Date(now.getTime() + grace_hours * 3_600_000);
  const secret = newSigningSecret();
  await o.sql.transaction(async (tx) => {
    const [row] = await tx.query<SecretColumns>(
      `SELECT secret, previous_secret, previous_secret_expires_at, older_secrets FROM channels
        WHERE id = $1 AND rule_id = $2 AND kind = 'webhook' FOR UPDATE`,
      [channelId, ruleId],
    );
    if (!row) throw err.channel(channelId);
    const inGrace = secretsInGrace(row, now);
    if (inGrace.length >= MAX_RETIRED_SECRETS) throw tooManySecrets(inGrace);
    // the previous secret joins the older ones; the current one becomes the previous, until `expires`
    await tx.query(
      `UPDATE channels SET older_secrets = $3::jsonb, previous_secret = secret, previous_secret_expires_at = $4,
          secret = $5 WHERE id = $1 AND rule_id = $2`,
      [channelId, ruleId, JSON.stringify(inGrace), expires, secret],
    );
  });
  return { channel_id: channelId, secret, previous_secret_expires_at: expires.toISOString() };
}

/**
 * Re-enables a channel that was disabled after sustained failure; held deliveries resume, and its target's circuit
 * breaker forgets its failures (the account says the receiver is mended: the next delivery goes at once).
 */
export async function enableChannel(o: AccountServiceOptions, a: Account, ruleId: string, channelId: string) {
  await getRule(o, a, ruleId);
  const rows = await o.sql.query<{ target_key: string }>(
    `UPDATE channels SET status = 'active', consecutive_failures = 0, first_failure_at = NULL, disabled_at = NULL, disabled_reason = NULL WHERE id = $1 AND rule_id = $2 RETURNING target_key`,
    [channelId, ruleId],
  );
  if (rows.length === 0) throw err.channel(channelId);
  await resetBreaker(o.sql, rows[0].target_key);
  await o.sql.query(
    `UPDATE deliveries SET status = 'pending', next_attempt_at = $2 WHERE channel_id = $1 AND status = 'held'`,
    [channelId, o.clock()],
  );
  return getRule(o, a, ruleId);
}

/** The rule's latest deliveries (`limit`: 1–200, default 50), each with its attempt log. */
export async function deliveryLog(o: AccountServiceOptions, a: Account, ruleId: string, limitRaw: string | undefined) {
  await getRule(o, a, ruleId);
  const limit = limitRaw === undefined ? 50 : Number(limitRaw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200)
    throw new ApiError({
      status: 400,
      code: 'invalid_parameter',
      param: 'limit',
      message: `Expected \`limit\` to be a whole number from 1 to 200, got \`${limitRaw}\`.`,
    });
  const rows = await o.sql.query<Record<string, unknown>>(
    `SELECT d.id, d.channel_id, d.kind, d.event_id, d.status, d.attempts, d.created_at, d.next_attempt_at, d.delivered_at,
        coalesce((SELECT json_agg(json_build_object('at', x.at, 'outcome', x.outcome, 'status_code', x.status_code, 'latency_ms', x.latency_ms, 'error', x.error) ORDER BY x.id)
                  FROM delivery_attempts x WHERE x.delivery_id = d.id), '[]'::json) AS attempt_log
      FROM deliveries d JOIN channels c ON c.id = d.channel_id WHERE c.rule_id = $1 ORDER BY d.created_at DESC, d.id LIMIT $2`,
    [ruleId, limit],
  );
  return rows.map((r) => ({
    ...r,
    created_at: iso(r.created_at),
    next_attempt_at: iso(r.next_attempt_at),
    delivered_at: iso(r.delivered_at),
    attempt_log: typeof r.attempt_log === 'string' ? JSON.parse(r.attempt_log) : r.attempt_log,
  }));
}

/** The account's last 50 notices, newest first. */
export async function notices(o: AccountServiceOptions, a: Account) {
  const rows = await o.sql.query<Record<string, unknown>>(
    'SELECT at, kind, message FROM notices WHERE account_id = $1 ORDER BY at DESC LIMIT 50',
    [a.id],
  );
  return rows.map((r) => ({ ...r, at: iso(r.at) }));
}
