// Tampa Electric normalize: each hit is an incident placed in a county by its point (the row's states only);
// customers_out is the answer's customerCountSum aggregation. ETRs are Tampa wall clock unless they carry a zone.
import type { SourceDef } from '../registry.ts';
import { emptySnapshot, toIso, type Incident, type Snapshot } from '../snapshot.ts';
import { locatePoint } from '../../geo/match.ts';
import { findState } from '../../geo/states.ts';
import { parseLocal, zoneFor } from '../local-time.ts';
import { countOf, decimalOf, newIncident, remembered, placedCounties } from '../checks.ts';
import { readRaw, type TecoIncident } from './schema.ts';

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const answer = readRaw(raw);
  const zone = zoneFor(source.states, source.options.time_zone);
  const states = new Set(source.states.map((s) => findState(s)?.fips));
  const snap = emptySnapshot(source.utility);
  const ids = new Set<string>();
  for (const hit of answer.hits.hits) {
    const incident = incidentOf(hit._source, ids, zone, states);
    snap.incidents.push(incident);
  }
  snap.counties = placedCounties(snap.incidents, snap.unmatched, 'point');
  // The aggregation counts every hit in the box, also those past the returned page; the sum stands in without it.
  snap.customers_out =
    countOf(answer.aggregations?.customerCountSum?.value) ?? snap.incidents.reduce((s, i) => s + i.customers_out, 0);
  const total = answer.hits.total?.value;
  if (typeof total === 'number' && total > answer.hits.hits.length)
    snap.notice = `incident list cut: ${answer.hits.hits.length} of ${total} returned; customers_out is the aggregation's`;
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
  // toIso drops placeholder years (0001-01-01) along with anything outside 1990–2099.
  return minute === null ? null : toIso(Date.parse(minute) + Number(m[3] ?? 0) * 1000);
}

/** Readers by zone, each remembering its texts across polls: the same incidents come back poll after poll. */
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

const coord = (v: number | string | undefined): number | null =>
  typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? decimalOf(v.trim()) : null;

/** polygonCenter is [lon, lat] (GeoJSON order); a missing, out-of-range or 0,0 point is none. */
function pointOf(s: TecoIncident): [number, number] | null {
  const lon = coord(s.polygonCenter?.[0]);
  const lat = coord(s.polygonCenter?.[1]);
  if (lat === null || lon === null || !(Math.abs(lat) <= 90 && Math.abs(lon) <= 180) || (lat === 0 && lon === 0))
    return null;
  return [lon, lat];
}

function incidentOf(s: TecoIncident, ids: Set<string>, zone: string, states: Set<string | undefined>): Incident {
  const point = pointOf(s);
  const located = point ? locatePoint(point[0], point[1]) : null;
  // The box reaches past Florida only over the Gulf; a point in another state's county is not Tampa Electric's.
  const fips = located && states.has(located.slice(0, 2)) ? located : null;
  const base = textOf(s.incidentId) ?? (point ? `${point[1]},${point[0]}` : 'incident');
  let id = base;
  for (let k = 2; ids.has(id); k += 1) id = `${base}#${k}`;
  ids.add(id);
  return newIncident({
    id,
    fips,
    customers_out: countOf(s.customerCount) ?? 0,
    etr: etrOf(s.estimatedTimeOfRestoration, zone),
    crew_status: null,
    cause: textOf(s.reason),
    started_at: null,
    lat: point ? point[1] : null,
    lon: point ? point[0] : null,
    city: null,
  });
}
