// Delivery of matching events (and sync pushes) to every channel of every rule, at least once. spec: Events —
// Delivery channels. Design (documented in the OpenAPI webhooks section and the README):
//  - ingest: after each pipeline cycle the new events (ids above the stored cursor) are matched against the rules and
//    one delivery is enqueued per event × channel (one per account × target: fan-out.ts) — idempotently (unique
//    channel × event), so re-ingesting after a crash enqueues nothing twice;
//  - send: due deliveries are leased (60 s), at most TARGET_PER_MINUTE a minute per target (target-limit.ts), sent, and each outcome committed with the attempt log (time, outcome,
//    status code, latency, error) within 20 ms of the answer, up to 200 outcomes a transaction. A 2xx marks the
//    delivery delivered and it is never sent again; a crash before the outcome is committed sends it again after the
//    lease (at least once — receivers deduplicate on the Service-Event-Id header);
//  - retries: after a failure or a timeout (10 s) at RETRY_SCHEDULE_S[attempt − 1] ± 20 % jitter; after
//    MAX_ATTEMPTS attempts the delivery is given up (`failed`);
//  - the log of finished deliveries is kept LOG_RETENTION_DAYS days;
//  - a channel that has failed DISABLE_AFTER_FAILURES attempts in a row for at least DISABLE_AFTER_HOURS is disabled;
//    its pending deliveries are held (not dropped) until the account re-enables it, and the account gets a notice
//    and an email.
import PQueue from 'p-queue';
import { request, type Dispatcher } from 'undici';
import type { PublicEvent } from '../contract/events.ts';
import type { Sql } from './sql.ts';
import type { Rule } from './rules.ts';
import { MAX_BODY_BYTES } from './channels.ts';
import { eventDeliveries } from './fan-out.ts';
import { admitByTarget } from './target-limit.ts';
import { signatureHeader, SIGNATURE_HEADER } from './signing.ts';
import { safeAgent, urlProblem, type SafetyOptions } from './safety.ts';
import type { Mailer } from './mailer.ts';
import type { ChannelRow } from './service.ts';

export const RETRY_SCHEDULE_S = [30, 120, 600, 1800, 3600, 10_800, 21_600];
export const MAX_ATTEMPTS = RETRY_SCHEDULE_S.length + 1;
export const DISABLE_AFTER_FAILURES = 15;
export const DISABLE_AFTER_HOURS = 24;
export const DELIVERY_TIMEOUT_MS = 10_000;
export const LEASE_S = 60;
export const MAX_REDIRECTS = 3;
/** Delivered and given-up deliveries (and their attempt logs) are kept this long. */
export const LOG_RETENTION_DAYS = 30;
const USER_AGENT = 'outage-data-webhooks/1 (+https://github.com/outage-data)';

export interface DeliveryOptions {
  sql: Sql;
  mailer: Mailer;
  baseUrl: string;
  clock: () => Date;
  safety: SafetyOptions;
  timeoutMs?: number;
  concurrency?: number;
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

interface Due {
  id: string;
  channel_id: string;
  kind: string;
  event_id: number | null;
  dedupe_key: string;
  payload: string;
  attempts: number;
  ch_kind: string;
  target: string;
  secret: string | null;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  account_id: string;
  email: string;
  rule_name: string;
}
export interface RunStats {
  attempted: number;
  delivered: number;
  retrying: number;
  failed: number;
}
type Outcome = { ok: boolean; outcome: string; status: number | null; ms: number; error: string | null };
interface Recorded {
  d: Due;
  r: Outcome;
  at: Date;
  resolve: () => void;
  reject: (e: Error) => void;
}
/** Outcomes are committed at most this long after the answer, up to this many per transaction. */
const RECORD_WINDOW_MS = 20;
const RECORD_BATCH = 200;
const DEFAULT_CONCURRENCY = 32;

export class DeliveryEngine {
  private readonly agent: Dispatcher;
  private readonly schedule: number[];
  private pending: Recorded[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  constructor(private readonly o: DeliveryOptions) {
    this.agent = safeAgent({
      ...o.safety,
      connectTimeoutMs: Math.min(5_000, o.timeoutMs ?? DELIVERY_TIMEOUT_MS),
      resolver: o.resolver,
    });
    this.schedule = o.retrySchedule ?? RETRY_SCHEDULE_S;
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
    const rows = eventDeliveries(events, rules, this.o.clock(), this.o.baseUrl);
    const created = await this.insertDeliveries(rows);
    const last = events.reduce((m, e) => Math.max(m, e.id), 0);
    await this.o.sql.query(
      'INSERT INTO delivery_cursor (id, last_event_id) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET last_event_id = greatest(delivery_cursor.last_event_id, $1)',
      [last],
    );
    return created;
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

  /** Sends every delivery due now (leased, so two workers never send the same one at once). */
  async runDue(batch = 500): Promise<RunStats> {
    const stats: RunStats = { attempted: 0, delivered: 0, retrying: 0, failed: 0 };
    const queue = new PQueue({ concurrency: this.o.concurrency ?? DEFAULT_CONCURRENCY });
    for (;;) {
      const now = this.o.clock();
      const due = await this.o.sql.query<Due>(
        `UPDATE deliveries d SET lease_until = $2 FROM channels c, rules r, accounts a
        WHERE d.id IN (SELECT id FROM deliveries WHERE status = 'pending' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until < $1)
                       ORDER BY next_attempt_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)
          AND c.id = d.channel_id AND r.id = c.rule_id AND a.id = r.account_id
        RETURNING d.id, d.channel_id, d.kind, d.event_id, d.dedupe_key, d.payload, d.attempts, c.kind AS ch_kind, c.target, c.secret, c.previous_secret,
          c.previous_secret_expires_at, a.id AS account_id, a.email, r.name AS rule_name`,
        [now, new Date(now.getTime() + LEASE_S * 1000), batch],
      );
      if (due.length === 0) break;
      for (const d of await admitByTarget(this.o.sql, due, now, this.o.targetPerMinute)) {
        void queue.add(async () => {
          const outcome = await this.attempt(d);
          await this.record(d, outcome);
          stats.attempted += 1;
          if (outcome.ok) stats.delivered += 1;
          else if (d.attempts + 1 >= MAX_ATTEMPTS) stats.failed += 1;
          else stats.retrying += 1;
        });
      }
      await queue.onIdle();
      if (due.length < batch) break;
    }
    return stats;
  }

  private async attempt(d: Due): Promise<Outcome> {
    const t0 = performance.now();
    const done = (ok: boolean, outcome: string, status: number | null, error: string | null) => ({
      ok,
      outcome,
      status,
      error,
      ms: Math.round(performance.now() - t0),
    });
    if (d.ch_kind === 'email') {
      try {
        await this.o.mailer.send(JSON.parse(d.payload));
        return done(true, 'delivered', null, null);
      } catch (e) {
        return done(false, 'error', null, (e as Error).message.slice(0, 300));
      }
    }
    if (Buffer.byteLength(d.payload) > MAX_BODY_BYTES)
      return done(false, 'error', null, `body larger than ${MAX_BODY_BYTES} bytes`);
    const now = this.o.clock();
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'service-delivery-id': d.id,
      'service-event-id': d.event_id !== null ? `evt_${d.event_id}` : d.dedupe_key,
      'service-event-type': d.kind,
      'service-delivery-attempt': String(d.attempts + 1),
    };
    if (d.ch_kind === 'webhook' && d.secret) {
      const secrets = [
        d.secret,
        ...(d.previous_secret && d.previous_secret_expires_at && new Date(d.previous_secret_expires_at) > now
          ? [d.previous_secret]
          : []),
      ];
      headers[SIGNATURE_HEADER.toLowerCase()] = signatureHeader(secrets, Math.floor(now.getTime() / 1000), d.payload);
    }
    let url = d.target;
    try {
      for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
        const why = urlProblem(url, this.o.safety);
        if (why) return done(false, 'blocked', null, `${url}: ${why}`);
        const res = await request(url, {
          method: 'POST',
          body: d.payload,
          headers,
          dispatcher: this.agent,
          headersTimeout: this.o.timeoutMs ?? DELIVERY_TIMEOUT_MS,
          bodyTimeout: this.o.timeoutMs ?? DELIVERY_TIMEOUT_MS,
          signal: AbortSignal.timeout(this.o.timeoutMs ?? DELIVERY_TIMEOUT_MS),
        });
        await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
        if ((res.statusCode === 307 || res.statusCode === 308) && typeof res.headers.location === 'string') {
          url = new URL(res.headers.location, url).toString();
          continue;
        }
        if (res.statusCode >= 200 && res.statusCode < 300) return done(true, 'delivered', res.statusCode, null);
        return done(
          false,
          'http_error',
          res.statusCode,
          res.statusCode >= 300 && res.statusCode < 400 ? 'redirect not followed (only 307/308 keep the POST)' : null,
        );
      }
      return done(false, 'error', null, `more than ${MAX_REDIRECTS} redirects`);
    } catch (e) {
      const err = e as Error & { code?: string; cause?: Error & { code?: string } };
      const code = err.code ?? err.cause?.code;
      if (code === 'EBLOCKED' || err.cause?.name === 'BlockedAddressError')
        return done(false, 'blocked', null, (err.cause ?? err).message);
      if (
        err.name === 'TimeoutError' ||
        code === 'UND_ERR_HEADERS_TIMEOUT' ||
        code === 'UND_ERR_BODY_TIMEOUT' ||
        code === 'UND_ERR_CONNECT_TIMEOUT'
      )
        return done(false, 'timeout', null, `no answer within ${this.o.timeoutMs ?? DELIVERY_TIMEOUT_MS} ms`);
      return done(false, 'error', null, `${code ?? err.name}: ${err.message}`.slice(0, 300));
    }
  }

  /**
   * Records outcomes in small batches: an outcome is committed at most RECORD_WINDOW_MS after its answer (or as soon
   * as RECORD_BATCH are waiting), many per transaction. Resolves once the outcome is committed.
   */
  private record(d: Due, r: Outcome): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ d, r, at: this.o.clock(), resolve, reject });
      // every sender waiting on its commit (or a full batch): commit now rather than at the end of the window
      if (this.pending.length >= Math.min(RECORD_BATCH, this.o.concurrency ?? DEFAULT_CONCURRENCY)) this.flush();
      else this.flushTimer ??= setTimeout(() => this.flush(), RECORD_WINDOW_MS);
    });
  }

  private flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    const items = this.pending.splice(0);
    if (items.length === 0) return;
    this.flushing = this.flushing
      .then(() => this.recordBatch(items))
      .then(
        () => {
          for (const i of items) i.resolve();
        },
        (e: Error) => {
          for (const i of items) i.reject(e);
        },
      );
  }

  private async recordBatch(items: Recorded[]): Promise<void> {
    const notices: Array<{ to: string; text: string }> = [];
    await this.o.sql.transaction(async (tx) => {
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
      // Each channel's run of failures, in the order the answers came: a success resets it.
      const runs = new Map<string, { reset: boolean; n: number; first: Date | null; last: Recorded }>();
      for (const i of items) {
        const run = runs.get(i.d.channel_id) ?? { reset: false, n: 0, first: null, last: i };
        if (i.r.ok) Object.assign(run, { reset: true, n: 0, first: null });
        else Object.assign(run, { n: run.n + 1, first: run.first ?? i.at });
        run.last = i;
        runs.set(i.d.channel_id, run);
      }
      const ids = [...runs.keys()];
      const changed = await tx.query<{
        id: string;
        consecutive_failures: number;
        first_failure_at: string | null;
        status: string;
      }>(
        `UPDATE channels c SET
          consecutive_failures = CASE WHEN x.reset THEN x.n ELSE c.consecutive_failures + x.n END,
          first_failure_at = CASE WHEN x.n = 0 THEN NULL WHEN x.reset THEN x.first ELSE coalesce(c.first_failure_at, x.first) END
        FROM unnest($1::text[], $2::bool[], $3::int[], $4::timestamptz[]) AS x(id, reset, n, first) WHERE c.id = x.id
        RETURNING c.id, c.consecutive_failures, c.first_failure_at, c.status`,
        [ids, ids.map((k) => runs.get(k)!.reset), ids.map((k) => runs.get(k)!.n), ids.map((k) => runs.get(k)!.first)],
      );
      const now = this.o.clock();
      for (const c of changed) {
        if (
          !(
            c.status === 'active' &&
            c.consecutive_failures >= DISABLE_AFTER_FAILURES &&
            now.getTime() - new Date(c.first_failure_at!).getTime() >= DISABLE_AFTER_HOURS * 3_600_000
          )
        )
          continue;
        const { d, r } = runs.get(c.id)!.last;
        const reason = `${c.consecutive_failures} failed attempts in a row since ${new Date(c.first_failure_at!).toISOString()} (last: ${r.outcome}${r.status ? ` ${r.status}` : ''}${r.error ? `: ${r.error}` : ''})`;
        await tx.query(
          `UPDATE channels SET status = 'disabled', disabled_at = $2, disabled_reason = $3 WHERE id = $1`,
          [c.id, now, reason],
        );
        await tx.query(`UPDATE deliveries SET status = 'held' WHERE channel_id = $1 AND status = 'pending'`, [c.id]);
        const text = `The ${d.ch_kind} channel ${d.target} of your rule "${d.rule_name}" was disabled: ${reason}. Its deliveries are held; re-enable it with POST /api/v1/rules/{id}/channels/${c.id}/enable.`;
        await tx.query('INSERT INTO notices (account_id, at, kind, message) VALUES ($1, $2, $3, $4)', [
          d.account_id,
          now,
          'channel_disabled',
          text,
        ]);
        notices.push({ to: d.email, text });
      }
      const ok = items.filter((i) => i.r.ok);
      if (ok.length) {
        await tx.query(
          `UPDATE deliveries d SET status = 'delivered', attempts = d.attempts + 1, delivered_at = x.at, lease_until = NULL
          FROM unnest($1::text[], $2::timestamptz[]) AS x(id, at) WHERE d.id = x.id`,
          [ok.map((i) => i.d.id), ok.map((i) => i.at)],
        );
      }
      const failed = items.filter((i) => !i.r.ok);
      if (failed.length) {
        const next = failed.map((i) => {
          const wait =
            this.schedule[Math.min(i.d.attempts + 1, this.schedule.length) - 1] *
            (1 + (Math.random() * 2 - 1) * (this.o.jitter ?? 0.2));
          return new Date(i.at.getTime() + wait * 1000);
        });
        // given up after MAX_ATTEMPTS; a delivery in flight when its channel was disabled is held like the others
        await tx.query(
          `UPDATE deliveries d SET attempts = d.attempts + 1, lease_until = NULL, next_attempt_at = x.next,
            status = CASE WHEN d.attempts + 1 >= ${MAX_ATTEMPTS} THEN 'failed' WHEN c.status = 'disabled' THEN 'held' ELSE 'pending' END
          FROM unnest($1::text[], $2::timestamptz[]) AS x(id, next), channels c WHERE d.id = x.id AND c.id = d.channel_id`,
          [failed.map((i) => i.d.id), next],
        );
      }
    });
    for (const n of notices) {
      await this.o.mailer
        .send({ to: n.to, subject: 'A delivery channel of your alert rule was disabled', text: n.text })
        .catch((e: Error) => this.o.log?.(`notice email to ${n.to} failed: ${e.message}`));
    }
  }

  /** Drops finished deliveries older than the retention (their attempts go with them). Returns how many. */
  async prune(): Promise<number> {
    const cutoff = new Date(this.o.clock().getTime() - LOG_RETENTION_DAYS * 86_400_000);
    const rows = await this.o.sql.query(
      `DELETE FROM deliveries WHERE status IN ('delivered', 'failed') AND created_at < $1 RETURNING id`,
      [cutoff],
    );
    return rows.length;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
