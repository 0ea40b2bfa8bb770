// Which due deliveries are sent next (issue 37 part 3: one account's never-answering URLs took every sender). A lease
// takes only what may start now: at most `target` in flight per target (1 while its breaker waits for a trial, none
// while it is paused: delivery-breaker.ts) and `account` per account. What is in flight is counted by the sending
// process itself (InFlight), not read from the leases: a lease's 60 s pass by the clock, and a clock that runs fast (the
// soak's, `poll --speed`) would end them while the requests are still out. Accounts take turns: every account's first
// delivery is leased before any account's second, so a neighbour's delivery never queues behind another's backlog.
import { BREAKER_FAILURES, LEASE_S } from './delivery-policy.ts';
import type { Due } from './delivery-send.ts';
import type { Sql } from './sql.ts';

export interface InFlightLimits {
  target: number;
  account: number;
}

/** What this process has sent and not yet recorded the answer of: per delivery, target and account. */
export class InFlight {
  private readonly ids = new Set<string>();
  private readonly targets = new Map<string, number>();
  private readonly accounts = new Map<string, number>();

  start(d: Due): void {
    this.ids.add(d.id);
    this.targets.set(d.target_key, (this.targets.get(d.target_key) ?? 0) + 1);
    this.accounts.set(d.account_id, (this.accounts.get(d.account_id) ?? 0) + 1);
  }

  end(d: Due): void {
    this.ids.delete(d.id);
    for (const [m, k] of [
      [this.targets, d.target_key],
      [this.accounts, d.account_id],
    ] as const) {
      const n = (m.get(k) ?? 1) - 1;
      if (n > 0) m.set(k, n);
      else m.delete(k);
    }
  }

  /** The lease's parameters $6…$10: targets and their counts, accounts and theirs, the deliveries. */
  params(): unknown[] {
    return [
      [...this.targets.keys()],
      [...this.targets.values()],
      [...this.accounts.keys()],
      [...this.accounts.values()],
      [...this.ids],
    ];
  }
}

/**
 * The candidates, ranked: the due deliveries not leased (here or by another process), those of a paused target not
 * even ranked; `room` is what a target may have in flight now (its breaker's say), less what it has.
 */
const PICK = `
  t_busy AS (SELECT * FROM unnest($6::text[], $7::int[]) AS x(target_key, n)),
  a_busy AS (SELECT * FROM unnest($8::text[], $9::int[]) AS x(account_id, n)),
  free AS (
    SELECT d.id, d.next_attempt_at, r.account_id, coalesce(tb.n, 0) AS t_busy, coalesce(ab.n, 0) AS a_busy,
      row_number() OVER (PARTITION BY c.target_key ORDER BY d.next_attempt_at, d.id) AS t_rank,
      CASE WHEN c.kind <> 'email' AND b.consecutive_failures >= ${BREAKER_FAILURES} THEN 1 ELSE $4 END AS room
    FROM deliveries d JOIN channels c ON c.id = d.channel_id JOIN rules r ON r.id = c.rule_id
      LEFT JOIN target_breakers b ON b.target = c.target_key
      LEFT JOIN t_busy tb ON tb.target_key = c.target_key LEFT JOIN a_busy ab ON ab.account_id = r.account_id
    WHERE d.status = 'pending' AND d.next_attempt_at <= $1 AND (d.lease_until IS NULL OR d.lease_until < $1)
      AND d.id <> ALL($10::text[]) AND NOT (c.kind <> 'email' AND coalesce(b.paused_until > $1, false))
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
export async function leaseDue(
  sql: Sql,
  now: Date,
  batch: number,
  limits: InFlightLimits,
  flying: InFlight,
): Promise<Due[]> {
  const rows = await sql.query<Due & { a_rank: number; next_attempt_at: string }>(
    `WITH ${PICK}
    UPDATE deliveries d SET lease_until = $2 FROM picked p, channels c, rules r, accounts a
      WHERE d.id = p.id AND d.status = 'pending' AND (d.lease_until IS NULL OR d.lease_until < $1)
        AND d.id <> ALL($10::text[])
        AND c.id = d.channel_id AND r.id = c.rule_id AND a.id = r.account_id
      RETURNING d.id, d.channel_id, d.kind, d.event_id, d.dedupe_key, d.payload, d.attempts, c.kind AS ch_kind, c.target,
        c.target_key, c.secret, c.previous_secret, c.previous_secret_expires_at, c.older_secrets, a.id AS account_id,
        a.email, r.name AS rule_name, p.a_rank, p.next_attempt_at`,
    [now, new Date(now.getTime() + LEASE_S * 1000), batch, cap(limits.target), cap(limits.account), ...flying.params()],
  );
  const order = (x: (typeof rows)[number]) => [Number(x.a_rank), new Date(x.next_attempt_at).getTime()];
  return rows
    .sort((x, y) => order(x)[0] - order(y)[0] || order(x)[1] - order(y)[1] || (x.id < y.id ? -1 : 1))
    .map(({ a_rank: _, next_attempt_at: __, ...d }) => d);
}

/** A limit as SQL takes it: a benchmark lifts one to Infinity. */
const cap = (n: number): number => (Number.isFinite(n) ? n : 2 ** 31 - 1);
