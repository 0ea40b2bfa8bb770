// The fault soak's judgement (scripts/soak.ts runs it): reads the run's polls and events back from the state database
// and checks the invariants — no cycle lost, no outage closed over a stale feed, every feed_stale answered, memory
// flat, every connector succeeding at least once — and gathers the figures the soak prints.
import type { Db } from '../pipeline/src/state/db.ts';
import type { SourceDef } from '../pipeline/src/sources/source-def.ts';
import { FAULT_KINDS, type FaultKind } from '../pipeline/src/simulator/faults.ts';
import { hardenedInterval, staleAfterMinutes } from '../pipeline/src/state/rules.ts';
import type { SoakOptions } from './soak-options.ts';

export const T0 = new Date('2026-09-01T04:00:00Z');
export const HOUR = 3_600_000;

/** One invariant: `id` is stable (tests pick checks by it), `check` says what holds, `value` what was measured. */
export interface Check {
  id: string;
  check: string;
  value: string;
  ok: boolean;
}
export interface SoakReport {
  checks: Check[];
  figures: Record<string, string | number>;
  injected: Record<FaultKind, number>;
  events: Record<string, number>;
  pollsByReason: Record<string, number>;
}

/** What the run itself saw, beside what the state database holds at the end. */
export interface RunLog {
  scheduled: number;
  completed: number;
  lost: Array<{ at: string; message: string }>;
  maxPollMs: number;
  victim: string | null;
  down: [number, number] | null;
  restartAt: number | null;
  /** per source: when its hardened flag changed (after the cycle at that time) */
  hardened: Map<string, Array<[number, boolean]>>;
  /** memory after a full GC at every cycle of the first and of the last simulated hour */
  memory: { first: MemorySample[]; last: MemorySample[] };
}

export interface MemorySample {
  rss: number;
  heap: number;
  duckdb: number;
  /** Buffers outside the JS heap: the in-memory published tree (SOAK_WRITER=memory) and HTTP bodies */
  buffers: number;
}
interface EventLite {
  id: number;
  at: string;
  kind: string;
  scope: string;
  fips: string | null;
  utility: string | null;
  source_id: string | null;
}

/** Reads the run's outcome back from the state database and checks the invariants against it. */
export async function judge(
  o: SoakOptions,
  db: Db,
  sources: SourceDef[],
  cover: Map<string, string[]>,
  run: RunLog,
  injected: Record<FaultKind, number>,
): Promise<SoakReport> {
  // The polls of the sources judged here (the soak's dead host has a check of its own).
  const judged = new Set(sources.map((s) => s.id));
  const polls = (
    await db.all<{ source_id: string; at: string; ok: boolean; reason: string | null }>(
      'SELECT source_id, polled_at AS "at", ok, reason FROM polls ORDER BY source_id, polled_at',
    )
  ).filter((p) => judged.has(p.source_id));
  const events = await db.all<EventLite>(
    'SELECT id::INT AS id, event_at AS "at", kind, scope, fips, utility, source_id FROM events ORDER BY id',
  );
  const lastAt = polls.reduce((m, p) => Math.max(m, Date.parse(p.at)), 0);
  const fresh = freshnessRules(o, polls, events, run);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const mem = Object.fromEntries(
    (['rss', 'heap', 'duckdb', 'buffers'] as const).map((k) => [
      k,
      [run.memory.first, run.memory.last].map((xs) => Number(mb(median(xs.map((x) => x[k]))))),
    ]),
  );
  const classes = {
    '5xx': injected.http5xx,
    timeouts: injected.stall_headers + injected.stall_body,
    garbage: injected.html + injected.truncated + injected.binary + injected.empty,
  };
  const checks: Check[] = [
    ...cycleChecks(o, sources, polls, run, lastAt),
    ...restoredChecks(sources, cover, events, fresh),
    ...freshnessChecks(o, sources, events, fresh, run, lastAt),
    {
      id: 'rss',
      check: 'memory flat: RSS in the last simulated hour within 10 % of the first (medians after GC)',
      value: `${mem.rss[0]} → ${mem.rss[1]} MB (${pct(mem.rss[1] / mem.rss[0] - 1)})`,
      ok: mem.rss[0] > 0 && mem.rss[1] <= mem.rss[0] * 1.1,
    },
    {
      id: 'heap',
      check: 'memory flat: JS heap in the last simulated hour within 10 % of the first (medians after GC)',
      value: `${mem.heap[0]} → ${mem.heap[1]} MB (${pct(mem.heap[1] / mem.heap[0] - 1)})`,
      ok: mem.heap[0] > 0 && mem.heap[1] <= mem.heap[0] * 1.1,
    },
    {
      id: 'faults',
      check: 'faults of every class were injected',
      value: Object.entries(classes)
        .map(([k, v]) => `${k} ${v}`)
        .join(', '),
      ok: Object.values(classes).every((v) => v > 0),
    },
    connectorCheck(sources, polls),
  ];
  const count = (xs: string[]) =>
    Object.fromEntries([...xs.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<string, number>())].sort());
  const pollsByReason = count(polls.map((p) => p.reason ?? 'ok'));
  const total = Object.values(injected).reduce((a, b) => a + b, 0);
  const figures: Record<string, string | number> = {
    'simulated hours': o.hours,
    cycles: `${run.completed} completed of ${run.scheduled} scheduled`,
    polls: polls.length,
    'polls by outcome': Object.entries(pollsByReason)
      .map(([k, v]) => `${k} ${v}`)
      .join(', '),
    'polls ok by connector': okByConnector(byConnector(sources, polls)),
    'faults injected': `${total}: ${FAULT_KINDS.map((k) => `${k} ${injected[k]}`).join(', ')}`,
    'events by kind': Object.entries(count(events.map((e) => e.kind)))
      .map(([k, v]) => `${k} ${v}`)
      .join(', '),
    'host down': run.down
      ? `${run.victim}, ${new Date(run.down[0]).toISOString().slice(11, 16)}–${new Date(run.down[1]).toISOString().slice(11, 16)} simulated`
      : 'none',
    'poller restarted at': run.restartAt ? new Date(run.restartAt).toISOString().slice(11, 16) : 'never',
    'longest poll phase of a cycle': `${run.maxPollMs} ms (source deadline ${o.sourceDeadlineMs} ms)`,
    'memory, first → last simulated hour (medians after GC)': `RSS ${mem.rss[0]} → ${mem.rss[1]} MB; JS heap ${mem.heap[0]} → ${mem.heap[1]} MB; DuckDB ${mem.duckdb[0]} → ${mem.duckdb[1]} MB; Buffers ${mem.buffers[0]} → ${mem.buffers[1]} MB`,
  };
  return { checks, figures, injected, events: count(events.map((e) => e.kind)), pollsByReason };
}

/** Polls that succeeded and polls in all, per connector (a longer request chain meets more faults). */
function byConnector(
  sources: SourceDef[],
  polls: Array<{ source_id: string; ok: boolean }>,
): Map<string, [number, number]> {
  const connector = new Map(sources.map((s) => [s.id, s.connector]));
  const n = new Map<string, [number, number]>();
  for (const p of polls) {
    const name = connector.get(p.source_id) ?? `unknown source ${p.source_id}`;
    const c = n.get(name) ?? n.set(name, [0, 0]).get(name)!;
    c[0] += p.ok ? 1 : 0;
    c[1] += 1;
  }
  return new Map([...n].sort());
}

const okByConnector = (n: Map<string, [number, number]>) =>
  [...n].map(([k, [ok, all]]) => `${k} ${ok}/${all}`).join(', ') || 'no polls';

/** Every connector polled succeeded at least once: a chain the faults always break would prove nothing under load. */
function connectorCheck(sources: SourceDef[], polls: Array<{ source_id: string; ok: boolean }>): Check {
  const n = byConnector(sources, polls);
  const never = [...n].filter(([, [ok]]) => ok === 0).map(([k]) => k);
  return {
    id: 'connectors',
    check: 'every connector polled had at least one successful poll',
    value: `${okByConnector(n)}${never.length ? `; never ok: ${never.join(', ')}` : ''}`,
    ok: n.size > 0 && never.length === 0,
  };
}

export const mb = (b: number) => (b / 1e6).toFixed(0);
const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;
const hhmm = (t: number) => new Date(t).toISOString().slice(11, 16);

interface Freshness {
  /** fresh at `t` by the spec rule on the poll log: a success within stale_after of its interval at the time */
  byPolls(id: string, t: number): boolean;
  /** fresh at `t` by the event stream: its last feed_stale / feed_recovered up to `t` is not feed_stale */
  byEvents(id: string, t: number): boolean;
}

function freshnessRules(
  o: SoakOptions,
  polls: Array<{ source_id: string; at: string; ok: boolean }>,
  events: EventLite[],
  run: RunLog,
): Freshness {
  const oks = new Map<string, number[]>();
  for (const p of polls)
    if (p.ok) (oks.get(p.source_id) ?? oks.set(p.source_id, []).get(p.source_id)!).push(Date.parse(p.at));
  const flips = events.filter((e) => e.kind === 'feed_stale' || e.kind === 'feed_recovered');
  const before = <T>(xs: T[], t: number, at: (x: T) => number) => xs.filter((x) => at(x) <= t).at(-1);
  return {
    byPolls: (id, t) => {
      const last = before(oks.get(id) ?? [], t, (x) => x);
      const hardened = before(run.hardened.get(id) ?? [], t, (x) => x[0])?.[1] ?? false;
      const interval = hardened ? hardenedInterval(o.intervalMin) : o.intervalMin;
      return last !== undefined && t - last <= staleAfterMinutes(interval) * 60_000;
    },
    byEvents: (id, t) =>
      before(
        flips.filter((e) => e.source_id === id),
        t,
        (e) => Date.parse(e.at),
      )?.kind !== 'feed_stale',
  };
}

/** No cycle lost: every cycle the scheduler asked for ran to completion, and every source was polled on its cadence. */
function cycleChecks(
  o: SoakOptions,
  sources: SourceDef[],
  polls: Array<{ source_id: string; at: string }>,
  run: RunLog,
  lastAt: number,
): Check[] {
  const limit = o.intervalMin * 60_000;
  let worst = 0;
  const late: string[] = [];
  for (const s of sources) {
    const times = polls.filter((p) => p.source_id === s.id).map((p) => Date.parse(p.at));
    const gaps = [times[0] - T0.getTime(), ...times.slice(1).map((t, i) => t - times[i]), lastAt - times.at(-1)!];
    const gap = times.length ? Math.max(...gaps) : Infinity;
    worst = Math.max(worst, gap);
    if (gap > limit) late.push(s.id);
  }
  const lost = run.lost
    .map((l) => `${l.at}: ${l.message}`)
    .slice(0, 3)
    .join('; ');
  return [
    {
      id: 'cycles',
      check: 'no cycle lost: every scheduled cycle ran and completed',
      value: `${run.completed} of ${run.scheduled}${lost ? ` (lost: ${lost})` : ''}`,
      ok: run.scheduled > 0 && run.completed === run.scheduled,
    },
    {
      id: 'polls',
      check: `no poll lost: every source polled at least every ${o.intervalMin} min`,
      value: `longest gap ${worst / 60_000} min${late.length ? `; late: ${late.join(', ')}` : ''}`,
      ok: sources.length > 0 && late.length === 0,
    },
  ];
}

/** spec: an outage never closes while the feed covering it is stale. */
function restoredChecks(
  sources: SourceDef[],
  cover: Map<string, string[]>,
  events: EventLite[],
  fresh: Freshness,
): Check[] {
  const restored = events.filter((e) => e.kind === 'outage_restored');
  const covering = (e: EventLite): string[] =>
    e.scope === 'county'
      ? (cover.get(e.fips ?? '') ?? [])
      : e.scope === 'municipality'
        ? [e.source_id ?? '']
        : sources.filter((s) => s.utility === e.utility).map((s) => s.id);
  const bad = { events: [] as string[], polls: [] as string[], uncovered: 0 };
  for (const e of restored) {
    const ids = covering(e);
    if (ids.length === 0) bad.uncovered += 1;
    const t = Date.parse(e.at);
    for (const id of ids) {
      if (!fresh.byEvents(id, t)) bad.events.push(`#${e.id} ${id} ${hhmm(t)}`);
      if (!fresh.byPolls(id, t)) bad.polls.push(`#${e.id} ${id} ${hhmm(t)}`);
    }
  }
  const value = (v: string[]) =>
    `${restored.length} outage_restored, ${v.length} closed over a stale feed${v.length ? ` (${v.slice(0, 3).join(', ')})` : ''}${bad.uncovered ? `, ${bad.uncovered} without a covering source` : ''}`;
  return [
    {
      id: 'restored_by_events',
      check: 'no outage closed while its feed was stale (event stream)',
      value: value(bad.events),
      ok: restored.length > 0 && bad.events.length === 0 && bad.uncovered === 0,
    },
    {
      id: 'restored_by_polls',
      check: 'no outage closed while its feed was stale (poll log, stale rule)',
      value: value(bad.polls),
      ok: restored.length > 0 && bad.polls.length === 0 && bad.uncovered === 0,
    },
  ];
}

/** Every feed_stale is answered by a feed_recovered once the source is fresh again; the down host went through both. */
function freshnessChecks(
  o: SoakOptions,
  sources: SourceDef[],
  events: EventLite[],
  fresh: Freshness,
  run: RunLog,
  lastAt: number,
): Check[] {
  const unanswered: string[] = [];
  const stillStale: string[] = [];
  let stale = 0;
  for (const s of sources) {
    const seq = events.filter((e) => e.source_id === s.id && (e.kind === 'feed_stale' || e.kind === 'feed_recovered'));
    stale += seq.filter((e) => e.kind === 'feed_stale').length;
    const alternates = seq.every((e, i) => e.kind === (i % 2 === 0 ? 'feed_stale' : 'feed_recovered'));
    const open = seq.at(-1)?.kind === 'feed_stale';
    if (!alternates || (open && fresh.byPolls(s.id, lastAt))) unanswered.push(s.id);
    else if (open) stillStale.push(s.id);
  }
  const v = events.filter(
    (e) => e.source_id === run.victim && (e.kind === 'feed_stale' || e.kind === 'feed_recovered'),
  );
  const [from, to] = run.down ?? [0, 0];
  const wentStale = v.some((e) => e.kind === 'feed_stale' && Date.parse(e.at) > from && Date.parse(e.at) <= to);
  const recovered = v.some((e) => e.kind === 'feed_recovered' && Date.parse(e.at) >= to);
  return [
    {
      id: 'recovered',
      check: 'every feed_stale followed by feed_recovered (sources fresh at the end)',
      value: `${stale} feed_stale; unanswered: ${unanswered.join(', ') || 'none'}; still stale at the end: ${stillStale.join(', ') || 'none'}`,
      ok: stale > 0 && unanswered.length === 0,
    },
    {
      id: 'down_host',
      check: `the down host went stale and recovered (${o.downHours} h down)`,
      value: `${run.victim ?? 'none'}: ${v.map((e) => `${e.kind} ${hhmm(Date.parse(e.at))}`).join(', ') || 'no freshness events'}`,
      ok: wentStale && recovered,
    },
  ];
}
