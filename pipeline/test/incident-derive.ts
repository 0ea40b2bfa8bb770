// What the recorded versions of a sequence call for (issue 41 parts 1, 3 and 5), derived from the payloads by the
// documented rules, never from the pipeline's output: the incident events (new ids, grown, improving, ETR changes,
// crew changes, vanished ids) and the ETR record; and the checks that the pipeline's equal them.
import { expect } from 'vitest';
import { INCIDENT_EVENT_MIN } from '../src/state/lifecycle.ts';
import type { EventRow } from '../src/state/events.ts';
import type { EtrRecordRow } from '../src/state/etr-record.ts';
import { versionBytes, type Version } from './sequence-server.ts';

/** What a replay produced: the versions replayed, the stream's incident events (oldest first) and the ETR record. */
export interface Replayed {
  all: Version[];
  stream: EventRow[];
  record: EtrRecordRow[];
}
const T = INCIDENT_EVENT_MIN;

/** An outage as the test reads it from a recorded version: its id, customers, ETR (ms) and crew status. */
export interface Point {
  id: string;
  n: number;
  etr: number | null;
  crew: string | null;
}
/** PG&E's layer-5 attributes, as recorded. */
export const pgePoint = (r: Record<string, unknown>): Point => ({
  id: String(r.F_OUTAGE_ID),
  n: r.EST_CUSTOMERS as number,
  etr: (r.CURRENT_ETOR as number | null) ?? null,
  crew: (r.CREW_CURRENT_STATUS as string | null)?.trim() || null,
});
/** LG&E/KU's Kubra outages, as the scraper flattened them (`ETR-NULL`: no estimate). */
export const kubraPoint = (r: Record<string, unknown>): Point => ({
  id: String(r.id),
  n: r.custAffected as number,
  etr: typeof r.etr === 'string' && !Number.isNaN(Date.parse(r.etr)) ? Date.parse(r.etr) : null,
  crew: (r.crewStatus as string | null)?.trim() || null,
});
/** Seattle City Light's UtiliSocial events (epoch-ms times; a missing or 0 etrTime: no estimate; status: the crew). */
const epoch = (v: unknown) =>
  typeof v === 'number' && v > 0 ? v : typeof v === 'string' && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : null;
export const sclPoint = (r: Record<string, unknown>): Point => ({
  id: String(r.id),
  n: r.numPeople as number,
  etr: epoch(r.etrTime),
  crew: (r.status as string | null | undefined)?.trim() || null,
});
type Derived = { kind: string; id: string; at: string; customers_out?: number; etr_slip_min?: number | null };

interface Open {
  base: number;
  low: number;
  peak: number;
  etr: number | null;
  crew: string | null;
  below: number;
}

/** One open incident's events in a version where it is listed with `p` (the lifecycle's order of checks). */
function stepPresent(o: Open, p: Point, push: (kind: string, extra?: Partial<Derived>) => void): boolean {
  const n = p.n;
  o.peak = Math.max(o.peak, n);
  if (n < T / 2) {
    if (++o.below >= 2) return (push('outage_restored'), false);
  } else o.below = 0;
  if (n >= o.base * 1.5 && n - o.base >= T) {
    push('outage_grew');
    o.base = o.low = n;
  } else {
    o.low = Math.max(o.low, n);
    if (n <= o.low * 0.5 && o.low - n >= T / 2 && o.below === 0) {
      push('outage_improving');
      o.low = n;
      o.base = Math.min(o.base, n);
    }
  }
  const etr = p.etr;
  if (etr !== null && (o.etr === null || Math.abs(etr - o.etr) >= 3_600_000)) {
    push('etr_changed', { etr_slip_min: o.etr === null ? null : Math.round((etr - o.etr) / 60_000) });
    o.etr = etr;
  }
  const crew = p.crew;
  if (crew !== null && crew !== o.crew) {
    push('crew_changed');
    o.crew = crew;
  }
  return true;
}

/** The incident events the recorded versions call for. */
function derive(list: Array<{ at: string; points: Point[] }>): Derived[] {
  const out: Derived[] = [];
  const open = new Map<string, Open>();
  for (const { at, points } of list) {
    const listed = new Map(points.map((p) => [p.id, p]));
    for (const [id, o] of open) {
      const push = (kind: string, extra: Partial<Derived> = {}) => out.push({ kind, id, at, ...extra });
      const p = listed.get(id);
      if (!p) {
        push('outage_restored');
        open.delete(id);
      } else if (!stepPresent(o, p, push)) open.delete(id);
    }
    for (const [id, p] of listed) {
      if (open.has(id) || p.n < T || out.some((e) => e.id === id && e.at === at)) continue;
      out.push({ kind: 'outage_began', id, at, customers_out: p.n });
      open.set(id, { base: p.n, low: p.n, peak: p.n, etr: p.etr, crew: p.crew, below: 0 });
    }
  }
  return out;
}

/** One incident's history as the recorded versions give it: first and last version listing it, its ETRs in turn. */
interface Seen {
  first: string;
  last: string;
  etrs: number[];
  listed: boolean;
}

/** Quantile by linear interpolation between closest ranks (DuckDB's quantile_cont). */
function quantile(xs: number[], q: number): number | null {
  if (xs.length === 0) return null;
  const a = [...xs].sort((x, y) => x - y);
  const h = (a.length - 1) * q;
  const lo = Math.floor(h);
  return lo + 1 < a.length ? a[lo] + (h - lo) * (a[lo + 1] - a[lo]) : a[lo];
}

/** The ETR record the recorded versions call for, per month of first sighting (the documented definitions, and the
 * archiving of finished incidents at each new UTC day: incident-archive.ts). */
function deriveRecord(list: Array<{ at: string; points: Point[] }>) {
  const seen = new Map<string, Seen>();
  const archived: Seen[] = [];
  let day = '';
  for (const { at, points } of list) {
    for (const h of seen.values()) h.listed = false;
    for (const p of points) {
      const h = seen.get(p.id) ?? seen.set(p.id, { first: at, last: at, etrs: [], listed: true }).get(p.id)!;
      h.last = at;
      h.listed = true;
      if (p.etr !== null && p.etr !== h.etrs.at(-1)) h.etrs.push(p.etr);
    }
    // The first cycle of a new UTC day archives the day before: every incident not listed now, last seen before today,
    // leaves the live history (a later listing of its id starts a new incident).
    if (day && at.slice(0, 10) > day)
      for (const [id, h] of seen)
        if (!h.listed && h.last < at.slice(0, 10)) {
          archived.push(h);
          seen.delete(id);
        }
    day = at.slice(0, 10);
  }
  const byMonth = new Map<string, Seen[]>();
  for (const h of [...archived, ...seen.values()])
    (byMonth.get(h.first.slice(0, 7)) ?? byMonth.set(h.first.slice(0, 7), []).get(h.first.slice(0, 7))!).push(h);
  const pct = (n: number, d: number) => (d > 0 ? (100 * n) / d : null);
  return [...byMonth].sort().map(([ym, hs]) => {
    const finished = hs.filter((h) => !h.listed && h.etrs.length > 0);
    const slips = finished.map((h) => (h.etrs.at(-1)! - h.etrs[0]) / 60_000);
    return {
      year: Number(ym.slice(0, 4)),
      month: Number(ym.slice(5, 7)),
      incidents: hs.length,
      with_etr: hs.filter((h) => h.etrs.length > 0).length,
      etr_coverage_pct: pct(hs.filter((h) => h.etrs.length > 0).length, hs.length),
      etr_finished: finished.length,
      restored_by_first_etr_pct: pct(finished.filter((h) => Date.parse(h.last) <= h.etrs[0]).length, finished.length),
      etr_slip_median_min: quantile(slips, 0.5),
      etr_slip_p90_min: quantile(slips, 0.9),
      moved_more_than_twice_pct: pct(finished.filter((h) => h.etrs.length - 1 > 2).length, finished.length),
    };
  });
}

/** The pipeline's ETR record equals the one derived here (to its one decimal); logged for the note. */
export function expectRecord(seq: string, r: Replayed, toPoint: (x: Record<string, unknown>) => Point, label = seq) {
  const want = deriveRecord(
    r.all.map((v) => ({ at: new Date(v.at).toISOString(), points: readPoints(seq, v.file, toPoint) })),
  );
  expect(r.record.map((x) => [x.year, x.month])).toEqual(want.map((x) => [x.year, x.month]));
  want.forEach((w, i) => {
    const got = r.record[i] as unknown as Record<string, number | null>;
    for (const [k, v] of Object.entries(w)) {
      if (v === null) expect(got[k], k).toBeNull();
      else expect(got[k], k).toBeCloseTo(v, 1);
    }
  });
  expect(want.some((w) => w.etr_finished > 0)).toBe(true);
  console.log(`${label}: ETR record ${JSON.stringify(r.record)}`);
}

const readPoints = (seq: string, file: string, toPoint: (x: Record<string, unknown>) => Point) =>
  (JSON.parse(versionBytes(seq, file).toString()) as Array<Record<string, unknown>>).map(toPoint);

/** The stream's incident events equal the derivation's, cycle by cycle; the counts by kind, logged for the note. */
export function expectDerived(seq: string, r: Replayed, toPoint: (x: Record<string, unknown>) => Point, label = seq) {
  const read = (file: string) =>
    (JSON.parse(versionBytes(seq, file).toString()) as Array<Record<string, unknown>>).map(toPoint);
  const want = derive(r.all.map((v) => ({ at: new Date(v.at).toISOString(), points: read(v.file) })));
  expect(want.filter((e) => e.kind === 'outage_began').length).toBeGreaterThan(0);
  // Within a cycle the stream orders events by incident, the derivation by its checks: compare as sets per cycle.
  const key = (e: { kind: string; id?: string | null; at: string }) => `${e.at} ${e.id} ${e.kind}`;
  expect(r.stream.map((e) => key({ kind: e.kind, id: e.incident_id, at: e.at })).sort()).toEqual(want.map(key).sort());
  for (const w of want.filter((e) => e.kind === 'etr_changed'))
    expect(r.stream.find((e) => key({ kind: e.kind, id: e.incident_id, at: e.at }) === key(w))?.etr_slip_min).toBe(
      w.etr_slip_min,
    );
  const counts: Record<string, number> = {};
  for (const e of r.stream) counts[e.kind] = (counts[e.kind] ?? 0) + 1;
  console.log(`${label}: incident events by kind ${JSON.stringify(counts)}`);
}
