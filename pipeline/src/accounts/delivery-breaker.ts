// A URL target's circuit breaker (issue 37 part 3; the numbers: delivery-policy.ts). Every answered attempt to a
// webhook or chat URL counts into its target's run of failures (a success deletes the run); at BREAKER_FAILURES in a
// row the target is open and paused: the lease (delivery-lease.ts) sends nothing to it until `paused_until`, then one delivery
// as a trial. Its deliveries stay `pending` in the job table meanwhile, never dropped (a failed attempt to an open
// target never gives a delivery up, however many it has had), due at the pause's end (so a
// large backlog behind a pause is not even read by the leases meanwhile; the pause is not an attempt). The accounts with a channel to
// the target get a notice at the first pause since its last success, and each such channel shows `paused_until` and
// `paused_reason` in the rule answers. Email targets have none: a slow mail relay is ours, not the address's.
import { BREAKER_FAILURES, BREAKER_MAX_PAUSE_S, breakerPauseS } from './delivery-policy.ts';
import { attemptText } from './delivery-send.ts';
import { failureRuns, type Answered, type Run } from './failure-runs.ts';
import type { Sql } from './sql.ts';

interface Breaker {
  target: string;
  consecutive_failures: number;
  openings: number;
  paused_until: string | null;
}
interface Pause {
  target: string;
  until: Date;
  reason: string;
  /** the first pause since the target's last success: its accounts get a notice */
  first: boolean;
}

/** What a batch's answers did to the breakers: the targets now open (kept, never given up) and those to pause. */
export interface Tripped {
  open: Set<string>;
  pauses: Pause[];
}

/**
 * Counts a batch of answers into the targets' breakers: the targets at BREAKER_FAILURES failures or more are open
 * (their failed deliveries are kept, not given up: delivery-outcomes.ts), and those not yet paused are to be paused
 * (pauseTargets, once the batch's retries are scheduled).
 */
export async function countTargetFailures(tx: Sql, items: Answered[], now: Date): Promise<Tripped> {
  const urls = items.filter((i) => i.d.ch_kind !== 'email');
  const runs = failureRuns(urls, (i) => i.d.target_key);
  const reset = [...runs.keys()].filter((k) => runs.get(k)!.reset);
  if (reset.length) await tx.query('DELETE FROM target_breakers WHERE target = ANY($1::text[])', [reset]);
  const failing = [...runs.keys()].filter((k) => runs.get(k)!.n > 0);
  if (failing.length === 0) return { open: new Set(), pauses: [] };
  const counted = await tx.query<Breaker>(
    `INSERT INTO target_breakers AS b (target, consecutive_failures) SELECT * FROM unnest($1::text[], $2::int[])
      ON CONFLICT (target) DO UPDATE SET consecutive_failures = b.consecutive_failures + excluded.consecutive_failures
      RETURNING target, consecutive_failures, openings, paused_until`,
    [failing, failing.map((k) => runs.get(k)!.n)],
  );
  const open = new Set(counted.filter((b) => b.consecutive_failures >= BREAKER_FAILURES).map((b) => b.target));
  const pauses = counted.filter((b) => mustPause(b, now)).map((b) => pauseOf(b, runs.get(b.target)!, now));
  return { open, pauses };
}

/** At the count, and not paused now (a failure answered during a pause, sent before it began, only counts). */
const mustPause = (b: Breaker, now: Date): boolean =>
  b.consecutive_failures >= BREAKER_FAILURES && !(b.paused_until && new Date(b.paused_until) > now);

function pauseOf(b: Breaker, run: Run, now: Date): Pause {
  return {
    target: b.target,
    until: new Date(now.getTime() + breakerPauseS(b.openings + 1) * 1000),
    reason: `${b.consecutive_failures} failed attempts in a row (last: ${attemptText(run.last.r)})`,
    first: b.openings === 0,
  };
}

/** Pauses the targets: their pending deliveries (the batch's retries included) wait for the pause's end. */
export async function pauseTargets(tx: Sql, pauses: Pause[], now: Date): Promise<void> {
  if (pauses.length === 0) return;
  await tx.query(
    `UPDATE target_breakers b SET openings = b.openings + 1, paused_until = x.until, paused_reason = x.reason
      FROM unnest($1::text[], $2::timestamptz[], $3::text[]) AS x(target, until, reason) WHERE b.target = x.target`,
    [pauses.map((p) => p.target), pauses.map((p) => p.until), pauses.map((p) => p.reason)],
  );
  await tx.query(
    `UPDATE deliveries d SET next_attempt_at = x.until
      FROM unnest($1::text[], $2::timestamptz[]) AS x(target, until), channels c
      WHERE c.target_key = x.target AND d.channel_id = c.id AND d.status = 'pending' AND d.next_attempt_at < x.until
        AND (d.lease_until IS NULL OR d.lease_until < $3)`,
    [pauses.map((p) => p.target), pauses.map((p) => p.until), now],
  );
  const told = pauses.filter((p) => p.first);
  if (told.length === 0) return;
  await tx.query(
    `INSERT INTO notices (account_id, at, kind, message)
      SELECT DISTINCT r.account_id, $3::timestamptz, 'target_paused', x.message
      FROM unnest($1::text[], $2::text[]) AS x(target, message)
      JOIN channels c ON c.target_key = x.target JOIN rules r ON r.id = c.rule_id`,
    [told.map((p) => p.target), told.map(noticeText), now],
  );
}

const noticeText = (p: Pause): string =>
  `Deliveries to ${p.target} are paused until ${p.until.toISOString()}: ${p.reason}. Nothing is dropped: they wait and are sent when the pause ends, one first; while that one fails the pause doubles, up to ${BREAKER_MAX_PAUSE_S / 60} min. Its channels show paused_until in GET /api/v1/rules.`;

/** Forgets a target's failures (its channel re-enabled by the account): the next delivery goes at once. */
export async function resetBreaker(sql: Sql, target: string): Promise<void> {
  await sql.query('DELETE FROM target_breakers WHERE target = $1', [target]);
}
