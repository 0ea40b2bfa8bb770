// SienaTech normalize: each <OMSCASES> row is an incident, counted in the county its average point lies in (row's
// states only); customers_out is their sum, since the answer has no headline. Times are Mountain wall clock.
import type { SourceDef } from '../registry.ts';
import { emptySnapshot, toIso, type Incident, type Snapshot } from '../snapshot.ts';
import { locatePoint } from '../../geo/match.ts';
import { findState } from '../../geo/states.ts';
import { parseLocal, zoneFor } from '../local-time.ts';
import { countOf, decimalOf, newIncident, remembered, placedCounties } from '../checks.ts';
import { readRaw, type SienaCase } from './schema.ts';

/** What placing a poll's cases shares: the zone, the row's state FIPS, the ids taken. */
interface Context {
  zone: string;
  stateFips: Set<string | undefined>;
  ids: Set<string>;
}

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const cases = readRaw(raw);
  const ctx: Context = {
    zone: zoneFor(source.states, source.options.time_zone || 'America/Denver'),
    stateFips: new Set(source.states.map((s) => findState(s)?.fips)),
    ids: new Set(),
  };
  const snap = emptySnapshot(source.utility);
  snap.incidents = cases.map((c) => incidentOf(c, ctx));
  snap.counties = placedCounties(snap.incidents, snap.unmatched, 'case');
  snap.customers_out = snap.incidents.reduce((s, i) => s + i.customers_out, 0);
  snap.basis =
    snap.counties.length > 0 || snap.incidents.length === 0 || snap.incidents.some((i) => i.fips)
      ? 'county'
      : 'outage_only';
  return snap;
}

const blank = (v: string | undefined): boolean => !v?.trim() || v.trim() === 'null';
const coord = (v: string | undefined): number | null => (blank(v) ? null : decimalOf((v as string).trim()));

/** The case's serial as sent, less the leading `*` the peer's adapter also strips. */
function idOf(c: SienaCase, lat: number | null, lon: number | null, ids: Set<string>): string {
  const serial = (c.SERIAL ?? '').trim().replace(/^\*/, '');
  const base = serial || (lat === null ? 'case' : `${lat},${lon}`);
  let id = base;
  for (let k = 2; ids.has(id); k += 1) id = `${base}#${k}`;
  ids.add(id);
  return id;
}

function incidentOf(c: SienaCase, ctx: Context): Incident {
  let lat = coord(c.AVGLAT);
  let lon = coord(c.AVGLONG);
  if (lat === null || lon === null || !(Math.abs(lat) <= 90 && Math.abs(lon) <= 180) || (lat === 0 && lon === 0))
    lat = lon = null;
  return newIncident({
    id: idOf(c, lat, lon, ctx.ids),
    fips: pointCounty(lat, lon, ctx),
    // A case whose current count is blank still has the customers it opened with.
    customers_out: countOf(blank(c.CURCUST) ? c.INITCUST : c.CURCUST) ?? 0,
    etr: timeOf(c.RESTORETIM, ctx.zone),
    crew_status: null,
    cause: blank(c.DESC_CAUSE) ? null : (c.DESC_CAUSE as string).trim(),
    started_at: null,
    lat,
    lon,
    city: null,
  });
}

/** The point's county when it lies in one of the row's states, else null. */
function pointCounty(lat: number | null, lon: number | null, ctx: Context): string | null {
  if (lat === null || lon === null) return null;
  const fips = locatePoint(lon, lat);
  return fips && ctx.stateFips.has(fips.slice(0, 2)) ? fips : null;
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
