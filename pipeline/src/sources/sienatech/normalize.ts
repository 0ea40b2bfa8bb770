// SienaTech normalize: each <OMSCASES> row is an incident, counted in the county its average point lies in (row's
// states only); customers_out is their sum, since the answer has no headline. Times are Mountain wall clock.
import type { SourceDef } from '../source-def.ts';
import { toIso, type Incident, type Snapshot } from '../snapshot.ts';
import { parseLocal, zoneFor } from '../local-time.ts';
import { decimalOf, newIncident, remembered } from '../checks.ts';
import { PointFeed, pointAt } from '../point-feed.ts';
import { readRaw, type SienaCase } from './schema.ts';

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const cases = readRaw(raw);
  const zone = zoneFor(source.states, source.options.time_zone || 'America/Denver');
  const feed = new PointFeed(source);
  cases.forEach((c, i) => {
    // A case whose current count is blank still has the customers it opened with.
    const field = blank(c.CURCUST) ? 'INITCUST' : 'CURCUST';
    const out = feed.count(blank(c.CURCUST) ? c.INITCUST : c.CURCUST, field, `case ${c.SERIAL?.trim() || i}`);
    if (out !== null) feed.add(incidentOf(c, out, feed, zone));
  });
  return feed.finish('case');
}

const blank = (v: string | undefined): boolean => !v?.trim() || v.trim() === 'null';
const coord = (v: string | undefined): number | null => (blank(v) ? null : decimalOf((v as string).trim()));

/** The case's serial as sent, less the leading `*` the peer's adapter also strips. */
/** The case's serial (its own id, a leading `*` dropped), empty when it has none. */
const serialOf = (c: SienaCase): string => (c.SERIAL ?? '').trim().replace(/^\*/, '');

function incidentOf(c: SienaCase, out: number, feed: PointFeed, zone: string): Incident {
  const point = pointAt(coord(c.AVGLAT), coord(c.AVGLONG));
  return newIncident({
    id: feed.idOf(serialOf(c), point ? `${point.lat},${point.lon}` : 'case'),
    fips: feed.county(point),
    customers_out: out,
    etr: timeOf(c.RESTORETIM, zone),
    crew_status: null,
    cause: blank(c.DESC_CAUSE) ? null : (c.DESC_CAUSE as string).trim(),
    started_at: null,
    lat: point?.lat ?? null,
    lon: point?.lon ?? null,
    city: null,
  });
}

/** A .NET DataSet writes a DateTime column with its offset (`2026-06-29T09:00:00-06:00`); that text needs no zone. */
const ZONED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function readTime(text: string, zone: string): string | null {
  const s = text.trim();
  // toIso drops years outside 1990–2099 (placeholder dates).
  return ZONED.test(s) ? toIso(s) : toIso(parseLocal(s, zone, 0));
}

/** Readers by zone, each remembering its texts across polls: the same cases come back poll after poll. */
const readers = new Map<string, (text: string) => string | null>();

/** ISO UTC for RESTORETIM: `2026-06-29 09:00:00` as wall clock in `zone`; null for a blank or any other text. */
export function timeOf(text: string | undefined, zone: string): string | null {
  if (blank(text)) return null;
  let read = readers.get(zone);
  if (!read) readers.set(zone, (read = remembered((t: string) => readTime(t, zone))));
  return read(text as string);
}
