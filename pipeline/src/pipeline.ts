// One polling cycle end to end: due sources → connectors (over HTTP) → DuckDB → rollups → the published tree.
import type { Clock } from './clock.ts';
import { SourceError } from './errors.ts';
import { HttpClient, type HttpOptions } from './sources/http.ts';
import { sourceHeaders } from './sources/source-http.ts';
import { PollBudget } from './sources/budget.ts';
import { connectorFor } from './sources/connectors.ts';
import { quarantine } from './sources/quarantine.ts';
import { cleaningNote } from './sources/clean-snapshot.ts';
import { cleanText, noCleaning, type TextRule } from './sources/clean-text.ts';
import { capIncidents } from './sources/incident-cap.ts';
import type { ConnectorName, SourceDef } from './sources/registry.ts';
import type { Connector } from './sources/connector.ts';
import { heldSnapshot, type HeldSnapshot } from './sources/snapshot.ts';
import { Db } from './state/db.ts';
import { snapshotHash, syncSources, writeOutcomes, type PollOutcome } from './state/store.ts';
import { blankStatus, loadStatuses, saveStatuses, type SourceStatus } from './state/status.ts';
import { effectiveInterval, freshness, isDue, nextInterval, nextWake, wakeReason } from './sources/scheduler.ts';
import { computeLive, recordFrame, type LiveState } from './state/rollup.ts';
import { recordArchive } from './state/archive.ts';
import { observe, type CycleContext } from './state/observe.ts';
import { evaluateCycle, type EventRow } from './state/events.ts';
import { countyModel, loadCountyModel } from './geo/county-model.ts';
import { loadAtlas } from './geo/counties.ts';
import { prunePolls, sourceHealth, type SourceHealth } from './state/health.ts';
import { reconcileWithOdin } from './state/reconcile.ts';
import { countyHistories } from './history/derive.ts';
import { HistoryGrowth } from './history/grow.ts';
import type { History } from './publish/county-profile.ts';
import { FsTreeWriter, type PublishStats, type TreeWriter } from './publish/tree-writer.ts';
import { DetailCache } from './publish/detail-cache.ts';
import { ArchivePublisher } from './publish/archive.ts';
import { publishLive, publishSourcesOnly } from './publish/publish.ts';
import type { CoverageData } from './coverage/document.ts';
import type { FrameRow } from './publish/documents.ts';
export type { EventRow };
import { TIMELINE_MAX_HOURS } from './contract/catalogue.ts';
import { historyMarks } from './history/version.ts';
import { repairMirror } from './publish/mirror.ts';
import { writeHeartbeat } from './state/heartbeat.ts';
import { readVerifyReport, verificationDoc, verifyReportMtime } from './publish/verification.ts';

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
}

/** how often a cycle writes the state to the database file (state/db.ts checkpointEvery: memory stays flat) */
const CHECKPOINT_EVERY_MS = 15 * 60_000;

/** imported history as the publisher reads it, recomputed when the history version changes */
interface HistoryCache {
  version: string;
  histories: Map<string, History>;
  mcc: Set<string>;
  loadedYears: number[];
}

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787';

/** A failed poll's message as stored and published (live/sources.json `last_error`): one line of clean text. */
const MESSAGE_TEXT: TextRule = { cap: 1_000, multiline: false };

export interface CycleSummary {
  at: string;
  polled: number;
  ok: number;
  failed: number;
  stale: number;
  /** ids of the sources stale after this cycle */
  staleSources: string[];
  changed: number;
  events: number;
  countiesOut: number;
  customersOut: number;
  publish: PublishStats;
  ms: number;
  /** wall time of each phase: poll (fetch + normalise), store, publish (rollup + files) */
  phases: { poll: number; store: number; publish: number };
  failures: Array<{ source: string; reason: string; message: string }>;
  /** successful polls with something to report (what the quarantine step cleaned from their text) */
  notes: Array<{ source: string; message: string }>;
}

export function formatSummary(s: CycleSummary): string {
  return (
    `[${s.at}] cycle: sources ${s.ok} ok / ${s.failed} failed / ${s.stale} stale (${s.polled} polled, ${s.changed} changed) · ` +
    `${s.countiesOut} counties out, ${s.customersOut.toLocaleString('en-US')} customers · ${s.events} events · ` +
    `${s.publish.written} files written, ${s.publish.unchanged} unchanged · ${s.ms} ms`
  );
}

/**
 * A cycle with nothing to evaluate: state was evaluated before, no source crossed its stale time and no timeline frame
 * began since (wakeReason), and every polled source answered with the data it had, after a successful poll and while
 * fresh (so no feed_recovered is due).
 */
function isQuiet(
  outcomes: PollOutcome[],
  statuses: Map<string, SourceStatus>,
  sources: SourceDef[],
  evaluatedAt: Date | null,
  now: Date,
): boolean {
  if (wakeReason(sources, statuses, evaluatedAt, now)) return false;
  return outcomes.every((o) => {
    const prev = statuses.get(o.source.id);
    return o.ok && !o.changed && prev?.consecutive_failures === 0 && freshness(o.source, prev, now) !== 'stale';
  });
}

/** The summary of a cycle that found nothing to do. */
function idleSummary(now: Date, started: number, stale: string[]): CycleSummary {
  return {
    at: now.toISOString(),
    polled: 0,
    ok: 0,
    failed: 0,
    stale: stale.length,
    staleSources: stale,
    changed: 0,
    events: 0,
    countiesOut: 0,
    customersOut: 0,
    publish: { written: 0, unchanged: 0, removed: 0 },
    ms: Date.now() - started,
    failures: [],
    notes: [],
    phases: { poll: 0, store: 0, publish: 0 },
  };
}

export class Pipeline {
  /** the last evaluated cycle's publish failed: the next cycle publishes even if it is quiet */
  private unpublished = false;
  /** Set by `outage start` while it builds the report tables after its first map: the summary says so. */
  reportsBuilding = false;
  /** history growing from the archive's finished days */
  private readonly growth = new HistoryGrowth();
  /** which county detail documents the next publish must rebuild */
  private readonly details = new DetailCache();
  /** what this process keeps of each source's last normalised snapshot (its status after a 304; ODIN's counts) */
  private readonly known = new Map<string, HeldSnapshot>();
  /** source statuses as last stored (this process is the state's only writer: the state lock) */
  private statuses: Map<string, SourceStatus> | null = null;
  /** the clock time of the last cycle that evaluated state (null before the first) */
  private evaluatedAt: Date | null = null;

  /** the archive's publisher: its finished days in the tree's archive part (with a test's writer, the live tree) */
  private readonly archive: ArchivePublisher;

  private constructor(
    private readonly opts: PipelineOptions,
    readonly db: Db,
    readonly http: HttpClient,
  ) {
    this.archive = new ArchivePublisher(opts.writer ? null : (now) => new FsTreeWriter(opts.outDir, now, 'archive'));
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

  /** Polls the due sources (all of them with `all`), stores what changed, republishes. */
  async cycle(options: { all?: boolean } = {}): Promise<CycleSummary> {
    const started = Date.now();
    const now = this.opts.clock();
    const statuses = (this.statuses ??= await loadStatuses(this.db));
    const due = this.opts.sources.filter((s) => options.all || isDue(statuses.get(s.id), now));
    // Nothing due, no source crossing its stale time, no new timeline frame: no database or publish work at all.
    if (due.length === 0 && !wakeReason(this.opts.sources, statuses, this.evaluatedAt, now))
      return idleSummary(now, started, this.staleSources(statuses, now));
    const watched = await this.watchedSources();
    let done = 0;
    const outcomes = await Promise.all(
      due.map(async (s) => {
        const o = await this.pollOne(s, statuses.get(s.id), now);
        this.opts.onProgress?.(++done, due.length);
        return o;
      }),
    );
    // Cached bodies outlive a source's longest (un-hardened) interval only if the upstream moved on to new URLs.
    this.http.evict(2 * Math.max(...this.opts.sources.map((s) => s.interval_min), 15) * 60_000);
    const tPoll = Date.now();
    // A publish that failed is redone by the next cycle, even when nothing else moved.
    const quiet = !this.unpublished && isQuiet(outcomes, statuses, this.opts.sources, this.evaluatedAt, now);
    for (const o of outcomes)
      statuses.set(o.source.id, this.nextStatus(o, statuses.get(o.source.id), now, watched.has(o.source.id)));
    const odin = this.opts.sources.find((s) => s.connector === 'odin');
    const reconciled = reconcileWithOdin(
      this.opts.sources,
      statuses,
      odin ? (this.known.get(odin.id) ?? null) : null,
      new Set(outcomes.filter((o) => o.ok).map((o) => o.source.id)),
    );
    const toSave = [...new Set([...outcomes.map((o) => o.source.id), ...reconciled])].map((id) => statuses.get(id)!);
    if (quiet) return this.quietCycle(outcomes, toSave, statuses, now, [started, tPoll]);
    const ctx: CycleContext = {
      sources: this.opts.sources,
      statuses,
      polled: new Set(outcomes.filter((o) => o.ok).map((o) => o.source.id)),
      now,
    };
    const model = await countyModel(this.db, loadCountyModel());
    // One transaction: observations, statuses, outage states and events land together or not at all.
    const { live, events } = await this.db.transaction(async () => {
      await writeOutcomes(this.db, outcomes);
      await saveStatuses(this.db, toSave);
      const live = await computeLive(this.db, this.opts.sources, statuses, model, now);
      const events = await evaluateCycle(this.db, await observe(this.db, live, ctx), ctx);
      await recordFrame(this.db, live, now);
      await recordArchive(this.db, { live, sources: this.opts.sources, statuses, now, simulated: this.opts.simulated });
      return { live, events };
    });
    await this.details.noteChanged(
      this.db,
      outcomes.filter((o) => o.changed && o.snapshot).map((o) => o.source.id),
    );
    const tStore = Date.now();
    this.evaluatedAt = now;
    this.unpublished = true;
    const publish = await this.publish(statuses, now, { live, model });
    this.unpublished = false;
    const writer = this.opts.historyWriter?.(now) ?? (this.opts.writer ? null : undefined);
    await this.growth.afterCycle(this.db, model, { outDir: this.opts.outDir, now, writer });
    this.totals = { countiesOut: publish.countiesOut, customersOut: publish.customersOut };
    await this.db.checkpointEvery(CHECKPOINT_EVERY_MS, now.getTime());
    return this.summary(outcomes, statuses, now, events.length, publish.stats, [started, tPoll, tStore]);
  }

  /** the national totals of the last evaluated cycle (a quiet cycle repeats them) */
  private totals = { countiesOut: 0, customersOut: 0 };

  /**
   * Every polled source answered with the data it had and nothing else moved (isQuiet): the poll log and statuses are
   * stored, and only /live/sources — its fetch times and health — is republished; nothing is re-evaluated.
   */
  private async quietCycle(
    outcomes: PollOutcome[],
    toSave: SourceStatus[],
    statuses: Map<string, SourceStatus>,
    now: Date,
    [started, tPoll]: [number, number],
  ): Promise<CycleSummary> {
    await this.db.transaction(async () => {
      await writeOutcomes(this.db, outcomes);
      await saveStatuses(this.db, toSave);
    });
    const tStore = Date.now();
    this.evaluatedAt = now;
    let total = 0;
    for (const v of (await countyModel(this.db, loadCountyModel())).values()) total += v;
    const writer = this.opts.writer?.(now) ?? new FsTreeWriter(this.opts.outDir, now);
    const stats = await publishSourcesOnly(writer, {
      sources: this.opts.sources,
      statuses,
      simulated: this.opts.simulated,
      now,
      totalCustomers: total,
      health: await this.health(statuses, now),
      verification: this.verification(true),
    });
    await this.db.checkpointEvery(CHECKPOINT_EVERY_MS, now.getTime());
    return this.summary(outcomes, statuses, now, 0, stats, [started, tPoll, tStore]);
  }

  private summary(
    outcomes: PollOutcome[],
    statuses: Map<string, SourceStatus>,
    now: Date,
    events: number,
    publish: PublishStats,
    [started, tPoll, tStore]: [number, number, number],
  ): CycleSummary {
    const stale = this.staleSources(statuses, now);
    const failures = outcomes
      .filter((o) => !o.ok)
      .map((o) => ({ source: o.source.id, reason: o.reason ?? '', message: o.message ?? '' }));
    return {
      at: now.toISOString(),
      polled: outcomes.length,
      ok: outcomes.length - failures.length,
      failed: failures.length,
      stale: stale.length,
      staleSources: stale,
      changed: outcomes.filter((o) => o.changed).length,
      events,
      ...this.totals,
      publish,
      ms: Date.now() - started,
      failures,
      notes: [
        ...outcomes.filter((o) => o.ok && o.message).map((o) => ({ source: o.source.id, message: o.message ?? '' })),
        // history grew from the archive but its report tree did not publish (tried again after the next cycle)
        ...(this.growth.lastError ? [{ source: 'history', message: this.growth.lastError }] : []),
      ],
      phases: { poll: tPoll - started, store: tStore - tPoll, publish: Date.now() - tStore },
    };
  }

  private staleSources(statuses: Map<string, SourceStatus>, now: Date): string[] {
    return this.opts.sources.filter((s) => freshness(s, statuses.get(s.id), now) === 'stale').map((s) => s.id);
  }

  /** Republishes the tree from stored state without polling (`outage build`); `charts` also renders the charts. */
  async build(options: { charts?: boolean } = {}): Promise<PublishStats> {
    const now = this.opts.clock();
    this.details.invalidateAll();
    return (await this.publish(await loadStatuses(this.db), now, null, options.charts)).stats;
  }

  /** When the next cycle has work: the earliest next_due_at, stale time or timeline frame. */
  async nextDueAt(): Promise<Date> {
    const statuses = (this.statuses ??= await loadStatuses(this.db));
    return nextWake(this.opts.sources, statuses, this.opts.clock());
  }

  private async pollOne(source: SourceDef, prev: SourceStatus | undefined, now: Date): Promise<PollOutcome> {
    const t0 = Date.now();
    const deadline = AbortSignal.timeout(this.http.options.sourceDeadlineMs);
    // Scoped to the source: its cached bodies are those its last good poll read (discard below), so a 304 means
    // "as in the snapshot held".
    // Bytes and records over the whole poll are budgeted (budget.ts): a runaway upstream fails alone, early.
    const http = this.http.forSource(deadline, sourceHeaders(source.options), source.id, PollBudget.of(source.options));
    const base = { source, at: now.toISOString(), snapshot: null, hash: null, changed: false };
    const held = prev?.snapshot_hash ? this.known.get(source.id) : undefined;
    try {
      const connector = (this.opts.connectors ?? connectorFor)(source.connector);
      const raw = await withDeadline(
        connector.fetch({ http, source, priority: 4 - source.tier, held: held !== undefined }),
        deadline,
        source,
        this.http.options.sourceDeadlineMs,
      );
      // Every request answered 304 (a fetch that stopped at its chain's head with UNCHANGED made just that one) and
      // we hold this source's snapshot: nothing to normalise or store.
      if (held && prev?.snapshot_hash && http.allNotModified) {
        const outcome = { ...base, ms: Date.now() - t0, ok: true, reason: null, message: null };
        return { ...outcome, held, hash: prev.snapshot_hash, requests: http.requests };
      }
      const snapshot = capIncidents(quarantine(connector.normalize(raw, source), source));
      const hash = snapshotHash(snapshot);
      http.retainRead();
      const kept = heldSnapshot(snapshot);
      this.known.set(source.id, kept);
      const changed = hash !== prev?.snapshot_hash;
      return {
        ...base,
        held: kept,
        ms: Date.now() - t0,
        ok: true,
        reason: null,
        // A successful poll's message is what the quarantine step cleaned from its text (the poll log keeps it).
        message: snapshot.text_cleaned ? cleaningNote(snapshot.text_cleaned) : null,
        // Only a changed snapshot is stored: an unchanged one (every source after a restart) is let go now, not held
        // with all the others until the cycle's store.
        snapshot: changed ? snapshot : null,
        hash,
        changed,
        requests: http.requests,
      };
    } catch (err) {
      http.discard();
      const reason = err instanceof SourceError ? err.reason : 'bad_body';
      // A message may quote the upstream's answer: it is stored and published as clean text too.
      const message = cleanText(err instanceof Error ? err.message : String(err), MESSAGE_TEXT, noCleaning());
      const refusal =
        err instanceof SourceError && err.status ? { status: err.status, retryAfter: err.retryAfter } : null;
      return { ...base, ms: Date.now() - t0, ok: false, reason, message, requests: http.requests, refusal };
    }
  }

  private nextStatus(o: PollOutcome, prev: SourceStatus | undefined, now: Date, watched: boolean): SourceStatus {
    const s: SourceStatus = { ...(prev ?? blankStatus(o.source.id)) };
    s.last_attempt_at = o.at;
    if (o.ok && o.held) {
      s.last_success_at = o.at;
      s.last_reason = null;
      s.last_error = null;
      s.consecutive_failures = 0;
      s.snapshot_hash = o.hash;
      s.basis = o.held.basis;
      s.unit = o.held.unit;
      s.notice = o.held.notice;
      s.customers_out = o.held.customers_out;
      s.customers_served = o.held.customers_served;
      s.unmatched = o.held.unmatched;
    } else {
      s.last_reason = o.reason;
      s.last_error = o.message;
      s.consecutive_failures += 1;
    }
    const { interval, hardened } = effectiveInterval(o.source, s, watched);
    s.hardened = hardened;
    s.next_due_at = new Date(
      now.getTime() + nextInterval(interval, s, o.ok ? null : (o.refusal ?? null)) * 60_000,
    ).toISOString();
    return s;
  }

  private async watchedSources(): Promise<Set<string>> {
    const counties = this.opts.watchedCounties?.() ?? new Set<string>();
    if (counties.size === 0) return new Set();
    const rows = await this.db.all<{ source_id: string; fips: string }>(
      'SELECT DISTINCT source_id, fips FROM obs_county',
    );
    return new Set(rows.filter((r) => counties.has(r.fips)).map((r) => r.source_id));
  }

  /** Publishes the cycle's rollups (or, for `build`, rollups computed from stored state). */
  private async publish(
    statuses: Map<string, SourceStatus>,
    now: Date,
    computed: { live: LiveState; model: Map<string, number> } | null,
    renderCharts = false,
  ) {
    const model = computed?.model ?? (await countyModel(this.db, loadCountyModel()));
    const live = computed?.live ?? (await computeLive(this.db, this.opts.sources, statuses, model, now));
    const since = new Date(now.getTime() - TIMELINE_MAX_HOURS * 3_600_000).toISOString();
    const frames = await this.db.all<FrameRow>(
      'SELECT frame_at AS "at", state, customers_out, pct_out, band FROM state_frames WHERE frame_at > ? AND frame_at <= ? ORDER BY frame_at, state',
      [since, now.toISOString()],
    );
    const writer = this.opts.writer?.(now) ?? new FsTreeWriter(this.opts.outDir, now);
    let total = 0;
    for (const v of model.values()) total += v;
    const { histories, mcc, loadedYears } = await this.history();
    const countySeries: Record<string, Array<[string, number]>> = {};
    for (const r of await this.db.all<{ fips: string; at: string; n: number }>(
      'SELECT fips, frame_at AS "at", customers_out AS n FROM county_frames WHERE frame_at > ? ORDER BY fips, frame_at',
      [new Date(now.getTime() - 24 * 3_600_000).toISOString()],
    )) {
      (countySeries[r.fips] ??= []).push([r.at, r.n]);
    }
    const stats = await publishLive(writer, {
      live,
      reportsBuilding: this.reportsBuilding,
      sources: this.opts.sources,
      statuses,
      frames,
      simulated: this.opts.simulated,
      now,
      totalCustomers: total,
      db: this.db,
      baseUrl: this.opts.baseUrl ?? DEFAULT_BASE_URL,
      histories,
      mcc,
      loadedYears,
      countySeries,
      renderCharts,
      health: await this.health(statuses, now),
      coverage: this.opts.coverage,
      verification: this.verification(),
      details: this.details,
      archive: this.archive,
    });
    return { stats, countiesOut: live.national.counties_out, customersOut: live.national.customers_out };
  }

  /** mtime of the `sources verify` report the tree was last given (NaN before the first publish) */
  private verifiedMtime = Number.NaN;

  /**
   * The last `sources verify` report in the state directory (verify runs apart, so it is looked for at every publish);
   * `onlyIfChanged`: undefined when it is the one already published (a quiet cycle then serialises nothing more).
   */
  private verification(onlyIfChanged = false) {
    const mtime = verifyReportMtime(this.opts.stateDir);
    if (onlyIfChanged && mtime === this.verifiedMtime) return undefined;
    this.verifiedMtime = mtime;
    return verificationDoc(readVerifyReport(this.opts.stateDir), this.opts.simulated);
  }

  private healthCache: { at: number; health: Map<string, SourceHealth> } | null = null;

  /** Source health over 24 h and 7 days, recomputed at most every 15 minutes (its windows move slowly). */
  private async health(statuses: Map<string, SourceStatus>, now: Date): Promise<Map<string, SourceHealth>> {
    if (this.healthCache && now.getTime() - this.healthCache.at < 15 * 60_000 && now.getTime() >= this.healthCache.at)
      return this.healthCache.health;
    await prunePolls(this.db, now);
    this.healthCache = { at: now.getTime(), health: await sourceHealth(this.db, this.opts.sources, statuses, now) };
    return this.healthCache.health;
  }

  private historyCache: HistoryCache | null = null;

  /** Imported history, re-read only when an import has changed it (`history_version` in meta). */
  private async history(): Promise<HistoryCache> {
    const version = (await historyMarks(this.db)).version ?? '0';
    if (this.historyCache?.version !== version) {
      const mcc = new Set(
        (await this.db.all<{ fips: string }>('SELECT fips FROM county_customers_mcc')).map((r) => r.fips),
      );
      const loadedYears = (
        await this.db.all<{ y: number }>(
          `SELECT year AS y FROM eaglei_span
           UNION SELECT DISTINCT year(run_start_time)::INT FROM history_archive_quarters ORDER BY y`,
        )
      ).map((r) => r.y);
      this.historyCache = { version, histories: await countyHistories(this.db), mcc, loadedYears };
    }
    return this.historyCache;
  }

  /** Closes the database and the HTTP client, and lets go of what the pipeline holds between cycles. */
  async close(): Promise<void> {
    await this.http.close();
    this.db.close();
    // A closed pipeline an embedder still references must not keep every source's snapshot and body alive.
    this.known.clear();
    this.http.evict(Number.NEGATIVE_INFINITY);
    this.details.invalidateAll();
  }
}

/** A connector's request chain, cut off at the source's deadline even if the connector ignores the abort. */
function withDeadline<T>(work: Promise<T>, signal: AbortSignal, source: SourceDef, ms: number): Promise<T> {
  if (signal.aborted)
    return Promise.reject(new SourceError('timeout', `${source.id}: the ${ms} ms source deadline passed`));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () =>
      reject(
        new SourceError(
          'timeout',
          `${source.id}: its request chain did not finish within the ${ms} ms source deadline`,
        ),
      );
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
