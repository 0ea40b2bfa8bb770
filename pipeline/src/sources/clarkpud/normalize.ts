// Clark PUD normalize: each open outage is an incident placed in a county by its point (Washington only) and summed
// per county; customers out is the feed's own total. The feed gives no customers served.
import type { SourceDef } from '../registry.ts';
import { addCounty, emptySnapshot, toIso, type CountyCount, type Incident, type Snapshot } from '../snapshot.ts';
import { locatePoint } from '../../geo/match.ts';
import { findState } from '../../geo/states.ts';
import { parseLocal, zoneFor } from '../local-time.ts';
import { countOf, newIncident, remembered, sortedCounties } from '../checks.ts';
import { readRaw, type ClarkOutage } from './schema.ts';

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const data = readRaw(raw);
  const zone = zoneFor(source.states, source.options.time_zone);
  const states = new Set(source.states.map((s) => findState(s)?.fips));
  const snap = emptySnapshot(source.utility);
  const counties = new Map<string, CountyCount>();
  const lost = { n: 0, out: 0 };
  for (const o of data.openOutages) {
    const incident = incidentOf(o, zone, states);
    snap.incidents.push(incident);
    if (incident.fips) addCounty(counties, incident.fips, incident.customers_out, null);
    else if (incident.customers_out > 0) {
      lost.n += 1;
      lost.out += incident.customers_out;
    }
  }
  if (lost.n) snap.unmatched.push(`${lost.n} outage(s) not placed in a county (${lost.out} customers out)`);
  snap.counties = sortedCounties(counties);
  // The feed's own headline; the outages' sum stands in only when it is missing or unreadable.
  snap.customers_out =
    countOf(data.totalAffectedCustomerCount) ?? snap.incidents.reduce((s, i) => s + i.customers_out, 0);
  // An empty list says nothing against county grade; outages that all miss a county do.
  snap.basis = counties.size > 0 || snap.incidents.length === 0 ? 'county' : 'outage_only';
  return snap;
}

/** ISO text with an offset or Z as written; without one it is wall-clock time in the row's zone (Pacific for WA).
 * Such text carries its year, so parseLocal needs no reference date. */
const OFFSET = /(?:Z|[+-]\d{2}:?\d{2})$/i;
const readers = new Map<string, (text: string) => string | null>();

/** The ETR as ISO UTC, or null. Remembered per zone: the same outages come back poll after poll. */
export function etrOf(v: number | string | null | undefined, zone: string): string | null {
  if (typeof v === 'number') return toIso(v);
  const text = v?.trim();
  if (!text) return null;
  let read = readers.get(zone);
  if (!read)
    readers.set(zone, (read = remembered((t: string) => (OFFSET.test(t) ? toIso(t) : parseLocal(t, zone, 0)))));
  return read(text);
}

function incidentOf(o: ClarkOutage, zone: string, states: Set<string | undefined>): Incident {
  const lat = o.lat ?? null;
  const lon = o.lng ?? null;
  const point =
    lat !== null && lon !== null && Math.abs(lat) <= 90 && Math.abs(lon) <= 180 && !(lat === 0 && lon === 0);
  const fips = point ? locatePoint(lon, lat) : null;
  return newIncident({
    id: String(o.key),
    // A point outside the row's states (a stray or swapped coordinate) is no place in Clark PUD's territory.
    fips: fips && states.has(fips.slice(0, 2)) ? fips : null,
    customers_out: countOf(o.affectedCustomerCount) ?? 0,
    etr: etrOf(o.estimatedRestoration, zone),
    crew_status: null,
    cause: null,
    started_at: null,
    lat: point ? lat : null,
    lon: point ? lon : null,
    city: null,
  });
}
