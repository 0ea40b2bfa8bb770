// GridVu normalize: each outage is an incident placed in a county by its point (Michigan only); the feed has no
// headline, so customers_out is the incidents' sum, and customers_served is null. Planned work (`planned`) counts,
// flagged, and planned_out is its sum; the feed gives no start time, so planned work not yet started cannot be told. An outage whose count cannot
// be read is never 0: it is noted in `unreadable` and the poll fails naming the field (PointFeed.finish).
import type { SourceDef } from '../source-def.ts';
import { toIso, type Incident, type Snapshot } from '../snapshot.ts';
import { parseLocal, zoneFor } from '../local-time.ts';
import { newIncident, remembered } from '../checks.ts';
import { type Point, PointFeed, pointAt } from '../point-feed.ts';
import { readRaw, type GridVuOutage } from './schema.ts';

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const outages = readRaw(raw);
  const zone = zoneFor(source.states, source.options.time_zone);
  const feed = new PointFeed(source);
  let plannedOut = 0;
  outages.forEach((o, i) => {
    const own = o.idf === null || o.idf === undefined ? '' : String(o.idf).trim();
    const out = feed.count(o.custAffected, 'custAffected', `outage ${own || i}`);
    if (out === null) return;
    // Planned work in progress leaves customers without power: counted, as the utility's map counts it, and flagged.
    if (flagged(o.planned)) plannedOut += out;
    feed.add(incidentOf(o, out, feed, zone));
  });
  const snap = feed.finish('point');
  snap.planned_out = plannedOut;
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

/** Without GridVu's own id (`idf`), substation/feeder and point, which stay put while an outage lasts. */
function madeId(o: GridVuOutage, point: Point | null): string {
  const where = point ? `${point.lat},${point.lon}` : '';
  const circuit = [o.subst?.trim(), o.fd?.trim()].filter(Boolean).join('/');
  return [circuit, where].filter(Boolean).join('@') || 'outage';
}

function incidentOf(o: GridVuOutage, out: number, feed: PointFeed, zone: string): Incident {
  const point = pointAt(coord(o.lat), coord(o.lon));
  return newIncident({
    id: feed.idOf(o.idf, madeId(o, point)),
    // BWL serves the Lansing area: a point outside the row's states is misplaced, not a county.
    fips: feed.county(point),
    customers_out: out,
    etr: etrOf(o.etr, zone),
    crew_status: null,
    cause: null,
    started_at: null,
    lat: point?.lat ?? null,
    lon: point?.lon ?? null,
    city: null,
    planned: flagged(o.planned),
  });
}
