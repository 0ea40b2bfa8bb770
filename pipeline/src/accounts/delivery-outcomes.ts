// What a batch of answered attempts writes, in one transaction: the attempt log (time, outcome, status code, latency,
// error); each URL target's circuit breaker (delivery-breaker.ts); each channel's run of failures, disabling a channel
// that failed DISABLE_AFTER_FAILURES attempts in a row over DISABLE_AFTER_HOURS (its pending deliveries held, the
// account sent a notice and an email); deliveries delivered, retried at the schedule's next step ± jitter, or given
// up after MAX_ATTEMPTS — never while their target's breaker is open: a paused target's backlog is kept (issue 37).
import { countTargetFailures, pauseTargets } from './delivery-breaker.ts';
import { DISABLE_AFTER_FAILURES, DISABLE_AFTER_HOURS, MAX_ATTEMPTS } from './delivery-policy.ts';
import { attemptText } from './delivery-send.ts';
import { failureRuns, type Answered, type Run } from './failure-runs.ts';
import type { Mailer } from './mailer.ts';
import type { Sql } from './sql.ts';

export type { Answered } from './failure-runs.ts';

export interface OutcomeOptions {
  sql: Sql;
  mailer: Mailer;
  clock: () => Date;
  /** seconds to wait after attempt n (1-based) failed */
  schedule: number[];
  /** 0–1: the jitter share (default 0.2) */
  jitter?: number;
  log?: (s: string) => void;
}

type ChannelFailures = { id: string; consecutive_failures: number; first_failure_at: string | null; status: string };
type Notice = { to: string; text: string };

export async function commitOutcomes(o: OutcomeOptions, items: Answered[]): Promise<void> {
  const notices: Notice[] = [];
  await o.sql.transaction(async (tx) => {
    await logAttempts(tx, items);
    const runs = failureRuns(items, (i) => i.d.channel_id);
    const changed = await countFailures(tx, runs);
    const now = o.clock();
    for (const c of changed) {
      if (!mustDisable(c, now)) continue;
      notices.push(await disable(tx, c, runs.get(c.id)!.last, now));
    }
    await markDelivered(
      tx,
      items.filter((i) => i.r.ok),
    );
    const tripped = await countTargetFailures(tx, items, now);
    await scheduleRetries(
      tx,
      items.filter((i) => !i.r.ok),
      o,
      tripped.open,
    );
    await pauseTargets(tx, tripped.pauses, now); // after the retries: a pause moves them to its end
  });
  for (const n of notices) {
    await o.mailer
      .send({ to: n.to, subject: 'A delivery channel of your alert rule was disabled', text: n.text })
      .catch((e: Error) => o.log?.(`notice email to ${n.to} failed: ${e.message}`));
  }
}

async function logAttempts(tx: Sql, items: Answered[]): Promise<void> {
  await tx.query(
    `INSERT INTO delivery_attempts (delivery_id, at, outcome, status_code, latency_ms, error)
        SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::int[], $5::int[], $6::text[])`,
    [
      items.map((i) => i.d.id),
      items.map((i) => i.at),
      items.map((i) => i.r.outcome),
      items.map((i) => i.r.status),
      items.map((i) => i.r.ms),
      items.map((i) => i.r.error),
    ],
  );
}

/** Adds the runs to the channels' failure counts; returns each channel's count and state after. */
function countFailures(tx: Sql, runs: Map<string, Run>): Promise<ChannelFailures[]> {
  const ids = [...runs.keys()];
  return tx.query<ChannelFailures>(
    `UPDATE channels c SET
          consecutive_failures = CASE WHEN x.reset THEN x.n ELSE c.consecutive_failures + x.n END,
          first_failure_at = CASE WHEN x.n = 0 THEN NULL WHEN x.reset THEN x.first ELSE coalesce(c.first_failure_at, x.first) END
        FROM unnest($1::text[], $2::bool[], $3::int[], $4::timestamptz[]) AS x(id, reset, n, first) WHERE c.id = x.id
        RETURNING c.id, c.consecutive_failures, c.first_failure_at, c.status`,
    [ids, ids.map((k) => runs.get(k)!.reset), ids.map((k) => runs.get(k)!.n), ids.map((k) => runs.get(k)!.first)],
  );
}

const mustDisable = (c: ChannelFailures, now: Date): boolean =>
  c.status === 'active' &&
  c.consecutive_failures >= DISABLE_AFTER_FAILURES &&
  now.getTime() - new Date(c.first_failure_at!).getTime() >= DISABLE_AFTER_HOURS * 3_600_000;

/** Disables the channel and holds its pending deliveries; the account's notice, to be emailed after the commit. */
async function disable(tx: Sql, c: ChannelFailures, { d, r }: Answered, now: Date): Promise<Notice> {
  const reason = `${c.consecutive_failures} failed attempts in a row since ${new Date(c.first_failure_at!).toISOString()} (last: ${attemptText(r)})`;
  await tx.query(`UPDATE channels SET status = 'disabled', disabled_at = $2, disabled_reason = $3 WHERE id = $1`, [
    c.id,
    now,
    reason,
  ]);
  await tx.query(`UPDATE deliveries SET status = 'held' WHERE channel_id = $1 AND status = 'pending'`, [c.id]);
  const text = `The ${d.ch_kind} channel ${d.target} of your rule "${d.rule_name}" was disabled: ${reason}. Its deliveries are held; re-enable it with POST /api/v1/rules/{id}/channels/${c.id}/enable.`;
  await tx.query('INSERT INTO notices (account_id, at, kind, message) VALUES ($1, $2, $3, $4)', [
    d.account_id,
    now,
    'channel_disabled',
    text,
  ]);
  return { to: d.email, text };
}

async function markDelivered(tx: Sql, ok: Answered[]): Promise<void> {
  if (!ok.length) return;
  await tx.query(
    `UPDATE deliveries d SET status = 'delivered', attempts = d.attempts + 1, delivered_at = x.at, lease_until = NULL
          FROM unnest($1::text[], $2::timestamptz[]) AS x(id, at) WHERE d.id = x.id`,
    [ok.map((i) => i.d.id), ok.map((i) => i.at)],
  );
}

/** Failed attempts: retried at the schedule's next step, or given up after MAX_ATTEMPTS unless the target is open. */
async function scheduleRetries(tx: Sql, failed: Answered[], o: OutcomeOptions, open: Set<string>): Promise<void> {
  if (!failed.length) return;
  const next = failed.map((i) => {
    const wait =
      o.schedule[Math.min(i.d.attempts + 1, o.schedule.length) - 1] * (1 + (Math.random() * 2 - 1) * (o.jitter ?? 0.2));
    return new Date(i.at.getTime() + wait * 1000);
  });
  // a delivery in flight when its channel was disabled is held like the others
  const rows = await tx.query<{ id: string; status: string }>(
    `UPDATE deliveries d SET attempts = d.attempts + 1, lease_until = NULL, next_attempt_at = x.next,
            status = CASE WHEN d.attempts + 1 >= ${MAX_ATTEMPTS} AND NOT x.kept THEN 'failed'
              WHEN c.status = 'disabled' THEN 'held' ELSE 'pending' END
          FROM unnest($1::text[], $2::timestamptz[], $3::bool[]) AS x(id, next, kept), channels c
          WHERE d.id = x.id AND c.id = d.channel_id RETURNING d.id, d.status`,
    [failed.map((i) => i.d.id), next, failed.map((i) => open.has(i.d.target_key))],
  );
  const ids = new Set(rows.filter((r) => r.status === 'failed').map((r) => r.id));
  for (const i of failed) i.givenUp = ids.has(i.d.id);
}
