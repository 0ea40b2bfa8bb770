// Wrong sign-in codes counted per requester (issue 24: anyone could lock an address out by spending its code
// attempts). A code is refused to one requester (client address) after VERIFY_MAX_TRIES wrong tries, while its owner,
// asking from elsewhere, can still use it; everyone together gets VERIFY_MAX_TOTAL_TRIES (guessing a six-digit code
// stays hopeless), and one requester at most SIGN_IN_FAILURES_PER_HOUR wrong codes an hour across all addresses.
import { ApiError } from '../contract/errors.ts';
import type { Sql } from './sql.ts';

export const VERIFY_MAX_TRIES = 5;
export const VERIFY_MAX_TOTAL_TRIES = 100;
export const SIGN_IN_FAILURES_PER_HOUR = 20;

/** Who is asking when the client's address is unknown (an in-process call, or a proxy not configured as trusted). */
export const UNKNOWN_REQUESTER = 'local';

const tooMany = () =>
  new ApiError(
    {
      status: 429,
      code: 'rate_limited',
      message: `More than ${SIGN_IN_FAILURES_PER_HOUR} wrong codes from this client in an hour; wait before trying again.`,
    },
    { 'Retry-After': '3600' },
  );

/** 429 when the requester has spent its hourly wrong codes; else whether it may still try this code. */
export async function mayTry(
  tx: Sql,
  v: { id: string; attempts: number },
  requester: string,
  now: Date,
): Promise<boolean> {
  const [{ hour, here }] = await tx.query<{ hour: number; here: number }>(
    `SELECT count(*)::INT AS hour, count(*) FILTER (WHERE verification_id = $2)::INT AS here
    FROM sign_in_failures WHERE requester = $1 AND at > $3`,
    [requester, v.id, new Date(now.getTime() - 3_600_000)],
  );
  if (hour >= SIGN_IN_FAILURES_PER_HOUR) throw tooMany();
  return here < VERIFY_MAX_TRIES && v.attempts < VERIFY_MAX_TOTAL_TRIES;
}

/** Counts a wrong code against the address's current code and the requester (outside the failed transaction). */
export async function recordFailure(sql: Sql, email: string, requester: string, now: Date): Promise<void> {
  const [v] = await sql.query<{ id: string }>(
    `UPDATE verifications SET attempts = attempts + 1 WHERE used_at IS NULL AND account_id = (SELECT id FROM accounts WHERE email = $1)
    RETURNING id`,
    [email],
  );
  await sql.query('INSERT INTO sign_in_failures (verification_id, requester, at) VALUES ($1, $2, $3)', [
    v?.id ?? null,
    requester,
    now,
  ]);
}
