// Signing up and signing in. spec: Authentication (read endpoints stay keyless; rules belong to an account). An account
// is created with an email address and verified by a six-digit code or a one-time link sent by email (30 minutes,
// 5 tries); verifying returns an API key, shown once. The same two steps sign an existing account in again and issue
// a new key.
import { z } from 'zod';
import { ApiError } from '../contract/errors.ts';
import { err } from './account-errors.ts';
import { iso, type Account, type AccountServiceOptions } from './account-types.ts';
import { insertKey, type NewKey } from './api-keys.ts';
import { newId, newVerification, sameDigest, sha256 } from './secrets.ts';
import { mayTry, recordFailure, UNKNOWN_REQUESTER } from './sign-in-limits.ts';
import type { Sql } from './sql.ts';

export const VERIFY_TTL_MIN = 30;
export const VERIFY_RESEND_S = 60;

const emailSchema = z.string().trim().toLowerCase().email().max(254);

type Verification = { id: string; account_id: string; code_hash: string; attempts: number };
export type VerifyInput = { email?: unknown; code?: unknown; token?: unknown };

/** Creates the account if new, and sends a verification code and link. */
export async function requestVerification(
  o: AccountServiceOptions,
  body: unknown,
): Promise<{ account_id: string; expires_at: string }> {
  const raw = (body as { email?: unknown } | null)?.email;
  const parsed = emailSchema.safeParse(raw);
  if (!parsed.success) throw err.email(String(raw ?? ''));
  const email = parsed.data;
  const now = o.clock();
  const { accountId, v, expires } = await o.sql.transaction(async (tx) => {
    let [acct] = await tx.query<{ id: string }>('SELECT id FROM accounts WHERE email = $1', [email]);
    if (!acct) {
      acct = { id: newId('acct') };
      await tx.query('INSERT INTO accounts (id, email, created_at) VALUES ($1, $2, $3)', [acct.id, email, now]);
    }
    const [recent] = await tx.query<{ n: number }>(
      `SELECT count(*)::INT AS n FROM verifications WHERE account_id = $1 AND expires_at - interval '${VERIFY_TTL_MIN} minutes' > $2`,
      [acct.id, new Date(now.getTime() - VERIFY_RESEND_S * 1000)],
    );
    if (recent.n > 0) throw err.rate(VERIFY_RESEND_S);
    const v = newVerification();
    const expires = new Date(now.getTime() + VERIFY_TTL_MIN * 60_000);
    await tx.query('UPDATE verifications SET used_at = $2 WHERE account_id = $1 AND used_at IS NULL', [acct.id, now]);
    await tx.query(
      'INSERT INTO verifications (id, account_id, code_hash, token_hash, expires_at) VALUES ($1, $2, $3, $4, $5)',
      [newId('ver'), acct.id, sha256(v.code), sha256(v.token), expires],
    );
    return { accountId: acct.id, v, expires };
  });
  const link = new URL(`/api/v1/accounts/verify?token=${v.token}`, o.baseUrl).toString();
  await o.mailer.send({
    to: email,
    subject: `Your US Power Outage Data code: ${v.code}`,
    text: `Your verification code is ${v.code}\n\nOr open this link: ${link}\n\nIt expires in ${VERIFY_TTL_MIN} minutes. If you did not ask for it, ignore this message.`,
  });
  return { account_id: accountId, expires_at: expires.toISOString() };
}

/**
 * Checks a code (with the email) or a link token; verifies the account and issues an API key (shown once).
 * `requester`: the client's address; wrong codes are counted per requester (sign-in-limits.ts).
 */
export async function verify(
  o: AccountServiceOptions,
  input: VerifyInput,
  requester = UNKNOWN_REQUESTER,
): Promise<{ account: Account; api_key: NewKey }> {
  const now = o.clock();
  return o.sql
    .transaction(async (tx) => {
      const row =
        typeof input.token === 'string' ? await byToken(tx, input.token, now) : await byCode(tx, input, requester, now);
      return verified(tx, row, now);
    })
    .catch(async (e) => {
      // a wrong code's attempt count must survive the rollback of the failed transaction
      if (
        e instanceof ApiError &&
        e.body.code === 'invalid_code' &&
        typeof input.code === 'string' &&
        typeof input.email === 'string'
      ) {
        await recordFailure(o.sql, String(input.email).trim().toLowerCase(), requester, now);
      }
      throw e;
    });
}

/** The open verification a link's token names. */
async function byToken(tx: Sql, token: string, now: Date): Promise<Verification> {
  const [row] = await tx.query<Verification>(
    'SELECT id, account_id, code_hash, attempts FROM verifications WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2',
    [sha256(token), now],
  );
  if (!row) throw err.code();
  return row;
}

/** The newest open verification of the email, when the code matches and the requester may still try. */
async function byCode(tx: Sql, input: VerifyInput, requester: string, now: Date): Promise<Verification> {
  const email = emailSchema.safeParse(input.email);
  if (!email.success) throw err.email(String(input.email ?? ''));
  if (typeof input.code !== 'string' || !/^\d{6}$/.test(input.code)) throw err.code();
  const [row] = await tx.query<Verification>(
    `SELECT v.id, v.account_id, v.code_hash, v.attempts FROM verifications v JOIN accounts a ON a.id = v.account_id
          WHERE a.email = $1 AND v.used_at IS NULL AND v.expires_at > $2 ORDER BY v.expires_at DESC LIMIT 1`,
    [email.data, now],
  );
  // a wrong code is counted outside this (rolled back) transaction: see verify's catch
  if (!row || !(await mayTry(tx, row, requester, now)) || !sameDigest(sha256(input.code), row.code_hash))
    throw err.code();
  return row;
}

/** Uses the verification up, marks the account verified and issues its key. */
async function verified(tx: Sql, row: Verification, now: Date): Promise<{ account: Account; api_key: NewKey }> {
  await tx.query('UPDATE verifications SET used_at = $2 WHERE id = $1', [row.id, now]);
  await tx.query('UPDATE accounts SET verified_at = coalesce(verified_at, $2) WHERE id = $1', [row.account_id, now]);
  const key = await insertKey(tx, row.account_id, 'first key', now);
  const [account] = await tx.query<Account>('SELECT id, email, created_at, verified_at FROM accounts WHERE id = $1', [
    row.account_id,
  ]);
  return {
    account: { ...account, created_at: iso(account.created_at)!, verified_at: iso(account.verified_at) },
    api_key: key,
  };
}
