// Delivery of matching events (and sync pushes) to every channel of every rule, at least once. spec: Events —
// Delivery channels. Design (documented in the OpenAPI webhooks section and docs/alert-rules-and-webhooks.md):
//  - ingest: after each pipeline cycle the new events (ids above the stored cursor) are matched against the rules and
//    one delivery is enqueued per event × channel (one per account × target: fan-out.ts) — idempotently (unique
//    channel × event), so re-ingesting after a crash enqueues nothing twice; incident events at most
//    INCIDENT_DELIVERIES_PER_CYCLE an account (delivery-policy.ts);
//  - send: due deliveries are leased (60 s) as senders come free — at most TARGET_IN_FLIGHT in flight per target and
//    ACCOUNT_IN_FLIGHT per account, accounts taking turns (delivery-lease.ts), none to a target whose circuit breaker
//    has paused it (delivery-breaker.ts) — at most TARGET_PER_MINUTE a minute per target (target-limit.ts), sent
//    (delivery-send.ts), and each outcome committed with the attempt log (time, outcome, status code, latency, error)
//    within 20 ms of the answer, up to 200 outcomes a transaction (delivery-batch.ts, delivery-outcomes.ts). A 2xx
//    marks the delivery delivered and it is never sent again; a crash before the outcome is committed sends it again
//    after the lease (at least once — receivers deduplicate on the Service-Event-Id header);
//  - retries: after a failure or a timeout (10 s) at RETRY_SCHEDULE_S[attempt − 1] ± 20 % jitter; after MAX_ATTEMPTS
//    attempts the delivery is given up (`failed`), never while its target's breaker is open (a paused target's backlog
//    is kept) (these numbers: delivery-policy.ts);
//  - the log of finished deliveries is kept LOG_RETENTION_DAYS days;
//  - a channel that has failed DISABLE_AFTER_FAILURES attempts in a row for at least DISABLE_AFTER_HOURS is disabled;
//    its pending deliveries are held (not dropped) until the account re-enables it, and the account gets a notice
//    and an email.
import PQueue from 'p-queue';
import type { Dispatcher } from 'undici';
import type { PublicEvent } from '../contract/events.ts';
import type { ChannelRow } from './account-types.ts';
import { CommitBatcher } from './delivery-batch.ts';
import { InFlight, leaseDue, type InFlightLimits } from './delivery-lease.ts';
import { commitOutcomes, type Answered } from './delivery-outcomes.ts';
import {
  ACCOUNT_IN_FLIGHT,
  DELIVERY_TIMEOUT_MS,
  INCIDENT_DELIVERIES_PER_CYCLE,
  LOG_RETENTION_DAYS,
  RETRY_SCHEDULE_S,
  SENDERS,
  TARGET_IN_FLIGHT,
} from './delivery-policy.ts';
import { sendDelivery, type Due, type SendOptions } from './delivery-send.ts';
import { eventDeliveries } from './fan-out.ts';
import type { Mailer } from './mailer.ts';
import type { Rule } from './rules.ts';
import { safeAgent, type SafetyOptions } from './safety.ts';
import type { Sql } from './sql.ts';
import { admitByTarget } from './target-limit.ts';

export interface DeliveryOptions {
  sql: Sql;
  mailer: Mailer;
  baseUrl: string;
  clock: () => Date;
  safety: SafetyOptions;
  timeoutMs?: number;
  /** deliveries in flight at once (default SENDERS) */
  concurrency?: number;
  /** in flight per target and per account (defaults TARGET_IN_FLIGHT, ACCOUNT_IN_FLIGHT; the benchmark lifts them) */
  inFlight?: Partial<InFlightLimits>;
  /** seconds to wait after attempt n (1-based) failed; defaults to RETRY_SCHEDULE_S */
  retrySchedule?: number[];
  /** 0–1: the jitter share (default 0.2) */
  jitter?: number;
  log?: (s: string) => void;
  /** deliveries a minute per target (default TARGET_PER_MINUTE; the benchmark lifts it) */
  targetPerMinute?: number;
  /** the DNS resolver connections use (tests inject one; the default is the system's) */
  resolver?: typeof import('node:dns').lookup;
}

export interface RunStats {
  attempted: number;
  delivered: number;
  retrying: number;
  failed: number;
}

export class DeliveryEngine {
  private readonly agent: Dispatcher;
  private readonly sendOptions: SendOptions;
  private readonly outcomes: CommitBatcher<Answered>;
  private readonly senders: number;
  private readonly limits: InFlightLimits;
  private readonly flying = new InFlight();
  /** wakes a run waiting for a sender to come free: new deliveries were enqueued (`nudge`) */
  private wake: () => void = () => {};
  private nudges = 0;
  constructor(private readonly o: DeliveryOptions) {
    this.senders = o.concurrency ?? SENDERS;
    this.limits = { target: TARGET_IN_FLIGHT, account: ACCOUNT_IN_FLIGHT, ...o.inFlight };
    this.agent = safeAgent({
      ...o.safety,
      connectTimeoutMs: Math.min(5_000, o.timeoutMs ?? DELIVERY_TIMEOUT_MS),
      resolver: o.resolver,
    });
    const timeoutMs = o.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    this.sendOptions = { mailer: o.mailer, clock: o.clock, safety: o.safety, agent: this.agent, timeoutMs };
    const schedule = o.retrySchedule ?? RETRY_SCHEDULE_S;
    this.outcomes = new CommitBatcher((items) => commitOutcomes({ ...o, schedule }, items), this.senders);
  }

  private async loadRules(): Promise<Array<{ rule: Rule; channels: ChannelRow[] }>> {
    const rules = await this.o.sql.query<Rule>(
      'SELECT id, account_id, name, scope_kind, scope_value, scope_state, kinds, min_customers, min_pct, quiet_start, quiet_end, quiet_tz, watched FROM rules ORDER BY id',
    );
    const channels = await this.o.sql.query<ChannelRow>('SELECT * FROM channels ORDER BY id');
    const byRule = new Map<string, ChannelRow[]>();
    for (const c of channels) (byRule.get(c.rule_id) ?? byRule.set(c.rule_id, []).get(c.rule_id)!).push(c);
    return rules.map((rule) => ({ rule, channels: byRule.get(rule.id) ?? [] }));
  }

  /** The last event id turned into deliveries; null before the first cycle with accounts. */
  async cursor(): Promise<number | null> {
    const [row] = await this.o.sql.query<{ last_event_id: number }>(
      'SELECT last_event_id FROM delivery_cursor WHERE id = 1',
    );
    return row?.last_event_id ?? null;
  }

  /** Starts the cursor at `id` unless it has one (so rules never receive events from before accounts existed). */
  async initCursor(id: number): Promise<void> {
    await this.o.sql.query(
      'INSERT INTO delivery_cursor (id, last_event_id) VALUES (1, $1) ON CONFLICT (id) DO NOTHING',
      [id],
    );
  }

  /** Enqueues a delivery per matching event × channel and moves the cursor past `events`. Returns deliveries created. */
  async ingest(events: PublicEvent[]): Promise<number> {
    if (events.length === 0) return 0;
    const rules = await this.loadRules();
    const { rows, capped } = eventDeliveries(events, rules, this.o.clock(), this.o.baseUrl);
    const created = await this.insertDeliveries(rows);
    await this.noticeCapped(capped);
    const last = events.reduce((m, e) => Math.max(m, e.id), 0);
    await this.o.sql.query(
      'INSERT INTO delivery_cursor (id, last_event_id) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET last_event_id = greatest(delivery_cursor.last_event_id, $1)',
      [last],
    );
    return created;
  }

  /** Tells each account whose incident deliveries this cycle passed the cap how many were not sent. */
  private async noticeCapped(capped: Map<string, number>): Promise<void> {
    if (capped.size === 0) return;
    const text = (n: number) =>
      `${n} incident event deliveries of this cycle were not sent: an account gets at most ${INCIDENT_DELIVERIES_PER_CYCLE} a cycle. Every incident event is in /api/v1/events?scope=incident; a larger min_customers narrows the watch.`;
    await this.o.sql.query(
      `INSERT INTO notices (account_id, at, kind, message)
        SELECT x.account, $3::timestamptz, 'incident_cap', x.message FROM unnest($1::text[], $2::text[]) AS x(account, message)`,
      [[...capped.keys()], [...capped.values()].map(text), this.o.clock()],
    );
    this.o.log?.(`delivery: incident cap reached for ${capped.size} account(s)`);
  }

  /** Bulk insert through arrays (one statement per 2,000 rows); a delivery that exists already is left alone. */
  async insertDeliveries(rows: unknown[][]): Promise<number> {
    let created = 0;
    for (let i = 0; i < rows.length; i += 2000) {
      const chunk = rows.slice(i, i + 2000);
      const col = (k: number) => chunk.map((r) => r[k]);
      const res = await this.o.sql.query(
        `INSERT INTO deliveries (id, channel_id, kind, event_id, dedupe_key, payload, status, created_at, next_attempt_at)
        SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::timestamptz[], $9::timestamptz[])
        ON CONFLICT (channel_id, dedupe_key) DO NOTHING RETURNING id`,
        [col(0), col(1), col(2), col(3), col(4), col(5), col(6), col(7), col(8)],
      );
      created += res.length;
    }
    return created;
  }

  /**
   * Sends every delivery due now, and what falls due while it runs; returns when nothing due may start and nothing is
   * in flight. Deliveries are leased as senders come free (so two workers never send the same one at once), within the
   * in-flight limits (counted by this engine): a target or account at its limit waits for its own answers, the others
   * go on. One run at a time per engine (AccountsRuntime.send chains them).
   */
  async runDue(batch = 500): Promise<RunStats> {
    const stats: RunStats = { attempted: 0, delivered: 0, retrying: 0, failed: 0 };
    const queue = new PQueue({ concurrency: this.senders });
    let answered = 0;
    for (;;) {
      const seen = answered + this.nudges;
      const now = this.o.clock();
      const due = await leaseDue(this.o.sql, now, batch, this.limits, this.flying);
      for (const d of await admitByTarget(this.o.sql, due, now, this.o.targetPerMinute)) {
        this.flying.start(d);
        void queue.add(async () => {
          try {
            await this.deliver(d, stats);
          } finally {
            this.flying.end(d);
            answered += 1;
          }
        });
      }
      if (due.length > 0)
        await queue.onEmpty(); // all started: lease the next while they are sent
      else if (answered + this.nudges !== seen)
        continue; // an answer (or new work) came during the lease
      else if (queue.pending === 0) break;
      else await this.nextAnswerOrNudge(queue);
    }
    return stats;
  }

  /** A run in progress leases again now (new deliveries were enqueued) instead of at its next answer. */
  nudge(): void {
    this.nudges += 1;
    this.wake();
  }

  private nextAnswerOrNudge(queue: PQueue): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        queue.off('next', done);
        this.wake = () => {};
        resolve();
      };
      queue.on('next', done);
      this.wake = done;
    });
  }

  /** One attempt, its outcome committed (delivery-batch.ts) and counted. */
  private async deliver(d: Due, stats: RunStats): Promise<void> {
    const r = await sendDelivery(d, this.sendOptions);
    const answered: Answered = { d, r, at: this.o.clock() };
    await this.outcomes.add(answered);
    stats.attempted += 1;
    if (r.ok) stats.delivered += 1;
    else if (answered.givenUp) stats.failed += 1;
    else stats.retrying += 1;
  }

  /**
   * Drops finished deliveries older than the retention (their attempts go with them), and the breakers of targets no
   * channel has any more. Returns how many deliveries.
   */
  async prune(): Promise<number> {
    const cutoff = new Date(this.o.clock().getTime() - LOG_RETENTION_DAYS * 86_400_000);
    const rows = await this.o.sql.query(
      `DELETE FROM deliveries WHERE status IN ('delivered', 'failed') AND created_at < $1 RETURNING id`,
      [cutoff],
    );
    await this.o.sql.query(
      'DELETE FROM target_breakers b WHERE NOT EXISTS (SELECT 1 FROM channels c WHERE c.target_key = b.target)',
    );
    return rows.length;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
