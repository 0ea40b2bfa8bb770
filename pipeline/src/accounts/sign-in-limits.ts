// The sign-in limits (issue 37; docs/alert-rules-and-webhooks.md: Signing in). Every limit is counted before the answer is given
// (limit-counters.ts), so concurrent attempts cannot all pass one read before any was written. They are on the
// guesser (its network: sign-in-network.ts), on each code, and on the account:
//  - a guesser gets GUESSES_PER_HOUR codes an hour across all addresses, and VERIFY_MAX_TRIES tries at each code;
//  - a code belongs to the network that asked for it: there its VERIFY_MAX_TRIES tries are its own, whatever anyone
//    else does; every other try at an account's codes (another network, a shared address) counts against the
//    account's FOREIGN_TRIES_PER_DAY — so a stranger's wrong guesses cannot spend the owner's tries;
//  - an account gets one sign-in email a minute and MAILS_PER_TTL per code lifetime; past CODES_PER_DAY codes a day
//    the email carries only the link (192 random bits: never guessed, never refused for anyone's wrong codes).
import { ApiError } from '../contract/errors.ts';
import { bump, secondsUntil } from './limit-counters.ts';
import { CODE_DIGITS } from './secrets.ts';
import type { Guesser } from './sign-in-network.ts';
import type { Sql } from './sql.ts';

export const VERIFY_TTL_MIN = 30;
export const VERIFY_RESEND_S = 60;
export const MAILS_PER_TTL = 4;
export const CODES_PER_DAY = 4;
export const VERIFY_MAX_TRIES = 5;
export const GUESSES_PER_HOUR = 20;
export const FOREIGN_TRIES_PER_DAY = 15;

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const TTL_MS = VERIFY_TTL_MIN * 60_000;

/**
 * The most comparisons of a guess with one account's codes in any 24 hours. Codes tried within 24 hours were issued
 * within 24 hours and a lifetime, which meets at most 3 day-windows of CODES_PER_DAY; each is compared at most
 * VERIFY_MAX_TRIES times for the network that asked for it, and every other comparison counts against
 * FOREIGN_TRIES_PER_DAY, of whose windows 24 hours meet at most 2. Each comparison hits a random code with chance
 * 10^-CODE_DIGITS, so this over 10^CODE_DIGITS bounds the chance that a stranger takes the account in a day.
 */
export const MAX_COMPARISONS_PER_DAY = 3 * CODES_PER_DAY * VERIFY_MAX_TRIES + 2 * FOREIGN_TRIES_PER_DAY;
export const MAX_TAKEOVER_CHANCE_PER_DAY = MAX_COMPARISONS_PER_DAY / 10 ** CODE_DIGITS;

const limited = (message: string, retryAfterS: number) =>
  new ApiError({ status: 429, code: 'rate_limited', message }, { 'Retry-After': String(retryAfterS) });

/**
 * Counts a sign-in email to the account: 429 within a minute of the last, or past MAILS_PER_TTL in a code's lifetime
 * (so a refusal always leaves a working link in the inbox). `code`: whether it may still carry a code today.
 */
export async function countMail(sql: Sql, accountId: string, now: Date): Promise<{ code: boolean }> {
  const minute = await bump(sql, `mail-minute:${accountId}`, VERIFY_RESEND_S * 1000, now);
  if (minute.n > 1)
    throw limited(
      `A sign-in email was sent to this address less than ${VERIFY_RESEND_S} seconds ago; its code and link work. Wait before asking again.`,
      secondsUntil(minute, now),
    );
  const lifetime = await bump(sql, `mail-ttl:${accountId}`, TTL_MS, now);
  if (lifetime.n > MAILS_PER_TTL)
    throw limited(
      `${MAILS_PER_TTL} sign-in emails were sent to this address in the last ${VERIFY_TTL_MIN} minutes; the newest one's link works.`,
      secondsUntil(lifetime, now),
    );
  const codes = await bump(sql, `codes:${accountId}`, DAY_MS, now);
  return { code: codes.n <= CODES_PER_DAY };
}

/** Counts a guess against the guesser's hourly allowance, before anything is compared: 429 past it. */
export async function countGuess(sql: Sql, g: Guesser, now: Date): Promise<void> {
  const c = await bump(sql, `guess:${g.key}`, HOUR_MS, now);
  if (c.n > GUESSES_PER_HOUR)
    throw limited(
      `More than ${GUESSES_PER_HOUR} sign-in codes from this ${g.real ? 'network' : 'shared address for this account'} in an hour; wait, or open the link in the email.`,
      secondsUntil(c, now),
    );
}

export interface OpenCode {
  id: string;
  account_id: string;
  requested_by: string | null;
}

/** Counts a try at one open code; the 429 that refuses it, or null when the guess may be compared with it. */
export async function countTry(sql: Sql, v: OpenCode, g: Guesser, now: Date): Promise<ApiError | null> {
  const here = await bump(sql, `try:${v.id}:${g.key}`, TTL_MS, now);
  if (here.n > VERIFY_MAX_TRIES)
    return limited(
      `${VERIFY_MAX_TRIES} tries at this code from here already; open the link in the email, or ask for a new code.`,
      secondsUntil(here, now),
    );
  if (g.real && v.requested_by === g.key) return null;
  const foreign = await bump(sql, `foreign:${v.account_id}`, DAY_MS, now);
  if (foreign.n > FOREIGN_TRIES_PER_DAY)
    return limited(
      `This account's codes have had ${FOREIGN_TRIES_PER_DAY} tries today from networks other than the one that asked for them; enter the code from that network, or open the link in the email.`,
      secondsUntil(foreign, now),
    );
  return null;
}
