// Email channels to an address other than the account's own (issue 24: a rule name reading "Your account is suspended
// — verify at https://evil.example/login" reached any address): the address gets one message with a confirmation
// link and nothing else until it is opened. The message carries no text the account chose, so it cannot relay spam;
// it is sent at most once every CONFIRM_RESEND_MIN minutes per account and address, and an account sends at most
// CONFIRM_MAILS_PER_HOUR of them an hour (issue 37: saving and deleting rules mailed 521 strangers in 60 s). Past the
// cap the rule is still saved; the answer lists the addresses not asked, and saving it again later asks them.
import { ApiError } from '../contract/errors.ts';
import { bump } from './limit-counters.ts';
import type { Mailer } from './mailer.ts';
import { newVerification, sha256 } from './secrets.ts';
import type { Sql } from './sql.ts';

export const CONFIRM_TTL_DAYS = 7;
export const CONFIRM_RESEND_MIN = 60;
export const CONFIRM_MAILS_PER_HOUR = 10;
export const CONFIRM_PATH = '/api/v1/email-channels/confirm';

export interface ConfirmOptions {
  sql: Sql;
  mailer: Mailer;
  baseUrl: string;
  clock: () => Date;
}

/** What a save asked of the addresses pending confirmation (in the create and update answers of a rule). */
export interface Confirmations {
  /** addresses sent a confirmation link now */
  sent: string[];
  /** addresses not sent one: the account's hourly cap is spent (saving the rule again after `retry_at` asks them) */
  not_sent: string[];
  retry_at: string | null;
}

/**
 * Sends a confirmation link to each address not confirmed and not asked within CONFIRM_RESEND_MIN minutes, while the
 * account's hourly cap lasts. The cap is counted before the address is claimed, so concurrent saves cannot exceed it.
 */
export async function requestConfirmations(
  o: ConfirmOptions,
  accountId: string,
  addresses: string[],
): Promise<Confirmations> {
  const now = o.clock();
  const out: Confirmations = { sent: [], not_sent: [], retry_at: null };
  const asked = new Date(now.getTime() - CONFIRM_RESEND_MIN * 60_000);
  for (const address of addresses) {
    const [done] = await o.sql.query(
      'SELECT 1 FROM email_confirmations WHERE account_id = $1 AND address = $2 AND (confirmed_at IS NOT NULL OR sent_at > $3)',
      [accountId, address, asked],
    );
    if (done) continue;
    const cap = await bump(o.sql, `confirm-mail:${accountId}`, 3_600_000, now);
    if (cap.n > CONFIRM_MAILS_PER_HOUR) {
      out.not_sent.push(address);
      out.retry_at = cap.resetsAt.toISOString();
      continue;
    }
    const { token } = newVerification();
    const rows = await o.sql.query(
      `INSERT INTO email_confirmations (account_id, address, token_hash, sent_at, expires_at) VALUES ($1, $2, $3, $4, $5)
      ON CONFLICT (account_id, address) DO UPDATE SET token_hash = $3, sent_at = $4, expires_at = $5
        WHERE email_confirmations.confirmed_at IS NULL AND email_confirmations.sent_at <= $6
      RETURNING address`,
      [accountId, address, sha256(token), now, new Date(now.getTime() + CONFIRM_TTL_DAYS * 86_400_000), asked],
    );
    if (rows.length === 0) continue; // a concurrent save asked it first
    const link = new URL(`${CONFIRM_PATH}?token=${token}`, o.baseUrl).toString();
    await o.mailer.send({
      to: address,
      subject: 'Confirm outage alerts to this address (US Power Outage Data)',
      text: `An account of US Power Outage Data asked to send power outage alerts to this address.\n\nTo receive them, open this link within ${CONFIRM_TTL_DAYS} days:\n${link}\n\nUntil then nothing is sent here. If you did not expect this, ignore this message.`,
    });
    out.sent.push(address);
  }
  return out;
}

/** Opens a confirmation link: the address's pending email channels of that account become active. */
export async function confirmEmail(o: ConfirmOptions, token: unknown) {
  const now = o.clock();
  return o.sql.transaction(async (tx) => {
    const [row] = await tx.query<{ account_id: string; address: string }>(
      `UPDATE email_confirmations SET confirmed_at = coalesce(confirmed_at, $2)
      WHERE token_hash = $1 AND expires_at > $2 RETURNING account_id, address`,
      [sha256(typeof token === 'string' ? token : ''), now],
    );
    if (!row)
      throw new ApiError({
        status: 400,
        code: 'invalid_code',
        param: 'token',
        message: 'The confirmation link is wrong or expired. Saving the rule again sends a new one.',
      });
    const channels = await tx.query<{ id: string }>(
      `UPDATE channels c SET status = 'active' FROM rules r
      WHERE c.rule_id = r.id AND r.account_id = $1 AND c.kind = 'email' AND lower(c.target) = $2 AND c.status = 'pending'
      RETURNING c.id`,
      [row.account_id, row.address],
    );
    // deliveries held while a channel saved before confirmation existed waited (migration 003)
    await tx.query(
      `UPDATE deliveries SET status = 'pending', next_attempt_at = $2 WHERE channel_id = ANY($1::text[]) AND status = 'held'`,
      [channels.map((c) => c.id), now],
    );
    return { address: row.address, confirmed_at: now.toISOString(), channels: channels.length };
  });
}
