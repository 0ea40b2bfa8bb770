// NorthWestern Energy normalize: each row of the `d` list is an outage point, placed in a county of the row's states
// by its point; the feed has no headline, so customers_out is the points' sum. ETRs are wall clock without a zone.
import type { SourceDef } from '../source-def.ts';
import { toIso, type Incident, type Snapshot } from '../snapshot.ts';
import { parseLocal, zoneFor } from '../local-time.ts';
import { countOf, decimalOf, isObj, newIncident, remembered, remembered3 } from '../checks.ts';
import { PointFeed, pointAt } from '../point-feed.ts';
import { innerOf, readRaw, type NweOutage } from './schema.ts';

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  // fetch returns the list inside `d`; the answer as saved from the browser (`{d: "…"}`) reads the same.
  const outages = readRaw(isObj(raw) && 'd' in raw ? innerOf(raw) : raw);
  // One zone for the whole answer: the rows carry no state or zone (README: South Dakota).
  const zone = zoneFor(source.states, source.options.time_zone);
  const feed = new PointFeed(source);
  for (const o of outages) feed.add(incidentOf(o, feed, zone));
  // No headline in the feed: every point counts, placed or not.
  return feed.finish('point');
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

/** The feed has no outage ids: the area and the point stay put while an outage lasts. Remembered across polls. */
const idOf = remembered3((area: string | null, lat: number | null, lon: number | null) =>
  lat === null ? (area ?? 'outage') : `${area === null ? '' : `${area}@`}${lat},${lon}`,
);

function incidentOf(o: NweOutage, feed: PointFeed, zone: string): Incident {
  const point = pointAt(coord(o.LATITUDE), coord(o.LONGITUDE));
  const lat = point?.lat ?? null;
  const lon = point?.lon ?? null;
  const city = textOf(o.AREA);
  return newIncident({
    id: feed.id(idOf(city, lat, lon)),
    fips: feed.county(point),
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
