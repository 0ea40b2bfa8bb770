// AES normalize: each marker is an incident, counted in the county Ohio's marker names (COUNTY) or else the county
// its point lies in (row's states only); customers_out is the feed's headline. Times are local wall clock.
import type { SourceDef } from '../source-def.ts';
import { toIso, type Incident, type Snapshot } from '../snapshot.ts';
import { matchCounty } from '../../geo/match.ts';
import { parseLocal, zoneFor } from '../local-time.ts';
import { decimalOf, newIncident, remembered } from '../checks.ts';
import { optHeadlineCount } from '../unreadable.ts';
import { PointFeed, pointAt } from '../point-feed.ts';
import { readRaw, type AesFormat, type IndianaMarker, type OhioMarker } from './schema.ts';

/** Where each OMS runs: Indianapolis keeps Eastern time with DST (as New York does) since 2006. */
const ZONES: Record<AesFormat, string> = { indiana: 'America/Indiana/Indianapolis', ohio: 'America/New_York' };

/** A marker's fields, whichever form it came in. */
interface Reading {
  id: string | undefined;
  out: string | undefined;
  lat: string | undefined;
  lon: string | undefined;
  etr: string | undefined;
  start: string | undefined;
  county: string | undefined;
}

/** What placing a poll's markers shares: the row's states, the poll's point feed, the names no county matched. */
interface Context {
  zone: string;
  states: string[];
  feed: PointFeed;
  unmatched: Set<string>;
}

const fromIndiana = (m: IndianaMarker): Reading => ({
  id: m.IncidentId,
  out: m.CustAffected,
  lat: m.Lat,
  lon: m.Long,
  etr: m.Etr,
  start: undefined,
  county: undefined,
});
const fromOhio = (m: OhioMarker): Reading => ({
  id: m.INCIDENTID,
  out: m.TOTALCUSTS,
  lat: m.LAT,
  lon: m.LNG,
  etr: m.EstimateTime,
  start: m.OutageTime,
  county: m.COUNTY,
});

/** Only `OUTAGE` has been seen; a type that says planned is taken as planned work (not "unplanned"). */
const PLANNED = /(^|[^a-z])planned/i;

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const answer = readRaw(raw);
  const ctx: Context = {
    zone: zoneFor(source.states, source.options.time_zone || ZONES[answer.format]),
    states: source.states,
    feed: new PointFeed(source),
    unmatched: new Set(),
  };
  const indiana = answer.format === 'indiana';
  const readings = indiana ? answer.markers.map(fromIndiana) : answer.markers.map(fromOhio);
  const planned = indiana ? answer.markers.map((m) => PLANNED.test(m.outageType ?? '')) : [];
  const field = indiana ? 'CustAffected' : 'TOTALCUSTS';
  let plannedOut = 0;
  readings.forEach((r, i) => {
    const out = ctx.feed.count(r.out, field, `marker ${r.id ?? i}`);
    if (out === null) return;
    // Planned work in progress counts, as the file's own total counts it, and is flagged.
    if (planned[i]) plannedOut += out;
    ctx.feed.add(incidentOf(r, out, planned[i] === true, ctx));
  });
  // The feed's own headline; the markers' sum stands in only for a file without one.
  const headField = indiana ? 'TotalCustAffected' : 'TotalOut';
  const snap = ctx.feed.finish('marker', optHeadlineCount(answer.total, headField, `AES ${answer.format} file`));
  snap.planned_out = indiana ? plannedOut : null;
  snap.unmatched.push(...ctx.unmatched);
  return snap;
}

const blank = (v: string | undefined): boolean => !v || v === 'null';
const coord = (v: string | undefined): number | null => (blank(v) ? null : decimalOf(v as string));

function incidentOf(r: Reading, out: number, planned: boolean, ctx: Context): Incident {
  const point = pointAt(coord(r.lat), coord(r.lon));
  return newIncident({
    id: ctx.feed.idOf(blank(r.id) ? null : r.id, point ? `${point.lat},${point.lon}` : 'marker'),
    fips: namedCounty(r.county, ctx) ?? ctx.feed.county(point),
    customers_out: out,
    etr: timeOf(r.etr, ctx.zone),
    crew_status: null,
    cause: null,
    started_at: timeOf(r.start, ctx.zone),
    lat: point?.lat ?? null,
    lon: point?.lon ?? null,
    city: null,
    planned,
  });
}

/**
 * The county Ohio's OMS names, in the first of the row's states that has it: the utility's own attribution wins
 * over our point look-up, whose 1:10m county shapes can put a point within a kilometre of a county line on the
 * wrong side. A name that matches nothing is reported, and the point decides.
 */
function namedCounty(name: string | undefined, ctx: Context): string | null {
  if (blank(name)) return null;
  for (const s of ctx.states) {
    const fips = matchCounty(s, name as string);
    if (fips) return fips;
  }
  ctx.unmatched.add(name as string);
  return null;
}

/** `06/24/2026 07:00 PM`, seconds optional (`9/23/2026 6:35:31 AM` in Ohio's Message). */
const STAMP = /^(\d{1,2})\/(\d{1,2})\/(\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AP]M)$/i;

function readTime(text: string, zone: string): string | null {
  const m = STAMP.exec(text.trim());
  if (!m || +m[4] < 1 || +m[4] > 12 || +m[5] > 59 || +(m[6] ?? 0) > 59) return null;
  const minute = parseLocal(`${m[1]}/${m[2]}/${m[3]} ${m[4]}:${m[5]} ${m[7]}`, zone, 0);
  // toIso also drops years outside 1990–2099 (placeholder dates).
  return minute === null ? null : toIso(Date.parse(minute) + Number(m[6] ?? 0) * 1000);
}

/** Readers by zone, each remembering its texts across polls: the same outages come back poll after poll. */
const readers = new Map<string, (text: string) => string | null>();

/** ISO UTC for a wall-clock time text in `zone`; null for a blank, `null`, or any other text. */
export function timeOf(text: string | undefined, zone: string): string | null {
  if (blank(text)) return null;
  let read = readers.get(zone);
  if (!read) readers.set(zone, (read = remembered((t: string) => readTime(t, zone))));
  return read(text as string);
}
