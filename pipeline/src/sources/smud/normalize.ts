// SMUD normalize: the row titled SMUD is the utility's customers out; every other row with customers out is a
// community, an area placed in a county by its centre point. Communities are not outages: there are no incidents.
import type { SourceDef } from '../source-def.ts';
import { addCounty, emptySnapshot, type AreaCount, type CountyCount, type Snapshot } from '../snapshot.ts';
import { locatePoint } from '../../geo/match.ts';
import { findState } from '../../geo/states.ts';
import { decimalOf, sortedCounties } from '../checks.ts';
import { headlineCount, recordCount } from '../unreadable.ts';
import { readRaw, type SmudRow } from './schema.ts';

/** The system row's title; the peer's adapter matches it trimmed and in any case. */
const SYSTEM = 'SMUD';

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const rows = readRaw(raw).returndata;
  const snap = emptySnapshot(source.utility);
  const states = new Set(source.states.map((s) => findState(s)?.fips));
  const counties = new Map<string, CountyCount>();
  const paths = new Set<string>();
  const lost = { n: 0, out: 0 };
  let system: SmudRow | null = null;
  for (const row of rows) {
    const title = row.Title.trim();
    if (!system && title.toUpperCase() === SYSTEM) {
      system = row;
      continue;
    }
    const out = recordCount(row.CustomersImpacted, 'CustomersImpacted', title, snap.unreadable);
    if (!out) continue;
    const fips = placeOf(row, states);
    snap.areas.push(areaOf(title, uniquePath(title, paths), fips, out));
    if (fips) addCounty(counties, fips, out, null);
    else {
      lost.n += 1;
      lost.out += out;
    }
  }
  if (lost.n) snap.unmatched.unshift(`${lost.n} community(ies) not placed in a county (${lost.out} customers out)`);
  snap.counties = sortedCounties(counties);
  // SMUD's own total (its system row must be readable); the communities' sum stands in only for an answer without
  // one, and then only when every community could be read.
  const headline = system ? headlineCount(system.CustomersImpacted, 'CustomersImpacted', 'SMUD system row') : null;
  snap.customers_out = headline ?? snap.areas.reduce((s, a) => s + a.customers_out, 0);
  // Every community out lies in a county by its point, so the county sums are complete; only communities that all
  // miss a county leave a bare total.
  snap.basis = snap.areas.length === 0 || counties.size > 0 ? 'county' : 'utility_total';
  return snap;
}

const coord = (v: number | string | null | undefined): number | null =>
  typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? decimalOf(v.trim()) : null;

/** The county of the row's centre point when it lies in one of the row's states (SMUD: CA), else null. */
function placeOf(row: SmudRow, states: Set<string | undefined>): string | null {
  const lat = coord(row.GeocenterLat);
  const lon = coord(row.GeocenterLong);
  if (lat === null || lon === null || !(Math.abs(lat) <= 90 && Math.abs(lon) <= 180) || (lat === 0 && lon === 0))
    return null;
  const fips = locatePoint(lon, lat);
  return fips && states.has(fips.slice(0, 2)) ? fips : null;
}

/**
 * The area's path in SMUD's own tree, which is flat (no county level): the title alone, so the area's identity does
 * not move with its centre point. A title met twice gets `#2`, `#3`… so two rows never share one identity.
 */
function uniquePath(title: string, paths: Set<string>): string[] {
  let step = title;
  for (let k = 2; paths.has(step); k += 1) step = `${title} #${k}`;
  paths.add(step);
  return [step];
}

function areaOf(name: string, path: string[], fips: string | null, out: number): AreaCount {
  return {
    fips,
    name,
    path,
    customers_out: out,
    out_display: String(out),
    out_lower: out,
    out_upper: out,
    masked: false,
    customers_served: null,
    etr: null,
    bbox: null,
  };
}
