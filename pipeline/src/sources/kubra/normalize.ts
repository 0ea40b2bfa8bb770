// Kubra normalize: walks the whole area tree. States → counties → municipalities; masked counts kept honest.
// Masking (counts.ts): a masked area shows `<5` (option `mask_floor`, default 5), counts as 1 (its lower bound) in
// sums, and carries out_upper = floor − 1. Without a report or thematic areas, the cluster records' points give the
// counties; the summary file, when read, gives the headline. A count that cannot be read is never 0: its county, area
// or outage is not made and is noted in `unreadable` beside a headline (the summary's, or the report's totals); where
// the total is only a sum (no headline), a record in that sum that cannot be read fails the poll naming the field, as
// does a headline present but unreadable.
import type { SourceDef } from '../source-def.ts';
import { emptySnapshot, toIso, type AreaCount, type Snapshot } from '../snapshot.ts';
import { matchCounty } from '../../geo/match.ts';
import { findState } from '../../geo/states.ts';
import { CountyTally, isObj, servedSum } from '../checks.ts';
import { readReport, readThematic, type KubraArea } from './schema.ts';
import { headlineOut, notedCount, type KubraCount } from './counts.ts';
import { addNotes } from '../unreadable.ts';
import { countPoints, incidentsOf, readClusters } from './incidents.ts';
import { readSummary, summaryNotice } from './summary.ts';

export { MASK_SENTINEL, readCount, type KubraCount } from './counts.ts';

const nameOf = (a: KubraArea): string => (a.name ?? a.area_name ?? a.key ?? a.areaId ?? '').trim();

/** Where the counties come from: the report (also a bare report.json), the thematic areas, or the points. */
function countySource(raw: unknown): 'report' | 'thematic' | 'points' {
  if (!isObj(raw)) return 'report';
  if ('thematic' in raw) return 'thematic';
  return 'report' in raw || !('clusters' in raw || 'summary' in raw) ? 'report' : 'points';
}

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const floor = typeof source.options.mask_floor === 'number' ? source.options.mask_floor : 5;
  const from = countySource(raw);
  const parts = (isObj(raw) ? raw : {}) as { thematic?: unknown; clusters?: unknown; summary?: unknown };
  const summary = parts.summary === undefined ? null : readSummary(parts.summary, 'Kubra summary');
  const totals = summary?.summaryFileData.totals[0];
  const top = totals ? headlineOut(totals.total_cust_a, floor, 'total_cust_a', 'Kubra summary') : null;
  // Where the summary gives no headline, the report's totals or a sum stands; a sum cannot leave a record out.
  const given = top !== null;
  const snap =
    from === 'thematic'
      ? normalizeThematic(parts.thematic, source, floor)
      : from === 'report'
        ? normalizeReport(raw, source, floor, given)
        : emptySnapshot(source.utility);
  const points = parts.clusters !== undefined;
  if (points) {
    const notes: string[] = [];
    snap.incidents = incidentsOf(readClusters(parts.clusters, 'Kubra clusters'), notes);
    addNotes(snap.unreadable, notes);
  }
  if (from === 'points' && points) countPoints(snap);
  if (summary) {
    if (top !== null) snap.customers_out = top;
    if (typeof totals?.total_cust_s === 'number') snap.customers_served = totals.total_cust_s;
    snap.notice = summaryNotice(summary);
  }
  // Counties from points carry no served count: `outage_only`, unless the summary gives the utility's.
  if (from === 'points')
    snap.basis = !points ? 'utility_total' : snap.customers_served === null ? 'outage_only' : 'county';
  return snap;
}

/** `path` with `name` appended (a nameless area adds no step); built only where an area's path is kept. */
const extend = (path: string[], name: string): string[] => (name ? [...path, name] : path);

/** The report's counties and areas; `given`: the summary gives the headline (it replaces the report's totals). */
function normalizeReport(raw: unknown, source: SourceDef, floor: number, given: boolean): Snapshot {
  const snap = emptySnapshot(source.utility);
  const counties = new CountyTally();
  const report = readReport((raw as { report?: unknown })?.report ?? raw, 'Kubra report');
  /** the counties that cannot be read: the counties' sum is the total when no headline is given */
  const countyNotes: string[] = [];

  const walk = (area: KubraArea, state: string, path: string[], county: string | null, inState: boolean): void => {
    const name = nameOf(area);
    const children = area.areas ?? [];
    // A state name only counts as a state above the county level ("Washington" county is not Washington state).
    const st = !county && !inState && name.length > 2 ? findState(name) : undefined;
    if (st) {
      const here = extend(path, name);
      for (const child of children) walk(child, st.code, here, null, true);
      return;
    }
    const fips = county ? null : matchCounty(state, name);
    const label = () => extend(path, name).join(' / ') || '(no name)';
    if (fips) {
      // A county whose own count cannot be read is no county (its areas are still listed), never one at 0.
      const count = notedCount(area.cust_a, floor, 'county cust_a', label(), countyNotes);
      if (count) counties.add(fips, count.out, area.cust_s ?? null);
      if (children.length === 0) return;
      const here = extend(path, name);
      for (const child of children) walk(child, state, here, fips, true);
      return;
    }
    if (county) {
      const here = extend(path, name);
      const count = notedCount(area.cust_a, floor, 'cust_a', label(), snap.unreadable);
      if (count) snap.areas.push(areaOf(area, county, here, count));
      for (const child of children) walk(child, state, here, county, true);
      return;
    }
    // A grouping region (e.g. an operating area) that is neither a state nor a county: look inside it.
    if (children.length) for (const child of children) walk(child, state, extend(path, name), null, inState);
    else {
      const count = notedCount(area.cust_a, floor, 'cust_a', label(), snap.unreadable);
      if (count && count.out > 0) snap.unmatched.push(extend(path, name).join(' / '));
    }
  };
  for (const top of report.file_data.areas) walk(top, source.states[0], [], null, false);

  const totals = report.file_data.totals;
  // The summary's headline replaces the report's totals: they are read only when it is not given.
  const totalOut = given ? null : headlineOut(totals?.cust_a, floor, 'cust_a', 'Kubra report totals');
  addNotes(snap.unreadable, countyNotes, true);
  snap.counties = counties.sorted();
  snap.customers_out = totalOut ?? snap.counties.reduce((s, c) => s + c.customers_out, 0);
  snap.customers_served = totals?.cust_s ?? servedSum(snap.counties);
  snap.basis = snap.counties.length > 0 ? 'county' : 'utility_total';
  return snap;
}

function areaOf(area: KubraArea, fips: string, path: string[], count: KubraCount): AreaCount {
  return {
    fips,
    name: nameOf(area),
    path,
    customers_out: count.out,
    out_display: count.display,
    out_lower: count.masked ? 1 : count.out,
    out_upper: count.upper,
    masked: count.masked,
    customers_served: area.cust_s ?? null,
    etr: toIso(area.etr),
    bbox: bboxOf(area.gotoMap?.bbox),
  };
}

/** Kubra's gotoMap.bbox as [west, south, east, north] in degrees, when it is one. */
function bboxOf(b: unknown[] | null | undefined): [number, number, number, number] | null {
  if (b?.length !== 4 || !b.every(Number.isFinite)) return null;
  const [w, s, e, n] = b as number[];
  return Math.abs(w) <= 180 && Math.abs(e) <= 180 && Math.abs(s) <= 90 && Math.abs(n) <= 90 && w <= e && s <= n
    ? [w, s, e, n]
    : null;
}

/** The thematic counties; their sum is the total unless the summary's headline is `given`. */
function normalizeThematic(raw: unknown, source: SourceDef, floor: number): Snapshot {
  const snap = emptySnapshot(source.utility);
  const data = readThematic(raw, 'Kubra thematic areas');
  const counties = new CountyTally();
  for (const item of data.file_data) {
    const name = item.desc.name ?? item.title ?? item.id?.split('|')[1] ?? '';
    const count = notedCount(item.desc.cust_a, floor, 'cust_a', name || '(no name)', snap.unreadable);
    if (!count) continue;
    const fips = matchCounty(source.states[0], name);
    if (!fips) {
      snap.unmatched.push(name);
      continue;
    }
    counties.add(fips, count.out, item.desc.cust_s ?? null);
  }
  snap.counties = counties.sorted();
  snap.customers_out = snap.counties.reduce((s, c) => s + c.customers_out, 0);
  snap.customers_served = servedSum(snap.counties);
  snap.basis = 'county';
  return snap;
}
