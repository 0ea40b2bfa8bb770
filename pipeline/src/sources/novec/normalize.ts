// NOVEC normalize: each <outage> is an incident, counted in the county its code names or else the county its point
// lies in (Virginia only); customers_out is their sum, since the file has no headline. Times are Eastern wall clock.
import type { SourceDef } from '../source-def.ts';
import { toIso, type Incident, type Snapshot } from '../snapshot.ts';
import { parseLocal, zoneFor } from '../local-time.ts';
import { decimalOf, newIncident, remembered } from '../checks.ts';
import { PointFeed, pointAt } from '../point-feed.ts';
import { readRaw, type NovecOutage } from './schema.ts';

/**
 * NOVEC's two-letter county codes → Virginia county FIPS. Only PW and FX are seen (the peer's sample); the others are
 * guesses for the rest of NOVEC's territory. A code not listed falls back to the point and is reported in `unmatched`,
 * so a wrong guess shows as a missing code rather than a wrong county.
 */
const COUNTY_CODES: Record<string, string> = {
  PW: '51153', // Prince William
  FX: '51059', // Fairfax
  LO: '51107', // Loudoun
  LD: '51107',
  ST: '51179', // Stafford
  FQ: '51061', // Fauquier
  CL: '51043', // Clarke
  MN: '51683', // Manassas (independent city)
  MP: '51685', // Manassas Park (independent city)
};

/** What placing a poll's outages shares: the zone, the poll's point feed, the codes not listed. */
interface Context {
  zone: string;
  feed: PointFeed;
  unmatched: Set<string>;
}

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const outages = readRaw(raw);
  const ctx: Context = {
    zone: zoneFor(source.states, source.options.time_zone || 'America/New_York'),
    feed: new PointFeed(source),
    unmatched: new Set(),
  };
  outages.forEach((o, i) => {
    const out = ctx.feed.count(o['@numOut'], 'numOut', `outage ${o['@id'] || i}`);
    if (out !== null) ctx.feed.add(incidentOf(o, out, ctx));
  });
  const snap = ctx.feed.finish('outage');
  snap.unmatched.push(...[...ctx.unmatched].map((c) => `county code ${c}`));
  return snap;
}

const blank = (v: string | undefined): boolean => !v?.trim() || v.trim() === 'null';
const coord = (v: string | undefined): number | null => (blank(v) ? null : decimalOf((v as string).trim()));

function incidentOf(o: NovecOutage, out: number, ctx: Context): Incident {
  const point = pointAt(coord(o['@lat']), coord(o['@lng']));
  return newIncident({
    id: ctx.feed.idOf(blank(o['@id']) ? null : o['@id'], point ? `${point.lat},${point.lon}` : 'outage'),
    fips: codedCounty(o['@county'], ctx) ?? ctx.feed.county(point),
    customers_out: out,
    etr: timeOf(o['@eTime'], ctx.zone),
    crew_status: null,
    cause: blank(o['@cause']) ? null : (o['@cause'] as string).trim(),
    started_at: timeOf(o['@sTime'], ctx.zone),
    lat: point?.lat ?? null,
    lon: point?.lon ?? null,
    city: null,
  });
}

/**
 * The county NOVEC's code names: the utility's own attribution wins over our point look-up, whose 1:10m shapes can
 * put a point near a county line on the wrong side (and the sample's points are rounded to 0.1°).
 */
function codedCounty(code: string | undefined, ctx: Context): string | null {
  if (blank(code)) return null;
  const key = (code as string).trim().toUpperCase();
  const fips = COUNTY_CODES[key];
  if (fips && ctx.feed.inStates(fips)) return fips;
  ctx.unmatched.add(key);
  return null;
}

/** `11:02 PM 06/24/2026`: time first, then the date. */
const STAMP = /^(\d{1,2}):(\d{2})\s*([AP]M)\s+(\d{1,2})\/(\d{1,2})\/(\d{4})$/i;

function readTime(text: string, zone: string): string | null {
  const m = STAMP.exec(text.trim());
  if (!m || +m[1] < 1 || +m[1] > 12 || +m[2] > 59) return null;
  // toIso drops years outside 1990–2099 (placeholder dates).
  return toIso(parseLocal(`${m[4]}/${m[5]}/${m[6]} ${m[1]}:${m[2]} ${m[3]}`, zone, 0));
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
