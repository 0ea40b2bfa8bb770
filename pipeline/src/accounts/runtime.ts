// Accounts in a running process: the service behind the endpoints, and — in the polling process — the delivery of
// each cycle's new events and of the due sync pushes, plus a timer that sends retries between cycles. The watched
// counties of all rules are read before each cycle (the live core's hardened polling hook).
import type { Db } from '../state/db.ts';
import { EVENT_SELECT, type EventRow } from '../state/events.ts';
import { publicEvent } from '../contract/events.ts';
import { PublishedTree } from '../publish/published-tree.ts';
import { openAccountsDb, type Sql } from './sql.ts';
import { AccountService } from './service.ts';
import { DeliveryEngine, type RunStats } from './deliver.ts';
import { enqueueSyncPushes } from './sync.ts';
import { mailerFromEnv, type Mailer } from './mailer.ts';
import type { SafetyOptions } from './safety.ts';

/** Operator setting, for local testing only: allow http and loopback webhook targets. */
export const safetyFromEnv = (env = process.env): SafetyOptions => ({
  allowLoopback: env.OUTAGE_WEBHOOK_ALLOW_LOOPBACK === '1',
});

export interface AccountsRuntimeOptions {
  stateDir: string;
  outDir: string;
  baseUrl: string;
  clock: () => Date;
  log: (s: string) => void;
  mailer?: Mailer;
  sql?: Sql;
  safety?: SafetyOptions;
}

/** The newest stored event's id (0 without events). */
export async function newestEventId(db: Db): Promise<number> {
  const [{ max }] = await db.all<{ max: number | null }>('SELECT max(id) AS max FROM events');
  return max ?? 0;
}

export class AccountsRuntime {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();
  private prunedAt = 0;
  watched: ReadonlySet<string> = new Set();

  private constructor(
    readonly sql: Sql,
    readonly service: AccountService,
    readonly engine: DeliveryEngine,
    private readonly o: AccountsRuntimeOptions,
    private readonly ownsSql: boolean,
  ) {}

  static async open(o: AccountsRuntimeOptions): Promise<AccountsRuntime> {
    const sql = o.sql ?? (await openAccountsDb(o.stateDir));
    const mailer = o.mailer ?? mailerFromEnv(o.log);
    const safety = o.safety ?? safetyFromEnv();
    const service = new AccountService({ sql, mailer, baseUrl: o.baseUrl, clock: o.clock, safety });
    const engine = new DeliveryEngine({ sql, mailer, baseUrl: o.baseUrl, clock: o.clock, safety, log: o.log });
    const rt = new AccountsRuntime(sql, service, engine, o, !o.sql);
    await rt.refreshWatched();
    return rt;
  }

  async refreshWatched(): Promise<void> {
    this.watched = await this.service.watchedCounties();
  }

  /**
   * `after` is `newestEventId` read before the first cycle: a database without a delivery cursor starts there, so the
   * history of the event stream is not delivered to today's rules.
   */
  async attach(after: number): Promise<void> {
    await this.engine.initCursor(after);
  }

  /**
   * After a pipeline cycle: new events → deliveries, due sync pushes, then everything due is sent. With `wait: false`
   * (the poll loop) the sending runs on its own, behind the job table, and `stats` is null: a slow receiver never
   * holds polling (issue 37 part 3); `onSent` hears how the run went.
   */
  async afterCycle(
    db: Db,
    how: { wait?: boolean; onSent?: (stats: RunStats) => void } = {},
  ): Promise<{ events: number; enqueued: number; stats: RunStats | null }> {
    const after = (await this.engine.cursor()) ?? 0;
    const rows = await db.all<EventRow>(`${EVENT_SELECT} WHERE id > ? ORDER BY id LIMIT 50000`, [after]);
    const events = rows.map(publicEvent);
    let enqueued = await this.engine.ingest(events);
    const tree = new PublishedTree(this.o.outDir);
    enqueued += await enqueueSyncPushes(
      this.sql,
      this.o.clock(),
      (rel) => tree.data<Record<string, unknown>>(rel),
      (r) => this.engine.insertDeliveries(r),
    );
    const sending = this.send();
    const stats = how.wait === false ? null : await sending;
    if (how.wait === false) sending.then((s) => how.onSent?.(s)).catch(() => undefined);
    if (this.o.clock().getTime() - this.prunedAt >= 3_600_000) {
      // the log retention is days: once an hour is plenty
      await this.engine.prune();
      this.prunedAt = this.o.clock().getTime();
    }
    await this.refreshWatched();
    return { events: events.length, enqueued, stats };
  }

  /** Sends what is due; one run at a time (one in progress is nudged to lease what was just enqueued at once). */
  send(): Promise<RunStats> {
    this.engine.nudge();
    const run = this.running.then(() => this.engine.runDue());
    this.running = run.catch((e: Error) => this.o.log(`delivery: ${e.message}`));
    return run;
  }

  /** Retries due between cycles (every `everyMs`). */
  startTimer(everyMs = 15_000): void {
    this.timer = setInterval(() => void this.send().catch(() => undefined), everyMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
    await this.engine.close();
    if (this.ownsSql) await this.sql.close();
  }
}
