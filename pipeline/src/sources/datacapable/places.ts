// Where a DataCapable event is: its point, else the AREA_COUNTY property; and the county rows of the count answer.
import { matchCounty } from '../../geo/match.ts';
import type { CountyAtlas } from '../../geo/counties.ts';
import { toCount } from '../snapshot.ts';
import { recordCount } from '../unreadable.ts';
import type { CountRow, DataCapableEvent } from './schema.ts';

export interface Place {
  fips: string | null;
  lat: number | null;
  lon: number | null;
  /** the event said where it is (a point or a county name), even if we could not place it */
  located: boolean;
  /** the county name(s) we could not match, for `unmatched` */
  unmatchedName: string | null;
}

/**
 * Point → county, remembered across polls: the same outages come back poll after poll, and one point-in-polygon
 * look-up costs about 0.2 ms (a 5,000-event storm list would take a second). Cleared when it grows large.
 */
const pointMemo = new Map<string, string | null>();
function locate(atlas: CountyAtlas, lon: number, lat: number): string | null {
  const key = `${lon},${lat}`;
  let fips = pointMemo.get(key);
  if (fips === undefined) {
    if (pointMemo.size >= 100_000) pointMemo.clear();
    fips = atlas.locate(lon, lat) ?? null;
    pointMemo.set(key, fips);
  }
  return fips;
}

/** County name → FIPS in the first of `states` that has it; names repeat on every event, so they are memoised too. */
const nameMemo = new Map<string, string | null>();
function matchIn(states: string[], name: string): string | null {
  const key = `${states.join(',')}|${name}`;
  let fips = nameMemo.get(key);
  if (fips === undefined) {
    if (nameMemo.size >= 10_000) nameMemo.clear();
    fips = null;
    for (const s of states) fips ??= matchCounty(s, name) ?? null;
    nameMemo.set(key, fips);
  }
  return fips;
}

/** AREA_COUNTY values, upper-case names such as ["FORT BEND"] (a string in some answers). */
function areaCounties(e: DataCapableEvent): string[] {
  for (const p of e.additionalProperties ?? []) {
    if (p.property !== 'AREA_COUNTY') continue;
    const v = p.value;
    if (typeof v === 'string') return v.trim() ? [v] : [];
    if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string' && x.trim() !== '');
  }
  return [];
}

/** The event says where it is (a point or an AREA_COUNTY name), without the cost of placing it. */
export function saysWhere(e: DataCapableEvent): boolean {
  return (typeof e.latitude === 'number' && typeof e.longitude === 'number') || areaCounties(e).length > 0;
}

export function placeEvent(e: DataCapableEvent, states: string[], atlas: CountyAtlas): Place {
  const lat = e.latitude ?? null;
  const lon = e.longitude ?? null;
  const point =
    lat !== null && lon !== null && Math.abs(lat) <= 90 && Math.abs(lon) <= 180 && !(lat === 0 && lon === 0);
  const place: Place = {
    fips: null,
    lat: point ? lat : null,
    lon: point ? lon : null,
    located: point,
    unmatchedName: null,
  };
  if (point) place.fips = locate(atlas, lon, lat);
  if (place.fips) return place;
  const names = areaCounties(e);
  if (names.length === 0) return place;
  place.located = true;
  // An event listed in several counties cannot be split without guessing: it stays unplaced.
  const fips = names.length === 1 ? matchIn(states, names[0]) : null;
  if (fips) place.fips = fips;
  else place.unmatchedName = names.join(' / ');
  return place;
}

export interface CountyRow {
  fips: string;
  /** customers out; null when it is not read (no `notes`) or cannot be read (noted) */
  out: number | null;
  served: number | null;
}

/**
 * The COUNTY rows of the count answer, matched to FIPS; names that match no county go to `unmatched`. With `notes`,
 * the rows' customers out are read, one that cannot be read noted there (recordCount) and left null, never 0.
 */
export function countyRows(
  rows: CountRow[],
  states: string[],
  unmatched: string[],
  notes: string[] | null,
): { rows: CountyRow[]; served: number | null } {
  const out: CountyRow[] = [];
  let served: number | null = 0;
  let seen = 0;
  for (const r of rows) {
    if (r.type && r.type.toUpperCase() !== 'COUNTY') continue;
    seen += 1;
    const s = toCount(r.customersServed);
    served = served === null || s === null ? null : served + s;
    const fips = matchIn(states, r.name);
    if (!fips) unmatched.push(r.name);
    else {
      const n = notes ? recordCount(r.customersAffected, 'customersAffected', `county ${r.name}`, notes) : null;
      out.push({ fips, out: n, served: s });
    }
  }
  return { rows: out, served: seen > 0 ? served : null };
}
