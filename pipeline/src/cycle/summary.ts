// What a cycle reports: the summary `outage poll` logs and the heartbeat records (state/heartbeat.ts), built from the
// cycle's poll outcomes, its totals and the wall time of each phase.
import type { PublishStats } from '../publish/tree-writer.ts';
import type { SourceDef } from '../sources/source-def.ts';
import { freshness } from '../sources/scheduler.ts';
import type { SourceStatus } from '../state/status.ts';
import type { PollOutcome } from '../state/store.ts';

export interface CycleSummary {
  at: string;
  polled: number;
  ok: number;
  failed: number;
  stale: number;
  /** ids of the sources stale after this cycle */
  staleSources: string[];
  /** ids of the sources whose poll outlived the cycle's budget and lands in a later cycle (sources/carried.ts) */
  late: string[];
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

/** the national totals of the last evaluated cycle (a quiet cycle repeats them) */
export interface CycleTotals {
  countiesOut: number;
  customersOut: number;
}

/** What a polled cycle's summary is built from; `times`: when it started, its polls ended and its store ended. */
export interface CycleRun {
  outcomes: PollOutcome[];
  staleSources: string[];
  late: string[];
  events: number;
  totals: CycleTotals;
  publish: PublishStats;
  /** the history report tree's last publish failure (history/grow.ts), if it failed */
  growthError: string | null;
  times: [started: number, tPoll: number, tStore: number];
}

export function formatSummary(s: CycleSummary): string {
  const late = s.late.length ? `, ${s.late.length} late` : '';
  return (
    `[${s.at}] cycle: sources ${s.ok} ok / ${s.failed} failed / ${s.stale} stale (${s.polled} polled, ${s.changed} changed${late}) · ` +
    `${s.countiesOut} counties out, ${s.customersOut.toLocaleString('en-US')} customers · ${s.events} events · ` +
    `${s.publish.written} files written, ${s.publish.unchanged} unchanged · ${s.ms} ms`
  );
}

/** The ids of the sources stale at `now`. */
export function staleSources(sources: SourceDef[], statuses: Map<string, SourceStatus>, now: Date): string[] {
  return sources.filter((s) => freshness(s, statuses.get(s.id), now) === 'stale').map((s) => s.id);
}

/** The summary of a cycle that found nothing to do. */
export function idleSummary(now: Date, started: number, stale: string[], late: string[] = []): CycleSummary {
  return {
    at: now.toISOString(),
    polled: 0,
    ok: 0,
    failed: 0,
    stale: stale.length,
    staleSources: stale,
    late,
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

/** The summary of a cycle that polled (quiet or evaluated). */
export function cycleSummary(now: Date, run: CycleRun): CycleSummary {
  const { outcomes, staleSources: stale, times } = run;
  const [started, tPoll, tStore] = times;
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
    late: run.late,
    changed: outcomes.filter((o) => o.changed).length,
    events: run.events,
    ...run.totals,
    publish: run.publish,
    ms: Date.now() - started,
    failures,
    notes: [
      ...outcomes.filter((o) => o.ok && o.message).map((o) => ({ source: o.source.id, message: o.message ?? '' })),
      // history grew from the archive but its report tree did not publish (tried again after the next cycle)
      ...(run.growthError ? [{ source: 'history', message: run.growthError }] : []),
    ],
    phases: { poll: tPoll - started, store: tStore - tPoll, publish: Date.now() - tStore },
  };
}
