// Kubra normalize: walks the whole area tree. States → counties → municipalities; masked counts kept honest.
// Masking (counts.ts): a masked area shows `<5` (option `mask_floor`, default 5), counts as 1 (its lower bound) in
// sums, and carries out_upper = floor − 1. Without a report or thematic areas, the cluster records' points give the
// counties; the summary file, when read, gives the headline.
import type { SourceDef } from '../source-def.ts';
import { emptySnapshot, toIso, type AreaCount, type Snapshot } from '../snapshot.ts';
import { matchCounty } from '../../geo/match.ts';
import { findState } from '../../geo/states.ts';
import { CountyTally, isObj, servedSum } from '../checks.ts';
import { readReport, readThematic, type KubraArea } from './schema.ts';
import { readCount, type KubraCount } from './counts.ts';
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
  const snap =
    from === 'thematic'
      ? normalizeThematic(parts.thematic, source, floor)
      : from === 'report'
        ? normalizeReport(raw, source, floor)
        : emptySnapshot(source.utility);
  const points = parts.clusters !== undefined;
  if (points) snap.incidents = incidentsOf(readClusters(parts.clusters, 'Kubra clusters'));
  if (from === 'points' && points) countPoints(snap);
  if (parts.summary !== undefined) headline(snap, parts.summary, floor);
  // Counties from points carry no served count: `outage_only`, unless the summary gives the utility's.
  if (from === 'points')
    snap.basis = !points ? 'utility_total' : snap.customers_served === null ? 'outage_only' : 'county';
  return snap;
}

/** The summary file's figures as the utility's headline (they replace a report's totals), and its notice. */
function headline(snap: Snapshot, raw: unknown, floor: number): void {
  const summary = readSummary(raw, 'Kubra summary');
  const totals = summary.summaryFileData.totals[0];
  const out = readCount(totals.total_cust_a, floor);
  if (out) snap.customers_out = out.out;
  if (typeof totals.total_cust_s === 'number') snap.customers_served = totals.total_cust_s;
  snap.notice = summaryNotice(summary);
}

/** `path` with `name` appended (a nameless area adds no step); built only where an area's path is kept. */
const extend = (path: string[], name: string): string[] => (name ? [...path, name] : path);

function normalizeReport(raw: unknown, source: SourceDef, floor: number): Snapshot {
  const snap = emptySnapshot(source.utility);
  const counties = new CountyTally();
  const report = readReport((raw as { report?: unknown })?.report ?? raw, 'Kubra report');

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
    const count = readCount(area.cust_a, floor);
    const fips = county ? null : matchCounty(state, name);
    if (fips) {
      if (count) counties.add(fips, count.out, area.cust_s ?? null);
      else if (children.length === 0) snap.unmatched.push(`${extend(path, name).join(' / ')} (no count)`);
      if (children.length === 0) return;
      const here = extend(path, name);
      for (const child of children) walk(child, state, here, fips, true);
      if (!count) {
        const sum = snap.areas.filter((a) => a.fips === fips).reduce((s, a) => s + a.customers_out, 0);
        counties.add(fips, sum, null);
      }
      return;
    }
    if (county) {
      const here = extend(path, name);
      if (count) snap.areas.push(areaOf(area, county, here, count));
      for (const child of children) walk(child, state, here, county, true);
      return;
    }
    // A grouping region (e.g. an operating area) that is neither a state nor a county: look inside it.
    if (children.length) for (const child of children) walk(child, state, extend(path, name), null, inState);
    else if (count && count.out > 0) snap.unmatched.push(extend(path, name).join(' / '));
  };
  for (const top of report.file_data.areas) walk(top, source.states[0], [], null, false);

  const totals = report.file_data.totals;
  const totalOut = readCount(totals?.cust_a, floor);
  snap.counties = counties.sorted();
  snap.customers_out = totalOut?.out ?? snap.counties.reduce((s, c) => s + c.customers_out, 0);
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

function normalizeThematic(raw: unknown, source: SourceDef, floor: number): Snapshot {
  const snap = emptySnapshot(source.utility);
  const data = readThematic(raw, 'Kubra thematic areas');
  const counties = new CountyTally();
  for (const item of data.file_data) {
    const name = item.desc.name ?? item.title ?? item.id?.split('|')[1] ?? '';
    const fips = matchCounty(source.states[0], name);
    const count = readCount(item.desc.cust_a, floor);
    if (!fips || !count) {
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
