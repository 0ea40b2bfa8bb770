// KUB normalize: each outage is an incident placed in a county by its point (Tennessee only); customers_out and
// customers_served are KUB's own headline totals (electricOutageInfo), the sum of the outages only without one.
import type { SourceDef } from '../registry.ts';
import { emptySnapshot, toIso, type Incident, type Snapshot } from '../snapshot.ts';
import { locatePoint } from '../../geo/match.ts';
import { findState } from '../../geo/states.ts';
import { parseLocal, zoneFor } from '../local-time.ts';
import { countOf, newIncident, remembered, placedCounties } from '../checks.ts';
import { readRaw, type KubOutage } from './schema.ts';

/** Knoxville keeps Eastern time; Tennessee is split between zones, and the state alone would say Central. */
const DEFAULT_ZONE = 'America/New_York';

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const { outages, info } = readRaw(raw);
  const zone = zoneFor(source.states, source.options.time_zone || DEFAULT_ZONE);
  const states = new Set(source.states.map((s) => findState(s)?.fips));
  const snap = emptySnapshot(source.utility);
  const ids = new Set<string>();
  for (const o of outages) {
    const incident = incidentOf(o, ids, zone, states);
    snap.incidents.push(incident);
  }
  snap.counties = placedCounties(snap.incidents, snap.unmatched, 'point');
  const headline = countOf(info?.electricCustomersWithoutPower);
  snap.customers_out = headline ?? snap.incidents.reduce((s, i) => s + i.customers_out, 0);
  snap.customers_served = countOf(info?.totalElectricCustomers);
  const placed = snap.counties.length > 0 || snap.incidents.length === 0 || snap.incidents.some((i) => i.fips);
  snap.basis = placed ? 'county' : headline !== null ? 'utility_total' : 'outage_only';
  return snap;
}

/** `YYYY-MM-DDThh:mm[:ss[.fff]]`, optionally with an offset (then it is an instant, not wall clock). */
const SHAPE = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

function readEtr(text: string, zone: string): string | null {
  const m = SHAPE.exec(text.trim());
  if (!m || +m[2] > 23 || +m[3] > 59 || +(m[4] ?? 0) > 59) return null;
  if (m[5]) return toIso(text.trim());
  // parseLocal reads the shape to the minute; the seconds are added back after the zone is applied.
  const minute = parseLocal(`${m[1]} ${m[2]}:${m[3]}`, zone, 0);
  // toIso drops placeholder years (0001-01-01) along with anything outside 1990–2099.
  return minute === null ? null : toIso(Date.parse(minute) + Number(m[4] ?? 0) * 1000);
}

/** Readers by zone, each remembering its texts across polls: the same outages come back poll after poll. */
const readers = new Map<string, (text: string) => string | null>();
export function etrOf(text: string | null | undefined, zone: string): string | null {
  if (!text) return null;
  let read = readers.get(zone);
  if (!read) readers.set(zone, (read = remembered((t: string) => readEtr(t, zone))));
  return read(text);
}

/** The ETR counts only when KUB says it gave one: without the flag the time field may hold a stale placeholder. */
const ertGiven = (v: KubOutage['ertProvided']): boolean =>
  v === true || (typeof v === 'string' && v.trim().toLowerCase() === 'true');

const usable = (lon: number | null | undefined, lat: number | null | undefined): boolean =>
  typeof lon === 'number' &&
  typeof lat === 'number' &&
  Math.abs(lon) <= 180 &&
  Math.abs(lat) <= 90 &&
  !(lon === 0 && lat === 0);

function incidentOf(o: KubOutage, ids: Set<string>, zone: string, states: Set<string | undefined>): Incident {
  const point = usable(o.x, o.y);
  const lon = point ? (o.x as number) : null;
  const lat = point ? (o.y as number) : null;
  const fips = lon !== null && lat !== null ? locatePoint(lon, lat) : null;
  const own = o.id === null || o.id === undefined ? '' : String(o.id).trim();
  // Without KUB's own id, the outage's point stays put while it lasts.
  const base = own || (point ? `${lat},${lon}` : 'outage');
  let id = base;
  for (let k = 2; ids.has(id); k += 1) id = `${base}#${k}`;
  ids.add(id);
  return newIncident({
    id,
    // KUB serves Knox County and its neighbours: a point outside the row's states is misplaced, not a county.
    fips: fips && states.has(fips.slice(0, 2)) ? fips : null,
    customers_out: countOf(o.customerCount) ?? 0,
    etr: ertGiven(o.ertProvided) ? etrOf(o.estimatedRestoreTime, zone) : null,
    crew_status: null,
    cause: null,
    started_at: null,
    lat,
    lon,
    city: null,
  });
}
