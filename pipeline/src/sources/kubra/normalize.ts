// Kubra normalize: walks the whole area tree. States → counties → municipalities; masked counts kept honest.
// Masking: `cust_a.masked: true` or the sentinel 999999 means "fewer than the mask floor" (option `mask_floor`,
// default 5). Such an area shows `<5`, counts as 1 (its lower bound) in sums, and carries out_upper = floor − 1.
import type { SourceDef } from '../registry.ts';
import { emptySnapshot, toIso, type AreaCount, type Incident, type Snapshot } from '../snapshot.ts';
import { loadAtlas } from '../../geo/counties.ts';
import type { ClusterRecord } from './clusters.ts';
import { matchCounty } from '../../geo/match.ts';
import { findState } from '../../geo/states.ts';
import { CountyTally, servedSum, newIncident } from '../checks.ts';
import { readReport, readThematic, type KubraArea, type KubraCountValue } from './schema.ts';

export const MASK_SENTINEL = 999999;

export interface KubraCount {
  out: number;
  masked: boolean;
  display: string;
  upper: number | null;
}

export function readCount(v: KubraCountValue | undefined, floor: number): KubraCount | null {
  if (v === undefined || v === null) return null;
  const val = typeof v === 'number' ? v : v.val;
  const masked = (typeof v === 'object' && v.masked === true) || val === MASK_SENTINEL;
  if (masked) return { out: 1, masked: true, display: `<${floor}`, upper: floor - 1 };
  if (typeof val !== 'number' || !Number.isFinite(val) || val < 0) return null;
  return { out: Math.round(val), masked: false, display: String(Math.round(val)), upper: Math.round(val) };
}

const nameOf = (a: KubraArea): string => (a.name ?? a.area_name ?? a.key ?? a.areaId ?? '').trim();

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const floor = typeof source.options.mask_floor === 'number' ? source.options.mask_floor : 5;
  const snap =
    raw && typeof raw === 'object' && 'thematic' in raw
      ? normalizeThematic((raw as { thematic: unknown }).thematic, source, floor)
      : normalizeReport(raw, source, floor);
  const clusters = (raw as { clusters?: ClusterRecord[] } | null)?.clusters;
  if (clusters) snap.incidents = clusters.map(incidentOf).sort((a, b) => a.id.localeCompare(b.id));
  return snap;
}

/** A cluster-layer `cause` or `crew_status`: text, or localised text ({"EN-US": …}) read in English when it has it. */
function text(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (!v || typeof v !== 'object') return null;
  const byLang = v as Record<string, string>;
  for (const k in byLang) if (/^en/i.test(k)) return byLang[k];
  for (const k in byLang) return byLang[k];
  return null;
}

/** A cluster-layer record as an incident. */
function incidentOf(r: ClusterRecord): Incident {
  const count = r.desc.cust_a?.val;
  return newIncident({
    id: String(r.desc.inc_id ?? r.id ?? `${r.lat},${r.lon}`),
    fips: r.lat !== null && r.lon !== null ? (loadAtlas().locate(r.lon, r.lat) ?? null) : null,
    customers_out: typeof count === 'number' && count >= 0 && count !== MASK_SENTINEL ? Math.round(count) : 1,
    etr: toIso(r.desc.etr),
    crew_status: text(r.desc.crew_status),
    cause: text(r.desc.cause),
    started_at: toIso(r.desc.start_time),
    lat: r.lat,
    lon: r.lon,
    city: null,
  });
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
