// Signing up and signing in. spec: Authentication (read endpoints stay keyless; rules belong to an account). An account
// is created with an email address and verified by an eight-digit code or a one-time link sent by email (30 minutes);
// verifying returns an API key, shown once. The same two steps sign an existing account in again and issue a new key.
// Asking again never cancels a code already sent (issue 37: anyone could kill the owner's code every 61 s): each
// stays valid until used or expired, and a guess is compared with every open code. Limits: sign-in-limits.ts.
import { z } from 'zod';
import type { ApiError } from '../contract/errors.ts';
import { err } from './account-errors.ts';
import { iso, type Account, type AccountServiceOptions } from './account-types.ts';
import { insertKey, type NewKey } from './api-keys.ts';
import { pruneCounters } from './limit-counters.ts';
import { CODE_DIGITS, newId, newVerification, sameDigest, sha256 } from './secrets.ts';
import { countGuess, countMail, countTry, VERIFY_TTL_MIN, type OpenCode } from './sign-in-limits.ts';
import { guesserOf } from './sign-in-network.ts';
import type { Sql } from './sql.ts';

const emailSchema = z.string().trim().toLowerCase().email().max(254);
const CODE = new RegExp(`^\\d{${CODE_DIGITS}}$`);

type Verification = { id: string; account_id: string };
export type VerifyInput = { email?: unknown; code?: unknown; token?: unknown };

/**
 * Creates the account if new, and sends a verification code and link (only the link past the day's codes).
 * `requester`: the client's address; the code belongs to its network (sign-in-network.ts).
 */
export async function requestVerification(
  o: AccountServiceOptions,
  body: unknown,
  requester?: string,
): Promise<{ account_id: string; expires_at: string; code_sent: boolean }> {
  const raw = (body as { email?: unknown } | null)?.email;
  const parsed = emailSchema.safeParse(raw);
  if (!parsed.success) throw err.email(String(raw ?? ''));
  const email = parsed.data;
  const now = o.clock();
  await o.sql.query('INSERT INTO accounts (id, email, created_at) VALUES ($1, $2, $3) ON CONFLICT (email) DO NOTHING', [
    newId('acct'),
    email,
    now,
  ]);
  const [acct] = await o.sql.query<{ id: string }>('SELECT id FROM accounts WHERE email = $1', [email]);
  const { code: withCode } = await countMail(o.sql, acct.id, now);
  await pruneCounters(o.sql, now);
  const v = newVerification();
  const expires = new Date(now.getTime() + VERIFY_TTL_MIN * 60_000);
  const owner = guesserOf(requester, email);
  await o.sql.query(
    'INSERT INTO verifications (id, account_id, code_hash, token_hash, expires_at, requested_by) VALUES ($1, $2, $3, $4, $5, $6)',
    [newId('ver'), acct.id, withCode ? sha256(v.code) : null, sha256(v.token), expires, owner.real ? owner.key : null],
  );
  const link = new URL(`/api/v1/accounts/verify?token=${v.token}`, o.baseUrl).toString();
  const expiry = `It expires in ${VERIFY_TTL_MIN} minutes; codes and links sent before it keep working until they expire. If you did not ask for it, ignore this message.`;
  await o.mailer.send(
    withCode
      ? {
          to: email,
          subject: `Your US Power Outage Data code: ${v.code}`,
          text: `Your verification code is ${v.code}\n\nOr open this link: ${link}\n\n${expiry}`,
        }
      : {
          to: email,
          subject: 'Your US Power Outage Data sign-in link',
          text: `Open this link to sign in: ${link}\n\n(No code this time: today's codes for this address have all been sent.)\n\n${expiry}`,
        },
  );
  return { account_id: acct.id, expires_at: expires.toISOString(), code_sent: withCode };
}

/**
 * Checks a code (with the email) or a link token; verifies the account and issues an API key (shown once).
 * `requester`: the client's address, whose network the code limits count against (sign-in-limits.ts).
 */
export async function verify(
  o: AccountServiceOptions,
  input: VerifyInput,
  requester?: string,
): Promise<{ account: Account; api_key: NewKey }> {
  const now = o.clock();
  const row =
    typeof input.token === 'string'
      ? await byToken(o.sql, input.token, now)
      : await byCode(o.sql, input, requester, now);
  return o.sql.transaction((tx) => verified(tx, row, now));
}

/** The open verification a link's token names. */
async function byToken(sql: Sql, token: string, now: Date): Promise<Verification> {
  const [row] = await sql.query<Verification>(
    'SELECT id, account_id FROM verifications WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2',
    [sha256(token), now],
  );
  if (!row) throw err.code();
  return row;
}

/**
 * The open code of the email that the code matches. The guess is counted (per guesser, per code, per account) before
 * it is compared with anything, each count in its own committed statement: a refusal or a wrong code leaves it counted.
 */
async function byCode(sql: Sql, input: VerifyInput, requester: string | undefined, now: Date): Promise<Verification> {
  const email = emailSchema.safeParse(input.email);
  if (!email.success) throw err.email(String(input.email ?? ''));
  if (typeof input.code !== 'string' || !CODE.test(input.code)) throw err.code();
  const guesser = guesserOf(requester, email.data);
  await countGuess(sql, guesser, now);
  const open = await sql.query<OpenCode & { code_hash: string }>(
    `SELECT v.id, v.account_id, v.code_hash, v.requested_by FROM verifications v JOIN accounts a ON a.id = v.account_id
    WHERE a.email = $1 AND v.used_at IS NULL AND v.expires_at > $2 AND v.code_hash IS NOT NULL ORDER BY v.expires_at DESC`,
    [email.data, now],
  );
  const digest = sha256(input.code);
  let refused: ApiError | null = null;
  for (const v of open) {
    const why = await countTry(sql, v, guesser, now);
    if (why) refused ??= why;
    else if (sameDigest(digest, v.code_hash)) return v;
  }
  // a code not compared because of a limit might have been the right one: say so rather than "wrong"
  throw refused ?? err.code();
}

/** Uses the verification up (once, however many answers race), marks the account verified and issues its key. */
async function verified(tx: Sql, row: Verification, now: Date): Promise<{ account: Account; api_key: NewKey }> {
  const used = await tx.query('UPDATE verifications SET used_at = $2 WHERE id = $1 AND used_at IS NULL RETURNING id', [
    row.id,
    now,
  ]);
  if (used.length === 0) throw err.code();
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
