// Which due deliveries are sent next (issue 37 part 3: one account's never-answering URLs took every sender). A lease
// takes only what may start now: at most `target` in flight per target (1 while its breaker waits for a trial, none
// while it is paused: delivery-breaker.ts) and `account` per account, counting what is leased and not yet answered in
// the database, so every sending process sees it. Accounts take turns: every account's first delivery is leased before
// any account's second, so a neighbour's delivery never queues behind another account's backlog.
import { BREAKER_FAILURES, LEASE_S } from './delivery-policy.ts';
import type { Due } from './delivery-send.ts';
import type { Sql } from './sql.ts';

export interface InFlightLimits {
  target: number;
  account: number;
}

/**
 * The candidates, ranked. `busy`: what is leased and not yet answered, counted per target and per account; `room`:
 * what a target may have in flight now (its breaker's say); a paused target's deliveries are not even ranked.
 */
const PICK = `
  busy AS (
    SELECT c.target_key, r.account_id FROM deliveries d JOIN channels c ON c.id = d.channel_id JOIN rules r ON r.id = c.rule_id
    WHERE d.status = 'pending' AND d.lease_until >= $1
  ),
  t_busy AS (SELECT target_key, count(*) AS n FROM busy GROUP BY target_key),
  a_busy AS (SELECT account_id, count(*) AS n FROM busy GROUP BY account_id),
  free AS (
    SELECT d.id, d.next_attempt_at, r.account_id, coalesce(tb.n, 0) AS t_busy, coalesce(ab.n, 0) AS a_busy,
      row_number() OVER (PARTITION BY c.target_key ORDER BY d.next_attempt_at, d.id) AS t_rank,
      CASE WHEN c.kind <> 'email' AND b.consecutive_failures >= ${BREAKER_FAILURES} THEN 1 ELSE $4 END AS room
    FROM deliveries d JOIN channels c ON c.id = d.channel_id JOIN rules r ON r.id = c.rule_id
      LEFT JOIN target_breakers b ON b.target = c.target_key
      LEFT JOIN t_busy tb ON tb.target_key = c.target_key LEFT JOIN a_busy ab ON ab.account_id = r.account_id
    WHERE d.status = 'pending' AND d.next_attempt_at <= $1 AND (d.lease_until IS NULL OR d.lease_until < $1)
      AND NOT (c.kind <> 'email' AND coalesce(b.paused_until > $1, false))
  ),
  fits AS (
    SELECT f.*, row_number() OVER (PARTITION BY f.account_id ORDER BY f.t_rank, f.next_attempt_at, f.id) AS a_rank
    FROM free f WHERE f.t_busy + f.t_rank <= f.room
  ),
  picked AS (
    SELECT id, a_rank, next_attempt_at FROM fits WHERE a_busy + a_rank <= $5 ORDER BY a_rank, next_attempt_at, id LIMIT $3
  )`;

/**
 * Leases (LEASE_S) up to `batch` due deliveries that fit the limits, with what sending them needs of their channel,
 * rule and account, in turn order. A row another process leased meanwhile is skipped (the lease is re-checked).
 */
export async function leaseDue(sql: Sql, now: Date, batch: number, limits: InFlightLimits): Promise<Due[]> {
  const rows = await sql.query<Due & { a_rank: number; next_attempt_at: string }>(
    `WITH ${PICK}
    UPDATE deliveries d SET lease_until = $2 FROM picked p, channels c, rules r, accounts a
      WHERE d.id = p.id AND d.status = 'pending' AND (d.lease_until IS NULL OR d.lease_until < $1)
        AND c.id = d.channel_id AND r.id = c.rule_id AND a.id = r.account_id
      RETURNING d.id, d.channel_id, d.kind, d.event_id, d.dedupe_key, d.payload, d.attempts, c.kind AS ch_kind, c.target,
        c.target_key, c.secret, c.previous_secret, c.previous_secret_expires_at, c.older_secrets, a.id AS account_id,
        a.email, r.name AS rule_name, p.a_rank, p.next_attempt_at`,
    [now, new Date(now.getTime() + LEASE_S * 1000), batch, cap(limits.target), cap(limits.account)],
  );
  const order = (x: (typeof rows)[number]) => [Number(x.a_rank), new Date(x.next_attempt_at).getTime()];
  return rows
    .sort((x, y) => order(x)[0] - order(y)[0] || order(x)[1] - order(y)[1] || (x.id < y.id ? -1 : 1))
    .map(({ a_rank: _, next_attempt_at: __, ...d }) => d);
}

/** A limit as SQL takes it: a benchmark lifts one to Infinity. */
const cap = (n: number): number => (Number.isFinite(n) ? n : 2 ** 31 - 1);
