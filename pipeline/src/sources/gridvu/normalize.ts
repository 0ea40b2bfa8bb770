// GridVu normalize: each unplanned outage is an incident placed in a county by its point (Michigan only); the feed
// has no headline, so customers_out is the incidents' sum, and customers_served is null.
import type { SourceDef } from '../registry.ts';
import { emptySnapshot, toIso, type Incident, type Snapshot } from '../snapshot.ts';
import { locatePoint } from '../../geo/match.ts';
import { findState } from '../../geo/states.ts';
import { parseLocal, zoneFor } from '../local-time.ts';
import { countOf, newIncident, remembered, placedCounties } from '../checks.ts';
import { readRaw, type GridVuOutage } from './schema.ts';

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const outages = readRaw(raw);
  const zone = zoneFor(source.states, source.options.time_zone);
  const states = new Set(source.states.map((s) => findState(s)?.fips));
  const snap = emptySnapshot(source.utility);
  const ids = new Set<string>();
  for (const o of outages) {
    // Planned work is announced ahead and is not an outage customers are suffering now.
    if (flagged(o.planned)) continue;
    const incident = incidentOf(o, ids, zone, states);
    snap.incidents.push(incident);
  }
  snap.counties = placedCounties(snap.incidents, snap.unmatched, 'point');
  snap.customers_out = snap.incidents.reduce((s, i) => s + i.customers_out, 0);
  snap.basis =
    snap.counties.length > 0 || snap.incidents.length === 0 || snap.incidents.some((i) => i.fips)
      ? 'county'
      : 'outage_only';
  return snap;
}

const flagged = (v: GridVuOutage['planned']): boolean =>
  v === true || (typeof v === 'string' && v.trim().toLowerCase() === 'true');

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

/** A coordinate sent as a number or as text; null when it is neither. */
function coord(v: GridVuOutage['lat']): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
}

function pointOf(o: GridVuOutage): { lat: number; lon: number } | null {
  const lat = coord(o.lat);
  const lon = coord(o.lon);
  if (lat === null || lon === null || Math.abs(lat) > 90 || Math.abs(lon) > 180 || (lat === 0 && lon === 0))
    return null;
  return { lat, lon };
}

/** GridVu's own id; without one, substation/feeder and point, which stay put while an outage lasts. */
function baseId(o: GridVuOutage, point: { lat: number; lon: number } | null): string {
  const own = o.idf === null || o.idf === undefined ? '' : String(o.idf).trim();
  if (own) return own;
  const where = point ? `${point.lat},${point.lon}` : '';
  const circuit = [o.subst?.trim(), o.fd?.trim()].filter(Boolean).join('/');
  return [circuit, where].filter(Boolean).join('@') || 'outage';
}

function incidentOf(o: GridVuOutage, ids: Set<string>, zone: string, states: Set<string | undefined>): Incident {
  const point = pointOf(o);
  const fips = point ? locatePoint(point.lon, point.lat) : null;
  const base = baseId(o, point);
  let id = base;
  for (let k = 2; ids.has(id); k += 1) id = `${base}#${k}`;
  ids.add(id);
  return newIncident({
    id,
    // BWL serves the Lansing area: a point outside the row's states is misplaced, not a county.
    fips: fips && states.has(fips.slice(0, 2)) ? fips : null,
    customers_out: countOf(o.custAffected) ?? 0,
    etr: etrOf(o.etr, zone),
    crew_status: null,
    cause: null,
    started_at: null,
    lat: point?.lat ?? null,
    lon: point?.lon ?? null,
    city: null,
  });
}
