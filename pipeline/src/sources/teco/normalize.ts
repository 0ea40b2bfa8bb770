// Tampa Electric normalize: each hit is an incident placed in a county by its point (the row's states only);
// customers_out is the answer's customerCountSum aggregation. ETRs are Tampa wall clock unless they carry a zone.
import type { SourceDef } from '../source-def.ts';
import { toIso, type Incident, type Snapshot } from '../snapshot.ts';
import { parseLocal, zoneFor } from '../local-time.ts';
import { decimalOf, newIncident, remembered } from '../checks.ts';
import { optHeadlineCount } from '../unreadable.ts';
import { PointFeed, pointAt } from '../point-feed.ts';
import { readRaw, type TecoIncident } from './schema.ts';

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const answer = readRaw(raw);
  const zone = zoneFor(source.states, source.options.time_zone);
  const feed = new PointFeed(source);
  answer.hits.hits.forEach((hit, i) => {
    const out = feed.count(hit._source.customerCount, 'customerCount', `incident ${i}`);
    if (out !== null) feed.add(incidentOf(hit._source, out, feed, zone));
  });
  // The aggregation counts every hit in the box, also those past the returned page; the sum stands in without it.
  const snap = feed.finish(
    'point',
    optHeadlineCount(
      answer.aggregations?.customerCountSum?.value,
      'aggregations.customerCountSum.value',
      'TECO search answer',
    ),
  );
  const total = answer.hits.total?.value;
  if (typeof total === 'number' && total > answer.hits.hits.length)
    snap.notice = `incident list cut: ${answer.hits.hits.length} of ${total} returned; customers_out is the aggregation's`;
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

function incidentOf(s: TecoIncident, out: number, feed: PointFeed, zone: string): Incident {
  // polygonCenter is [lon, lat] (GeoJSON order).
  const point = pointAt(coord(s.polygonCenter?.[1]), coord(s.polygonCenter?.[0]));
  return newIncident({
    id: feed.idOf(textOf(s.incidentId), point ? `${point.lat},${point.lon}` : 'incident'),
    // The box reaches past Florida only over the Gulf; a point in another state's county is not Tampa Electric's.
    fips: feed.county(point),
    customers_out: out,
    etr: etrOf(s.estimatedTimeOfRestoration, zone),
    crew_status: null,
    cause: textOf(s.reason),
    started_at: null,
    lat: point?.lat ?? null,
    lon: point?.lon ?? null,
    city: null,
  });
}
