// Anaheim normalize: meter points grouped by incident ID; each group is one incident whose customers are its meters,
// placed in a county by its first point (the row's states only). The feed has no headline: customers_out is the sum.
import type { SourceDef } from '../registry.ts';
import { addCounty, emptySnapshot, toIso, type CountyCount, type Snapshot } from '../snapshot.ts';
import { locatePoint } from '../../geo/match.ts';
import { findState } from '../../geo/states.ts';
import { parseLocal, zoneFor } from '../local-time.ts';
import { newIncident, sortedCounties } from '../checks.ts';
import { readRaw, type AnaheimFeature } from './schema.ts';

/** One incident's meters as met in the answer: the first point that has one and the first ETR text given. */
interface Group {
  meters: number;
  lon: number | null;
  lat: number | null;
  etr: string | null;
}

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const features = readRaw(raw);
  const zone = zoneFor(source.states, source.options.time_zone);
  const states = new Set(source.states.map((s) => findState(s)?.fips));
  const { groups, noId } = grouped(features);
  const snap = emptySnapshot(source.utility);
  const counties = new Map<string, CountyCount>();
  const lost = { n: 0, out: 0 };
  for (const [id, g] of groups) {
    const fips = placeOf(g, states);
    snap.incidents.push(
      newIncident({
        id,
        fips,
        customers_out: g.meters,
        etr: g.etr === null ? null : etrOf(g.etr, zone),
        crew_status: null,
        cause: null,
        started_at: null,
        lat: g.lat,
        lon: g.lon,
        city: null,
      }),
    );
    if (fips) addCounty(counties, fips, g.meters, null);
    else {
      lost.n += 1;
      lost.out += g.meters;
    }
  }
  if (lost.n) snap.unmatched.push(`${lost.n} incident(s) not placed in a county (${lost.out} customers out)`);
  if (noId) snap.unmatched.push(`${noId} meter point(s) without an incident ID (not counted)`);
  snap.counties = sortedCounties(counties);
  snap.customers_out = snap.incidents.reduce((s, i) => s + i.customers_out, 0);
  snap.basis =
    counties.size > 0 || snap.incidents.length === 0 || snap.incidents.some((i) => i.fips) ? 'county' : 'outage_only';
  return snap;
}

/** Groups the meter points by ID in the answer's order; points without an ID belong to no incident. */
function grouped(features: AnaheimFeature[]): { groups: Map<string, Group>; noId: number } {
  const groups = new Map<string, Group>();
  let noId = 0;
  for (const f of features) {
    const p = f.properties;
    const id = p?.ID === null || p?.ID === undefined ? '' : String(p.ID).trim();
    if (!id) {
      noId += 1;
      continue;
    }
    let g = groups.get(id);
    if (!g) groups.set(id, (g = { meters: 0, lon: null, lat: null, etr: null }));
    g.meters += 1;
    if (g.lat === null) pointInto(g, f.geometry?.coordinates as number[] | undefined);
    if (g.etr === null && p?.ETR?.trim()) g.etr = p.ETR.trim();
  }
  return { groups, noId };
}

/** Keeps a usable [lon, lat] (in range, not Null Island) as the group's point. */
function pointInto(g: Group, c: number[] | null | undefined): void {
  if (!c) return;
  const [lon, lat] = c;
  if (!(Math.abs(lat) <= 90 && Math.abs(lon) <= 180) || (lat === 0 && lon === 0)) return;
  g.lon = lon;
  g.lat = lat;
}

/** The point's county when it lies in one of the row's states (CA), else null. */
function placeOf(g: Group, states: Set<string | undefined>): string | null {
  if (g.lat === null || g.lon === null) return null;
  const fips = locatePoint(g.lon, g.lat);
  return fips && states.has(fips.slice(0, 2)) ? fips : null;
}

/** An ETR with an offset or Z is an instant; a wall-clock time with its date (`2026-06-29T13:00:00`, fractions
 * dropped) is read in the row's zone (Pacific). Any other text is no time: its zone and year would be guesses. */
const ZONED = /^\d{4}-\d{2}-\d{2}T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})$/i;
const LOCAL = /^(\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2})?)(?:\.\d+)?$/;

export function etrOf(text: string, zone: string): string | null {
  if (ZONED.test(text)) return toIso(text);
  const m = LOCAL.exec(text);
  // The text carries its year, so parseLocal's reference date (used only to pick a missing year) does not matter.
  return m ? parseLocal(m[1], zone, 0) : null;
}
