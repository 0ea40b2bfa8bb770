// Idaho Power normalize: each outage is an incident placed in a county by its point (counties of the row's states
// only); customers_out is the answer's totalCustomersAffected. ETRs are Boise wall clock without a zone.
import type { SourceDef } from '../registry.ts';
import { emptySnapshot, toIso, type Incident, type Snapshot } from '../snapshot.ts';
import { locatePoint } from '../../geo/match.ts';
import { findState } from '../../geo/states.ts';
import { parseLocal, zoneFor } from '../local-time.ts';
import { countOf, decimalOf, newIncident, remembered, placedCounties } from '../checks.ts';
import { readRaw, type IdahoOutage } from './schema.ts';

/** Idaho Power's OMS runs in Boise; most of its Oregon customers (Malheur County) keep Mountain time too. */
const DEFAULT_ZONE = 'America/Boise';

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const answer = readRaw(raw).object;
  const zone = zoneFor(source.states, source.options.time_zone || DEFAULT_ZONE);
  const states = new Set(source.states.map((s) => findState(s)?.fips));
  const snap = emptySnapshot(source.utility);
  const ids = new Set<string>();
  for (const o of answer.outages) {
    if (o.isPlannedOutage === true) continue;
    const incident = incidentOf(o, ids, zone, states);
    snap.incidents.push(incident);
  }
  snap.counties = placedCounties(snap.incidents, snap.unmatched, 'point');
  // The headline is Idaho Power's own; the points' sum stands in only for an answer without one.
  snap.customers_out =
    countOf(answer.totalCustomersAffected) ?? snap.incidents.reduce((s, i) => s + i.customers_out, 0);
  snap.basis =
    snap.counties.length > 0 || snap.incidents.length === 0 || snap.incidents.some((i) => i.fips)
      ? 'county'
      : 'outage_only';
  return snap;
}

/** `YYYY-MM-DDTHH:MM[:SS][.fff]`, with a zone designator (an instant) or without one (wall clock). */
const SHAPE = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::(\d{2}))?(?:\.\d+)?(Z|[+-]\d{2}:\d{2})?$/;

function readEtr(text: string, zone: string): string | null {
  const t = text.trim();
  const m = SHAPE.exec(t);
  if (!m) return null;
  if (m[4]) return toIso(t);
  const minute = parseLocal(`${m[1]} ${m[2]}`, zone, 0);
  // toIso drops placeholder years (0001-01-01) along with anything outside 1990–2099.
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

function textOf(v: number | string | null | undefined): string | null {
  const t = v === null || v === undefined ? '' : String(v).trim();
  return t ? t : null;
}

const coord = (v: number | string | null | undefined): number | null =>
  typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? decimalOf(v.trim()) : null;

/** The point's county when it lies in one of the row's states (Idaho Power: ID and OR), else null. */
function placeOf(lat: number | null, lon: number | null, states: Set<string | undefined>): string | null {
  if (lat === null || lon === null) return null;
  const fips = locatePoint(lon, lat);
  return fips && states.has(fips.slice(0, 2)) ? fips : null;
}

function firstCity(o: IdahoOutage): string | null {
  for (const c of o.outageCity ?? []) {
    const name = textOf(c.outageCityName);
    if (name) return name;
  }
  return null;
}

function incidentOf(o: IdahoOutage, ids: Set<string>, zone: string, states: Set<string | undefined>): Incident {
  let lat = coord(o.latitude);
  let lon = coord(o.longitude);
  if (lat === null || lon === null || !(Math.abs(lat) <= 90 && Math.abs(lon) <= 180) || (lat === 0 && lon === 0))
    lat = lon = null;
  // The sample has no outage id: the feeder and the point stay put while an outage lasts.
  const point = lat === null ? null : `${lat},${lon}`;
  const base =
    textOf(o.omsOutageId) ?? ([textOf(o.omsFeederName), point].filter((p) => p !== null).join('@') || 'outage');
  let id = base;
  for (let k = 2; ids.has(id); k += 1) id = `${base}#${k}`;
  ids.add(id);
  return newIncident({
    id,
    fips: placeOf(lat, lon, states),
    customers_out: countOf(o.omsCustomerCount) ?? 0,
    etr: etrOf(o.omsEstimatedOutageRestorationDate, zone),
    crew_status: textOf(o.omsStatusDescription),
    cause: textOf(o.probableCause),
    started_at: null,
    lat,
    lon,
    city: firstCity(o),
  });
}
