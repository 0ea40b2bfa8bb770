// One polling cycle end to end: due sources → connectors (over HTTP) → DuckDB → rollups → the published tree.
// The cycle in order: poll the due sources (sources/poll.ts) → their next statuses (state/next-status.ts) → a quiet
// cycle stores them and republishes /live/sources (cycle/quiet.ts); any other stores and evaluates
// (state/store-cycle.ts), publishes (publish/live-publisher.ts) and grows history (history/grow.ts) → the summary
// (cycle/summary.ts), which the loop records as its heartbeat (state/heartbeat.ts).
import type { Clock } from './clock.ts';
import type { CoverageData } from './coverage/document.ts';
import { cycleSummary, idleSummary, staleSources, type CycleSummary, type CycleTotals } from './cycle/summary.ts';
import { isQuiet } from './cycle/quiet.ts';
import { countyModel, loadCountyModel } from './geo/county-model.ts';
import { loadAtlas } from './geo/counties.ts';
import { HistoryGrowth } from './history/grow.ts';
import { LivePublisher, type Rollups } from './publish/live-publisher.ts';
import { repairMirror } from './publish/mirror.ts';
import type { PublishStats, TreeWriter } from './publish/tree-writer.ts';
import type { Connector } from './sources/connector.ts';
import { HttpClient, type HttpOptions } from './sources/http.ts';
import { CarriedPolls, DEFAULT_CYCLE_BUDGET_MS } from './sources/carried.ts';
import { pollDue } from './sources/poll.ts';
import type { ConnectorName, SourceDef } from './sources/source-def.ts';
import { isDue, nextWake, wakeReason } from './sources/scheduler.ts';
import type { HeldSnapshot } from './sources/snapshot.ts';
import { Db } from './state/db.ts';
import { writeHeartbeat } from './state/heartbeat.ts';
import { advanceStatuses, watchedSources } from './state/next-status.ts';
import { loadStatuses, type SourceStatus } from './state/status.ts';
import { releaseSnapshots, storeAndEvaluate, storedRows, storePolls, type CycleWrites } from './state/store-cycle.ts';
import { syncSources } from './state/store.ts';

export interface PipelineOptions {
  stateDir: string;
  outDir: string;
  sources: SourceDef[];
  clock: Clock;
  simulated: boolean;
  http?: Partial<HttpOptions>;
  /** counties an account watches (the alert-rules issue fills this); a source covering one polls hardened */
  watchedCounties?: () => ReadonlySet<string>;
  /** absolute URL the service is published at (feeds need absolute links) */
  baseUrl?: string;
  /** a writer other than the file system one (tests) */
  writer?: (now: Date) => TreeWriter;
  /** the report tree's writer when history grows from the archive (default: the file system's, or none with `writer`) */
  historyWriter?: (now: Date) => TreeWriter;
  onProgress?: (done: number, total: number) => void;
  /** /api/v1/coverage, published with every cycle (coverageFor in coverage/document.ts) */
  coverage?: CoverageData;
  /** the connector a row names (default connectorFor); the registry replay bench serves each row its fixture */
  connectors?: (name: ConnectorName) => Connector;
  /** how long a cycle waits for its polls (default DEFAULT_CYCLE_BUDGET_MS); later ones land in a later cycle */
  cycleBudgetMs?: number;
}

/** how often a cycle writes the state to the database file (state/db.ts checkpointEvery: memory stays flat) */
const CHECKPOINT_EVERY_MS = 15 * 60_000;
/** observation rows stored in one cycle from which it checkpoints before publishing (a storm's, not a calm day's) */
const CHECKPOINT_AFTER_ROWS = 20_000;

/** A polled cycle on its way: what it polled, what it stores, and when its polls started and ended. */
interface Polled extends CycleWrites {
  statuses: Map<string, SourceStatus>;
  now: Date;
  times: [started: number, tPoll: number];
}

export class Pipeline {
  /** the last evaluated cycle's publish failed: the next cycle publishes even if it is quiet */
  private unpublished = false;
  /** Set by `outage start` while it builds the report tables after its first map: the summary says so. */
  reportsBuilding = false;
  /** history growing from the archive's finished days */
  private readonly growth = new HistoryGrowth();
  /** what this process keeps of each source's last normalised snapshot (its status after a 304; ODIN's counts) */
  private readonly known = new Map<string, HeldSnapshot>();
  /** source statuses as last stored (this process is the state's only writer: the state lock) */
  private statuses: Map<string, SourceStatus> | null = null;
  /** the clock time of the last cycle that evaluated state (null before the first) */
  private evaluatedAt: Date | null = null;
  /** the national totals of the last evaluated cycle (a quiet cycle repeats them) */
  private totals: CycleTotals = { countiesOut: 0, customersOut: 0 };
  /** the live tree's publisher: the details to rebuild, the archive's days and the slow inputs, across cycles */
  private readonly publisher: LivePublisher;
  /** polls that outlived a cycle's budget, landing in a later cycle (sources/carried.ts) */
  readonly carried = new CarriedPolls();
  /** aborts the polls in flight when the pipeline closes */
  private readonly stop = new AbortController();

  private constructor(
    private readonly opts: PipelineOptions,
    readonly db: Db,
    readonly http: HttpClient,
  ) {
    this.publisher = new LivePublisher({ ...opts, db, late: () => this.carried.late() });
  }

  static async open(opts: PipelineOptions): Promise<Pipeline> {
    // The county atlas takes seconds to build: build it before any request is in flight, so no deadline runs meanwhile.
    loadAtlas();
    const db = await Db.open(opts.stateDir);
    // A kill during an earlier publish may have left the plain-file mirror mixed: repair it before anything reads it.
    if (!opts.writer) await repairMirror(opts.outDir);
    await syncSources(db, opts.sources);
    const http = new HttpClient(opts.http);
    http.now = () => opts.clock().getTime();
    return new Pipeline(opts, db, http);
  }

  get sources(): SourceDef[] {
    return this.opts.sources;
  }

  /** Records that the loop finished a cycle (state/heartbeat.ts: what /healthz reads). */
  heartbeat(s: CycleSummary): void {
    writeHeartbeat(this.opts.stateDir, this.opts.outDir, s, this.opts.sources.length);
  }

  /**
   * Polls the due sources (all of them with `all`; none with `landOnly`, which lands the polls carried from earlier
   * cycles), stores what changed, republishes. A source whose poll is still in flight is not polled again.
   */
  async cycle(options: { all?: boolean; landOnly?: boolean; budgetMs?: number } = {}): Promise<CycleSummary> {
    const started = Date.now();
    const now = this.opts.clock();
    const statuses = (this.statuses ??= await loadStatuses(this.db));
    const due = options.landOnly
      ? []
      : this.opts.sources.filter((s) => !this.carried.has(s.id) && (options.all || isDue(statuses.get(s.id), now)));
    // Nothing due or landed, no source crossing its stale time, no new timeline frame: no database or publish work.
    if (due.length === 0 && !this.carried.landed && !wakeReason(this.opts.sources, statuses, this.evaluatedAt, now))
      return idleSummary(now, started, staleSources(this.opts.sources, statuses, now), [...this.carried.late().keys()]);
    const watched = await watchedSources(this.db, this.opts.watchedCounties?.() ?? new Set<string>());
    const outcomes = await this.poll(due, statuses, now, options.budgetMs);
    const tPoll = Date.now();
    // A publish that failed is redone by the next cycle, even when nothing else moved.
    const quiet = !this.unpublished && isQuiet(outcomes, statuses, this.opts.sources, this.evaluatedAt, now);
    const { sources } = this.opts;
    const toSave = advanceStatuses(outcomes, statuses, { sources, known: this.known, watched, now });
    const polled: Polled = { outcomes, toSave, statuses, now, times: [started, tPoll] };
    return quiet ? this.quietCycle(polled) : this.evaluatedCycle(polled);
  }

  /**
   * The poll step: every due source at once, for at most the cycle's budget (what has not answered lands in a later
   * cycle); then the HTTP cache lets go of bodies no source reads any more.
   */
  private async poll(due: SourceDef[], statuses: Map<string, SourceStatus>, now: Date, budgetMs?: number) {
    const { connectors, onProgress, cycleBudgetMs = DEFAULT_CYCLE_BUDGET_MS } = this.opts;
    const poller = { http: this.http, known: this.known, connectors, stop: this.stop.signal };
    const round = { statuses, now, budgetMs: Math.min(budgetMs ?? cycleBudgetMs, cycleBudgetMs), onProgress };
    const outcomes = await pollDue(poller, this.carried, due, round);
    // Cached bodies outlive a source's longest (un-hardened) interval only if the upstream moved on to new URLs.
    this.http.evict(2 * Math.max(...this.opts.sources.map((s) => s.interval_min), 15) * 60_000);
    return outcomes;
  }

  /** Stores and evaluates the cycle, publishes it, and grows history from the archive's finished days. */
  private async evaluatedCycle(c: Polled): Promise<CycleSummary> {
    const { statuses, now } = c;
    const model = await countyModel(this.db, loadCountyModel());
    const { sources, simulated } = this.opts;
    const { live, events } = await storeAndEvaluate(this.db, { ...c, sources, model, simulated });
    await this.publisher.details.noteChanged(
      this.db,
      c.outcomes.filter((o) => o.changed && o.snapshot).map((o) => o.source.id),
    );
    // A storm's store leaves its committed rows in DuckDB's memory until a checkpoint (~80 MB at 60,000 incidents):
    // written to the file before the publish, whose own peak then does not stack on them.
    if (storedRows(c.outcomes) >= CHECKPOINT_AFTER_ROWS) await this.db.checkpoint(now.getTime());
    releaseSnapshots(c.outcomes);
    const tStore = Date.now();
    this.evaluatedAt = now;
    this.unpublished = true;
    const publish = await this.publish(statuses, now, { live, model });
    this.unpublished = false;
    const writer = this.opts.historyWriter?.(now) ?? (this.opts.writer ? null : undefined);
    await this.growth.afterCycle(this.db, model, { outDir: this.opts.outDir, now, writer });
    this.totals = { countiesOut: publish.countiesOut, customersOut: publish.customersOut };
    await this.db.checkpointEvery(CHECKPOINT_EVERY_MS, now.getTime());
    return this.summary(c, events.length, publish.stats, tStore);
  }

  /**
   * Every polled source answered with the data it had and nothing else moved (isQuiet): the poll log and statuses are
   * stored, and only /live/sources — its fetch times and health — is republished; nothing is re-evaluated.
   */
  private async quietCycle(c: Polled): Promise<CycleSummary> {
    await storePolls(this.db, c);
    const tStore = Date.now();
    this.evaluatedAt = c.now;
    const stats = await this.publisher.publishSources(c.statuses, c.now);
    await this.db.checkpointEvery(CHECKPOINT_EVERY_MS, c.now.getTime());
    return this.summary(c, 0, stats, tStore);
  }

  private summary(c: Polled, events: number, publish: PublishStats, tStore: number): CycleSummary {
    return cycleSummary(c.now, {
      outcomes: c.outcomes,
      staleSources: staleSources(this.opts.sources, c.statuses, c.now),
      late: [...this.carried.late().keys()],
      events,
      totals: this.totals,
      publish,
      growthError: this.growth.lastError,
      times: [...c.times, tStore],
    });
  }

  /** Republishes the tree from stored state without polling (`outage build`); `charts` also renders the charts. */
  async build(options: { charts?: boolean } = {}): Promise<PublishStats> {
    const now = this.opts.clock();
    this.publisher.details.invalidateAll();
    return (await this.publish(await loadStatuses(this.db), now, null, options.charts)).stats;
  }

  /** When the next cycle has work: the earliest next_due_at, stale time or timeline frame. */
  async nextDueAt(): Promise<Date> {
    const statuses = (this.statuses ??= await loadStatuses(this.db));
    return nextWake(this.opts.sources, statuses, this.opts.clock());
  }

  /** Publishes the cycle's rollups (or, for `build`, rollups computed from stored state). */
  private publish(statuses: Map<string, SourceStatus>, now: Date, computed: Rollups | null, renderCharts = false) {
    return this.publisher.publish(statuses, now, computed, { renderCharts, reportsBuilding: this.reportsBuilding });
  }

  /** Waits for the polls still in flight (`poll --once` lands them in one more cycle before it exits). */
  settled(): Promise<void> {
    return this.carried.settled();
  }

  /** Closes the database and the HTTP client, and lets go of what the pipeline holds between cycles. */
  async close(): Promise<void> {
    // Polls carried past the last cycle end now: nothing would land them.
    this.stop.abort();
    await this.carried.settled();
    await this.http.close();
    this.db.close();
    // A closed pipeline an embedder still references must not keep every source's snapshot and body alive.
    this.known.clear();
    this.http.evict(Number.NEGATIVE_INFINITY);
    this.publisher.details.invalidateAll();
  }
}
