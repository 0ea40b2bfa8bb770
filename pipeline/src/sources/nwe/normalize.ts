// NorthWestern Energy normalize: each row of the `d` list is an outage point, placed in a county of the row's states
// by its point; the feed has no headline, so customers_out is the points' sum. ETRs are wall clock without a zone.
import type { SourceDef } from '../registry.ts';
import { emptySnapshot, toIso, type Incident, type Snapshot } from '../snapshot.ts';
import { locatePoint } from '../../geo/match.ts';
import { findState } from '../../geo/states.ts';
import { parseLocal, zoneFor } from '../local-time.ts';
import { countOf, decimalOf, isObj, newIncident, remembered, remembered3, placedCounties } from '../checks.ts';
import { innerOf, readRaw, type NweOutage } from './schema.ts';

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  // fetch returns the list inside `d`; the answer as saved from the browser (`{d: "…"}`) reads the same.
  const outages = readRaw(isObj(raw) && 'd' in raw ? innerOf(raw) : raw);
  // One zone for the whole answer: the rows carry no state or zone (README: South Dakota).
  const zone = zoneFor(source.states, source.options.time_zone);
  const states = new Set(source.states.map((s) => findState(s)?.fips));
  const snap = emptySnapshot(source.utility);
  const ids = new Set<string>();
  for (const o of outages) {
    const incident = incidentOf(o, ids, zone, states);
    snap.incidents.push(incident);
  }
  snap.counties = placedCounties(snap.incidents, snap.unmatched, 'point');
  // No headline in the feed: every point counts, placed or not.
  snap.customers_out = snap.incidents.reduce((s, i) => s + i.customers_out, 0);
  snap.basis =
    snap.counties.length > 0 || snap.incidents.length === 0 || snap.incidents.some((i) => i.fips)
      ? 'county'
      : 'outage_only';
  return snap;
}

/** `YYYY-MM-DDTHH:MM[:SS][.fff]`, with a zone designator (an instant) or without one (wall clock). */
const SHAPE = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::(\d{2}))?(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/;

function readEtr(text: string, zone: string): string | null {
  const t = text.trim();
  const m = SHAPE.exec(t);
  if (!m) return null;
  if (m[4]) return toIso(t);
  const minute = parseLocal(`${m[1]} ${m[2]}`, zone, 0);
  // toIso refuses placeholder years (a .NET 0001-01-01) with anything else outside 1990–2099.
  return minute === null ? null : toIso(Date.parse(minute) + Number(m[3] ?? 0) * 1000);
}

/** Readers by zone, each remembering its texts across polls: the same outages come back poll after poll. */
const readers = new Map<string, (text: string) => string | null>();
export function etrOf(text: string | null | undefined, zone: string): string | null {
  if (!text) return null;
  let read = readers.get(zone);
  if (!read) readers.set(zone, (read = remembered((t: string) => readEtr(t, zone))));
  return read(text);
}

function textOf(v: string | null | undefined): string | null {
  const t = v?.trim();
  return t ? t : null;
}

const coord = (v: number | string | null | undefined): number | null =>
  typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? decimalOf(v.trim()) : null;

/** The point's county when it lies in one of the row's states, else null (a point beyond them is not guessed). */
function placeOf(lat: number | null, lon: number | null, states: Set<string | undefined>): string | null {
  if (lat === null || lon === null) return null;
  const fips = locatePoint(lon, lat);
  return fips && states.has(fips.slice(0, 2)) ? fips : null;
}

/** The feed has no outage ids: the area and the point stay put while an outage lasts. Remembered across polls. */
const idOf = remembered3((area: string | null, lat: number | null, lon: number | null) =>
  lat === null ? (area ?? 'outage') : `${area === null ? '' : `${area}@`}${lat},${lon}`,
);

function incidentOf(o: NweOutage, ids: Set<string>, zone: string, states: Set<string | undefined>): Incident {
  let lat = coord(o.LATITUDE);
  let lon = coord(o.LONGITUDE);
  if (lat === null || lon === null || !(Math.abs(lat) <= 90 && Math.abs(lon) <= 180) || (lat === 0 && lon === 0))
    lat = lon = null;
  const city = textOf(o.AREA);
  const base = idOf(city, lat, lon);
  let id = base;
  for (let k = 2; ids.has(id); k += 1) id = `${base}#${k}`;
  ids.add(id);
  return newIncident({
    id,
    fips: placeOf(lat, lon, states),
    customers_out: countOf(o.NUM_CUST) ?? 0,
    etr: etrOf(o.ETR, zone),
    crew_status: null,
    cause: null,
    started_at: null,
    lat,
    lon,
    city,
  });
}
