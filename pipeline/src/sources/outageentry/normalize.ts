// OutageEntry normalize: each marker is an out device with a point; markers are summed into the county the point
// falls in. The feed has no headline and no customers served, so customers_out is the markers' sum.
import type { SourceDef } from '../source-def.ts';
import { addCounty, emptySnapshot, type CountyCount, type Incident, type Snapshot } from '../snapshot.ts';
import { locatePoint } from '../../geo/match.ts';
import { readMarkers, type OutageEntryMarker } from './schema.ts';
import { parseLocal, zoneFor } from '../local-time.ts';
import { decimalOf, sortedCounties, newIncident } from '../checks.ts';
import { recordCount } from '../unreadable.ts';

/** A coordinate sent as text ("38.494") or number; null for blanks, junk and the 0,0 placeholder (a blank text
 * reads as 0, so the placeholder test refuses it too). */
function coordinate(v: unknown, limit: number): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? decimalOf(v) : NaN;
  return Number.isFinite(n) && Math.abs(n) <= limit && n !== 0 ? n : null;
}

/**
 * Local time texts read, by zone and text, for one UTC day of the poll clock: the same markers (and so the same
 * texts) come back poll after poll, and reading one costs more than its share of JSON.parse. A time without a year
 * takes the year nearest the poll, which a day's drift can change only for a text about six months away (where
 * either year is a guess). Cleared when the day changes or it grows large.
 */
const times = new Map<string, Map<string, string | null>>();
let timesDay = -1;

/** How one poll reads its times: the zone, the poll's clock, and the zone's remembered texts. */
interface Clock {
  zone: string;
  now: number;
  texts: Map<string, string | null>;
}

function clockOf(zone: string, now: number): Clock {
  const day = Math.floor(now / 86_400_000);
  if (day !== timesDay) {
    times.clear();
    timesDay = day;
  }
  let texts = times.get(zone);
  if (!texts || texts.size >= 20_000) times.set(zone, (texts = new Map()));
  return { zone, now, texts };
}

function timeIn(clock: Clock, text: string | null | undefined): string | null {
  if (!text) return null;
  let iso = clock.texts.get(text);
  if (iso === undefined) clock.texts.set(text, (iso = parseLocal(text, clock.zone, clock.now)));
  return iso;
}

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const markers = readMarkers(raw);
  const zone = zoneFor(source.states, source.options.time_zone);
  // Times without a year are resolved against the poll's own clock (the feed carries no timestamp).
  const clock = clockOf(zone, Date.now());
  const snap = emptySnapshot(source.utility);
  const counties = new Map<string, CountyCount>();
  const lost = { noPoint: 0, noPointOut: 0, outside: 0, outsideOut: 0 };
  let total = 0;
  let located = 0;
  for (const [i, m] of markers.entries()) {
    const count = recordCount(m.consumers_affected, 'consumers_affected', `marker ${i}`, snap.unreadable);
    if (count === null) continue;
    const incident = incidentOf(m, count, clock);
    if (incident.lat !== null && incident.lon !== null) {
      located += 1;
      incident.fips = locatePoint(incident.lon, incident.lat);
    }
    snap.incidents.push(incident);
    const out = incident.customers_out;
    total += out;
    if (incident.fips) {
      if (out > 0) addCounty(counties, incident.fips, out, null);
    } else if (incident.lat === null) {
      lost.noPoint += 1;
      lost.noPointOut += out;
    } else {
      lost.outside += 1;
      lost.outsideOut += out;
    }
  }
  if (lost.noPoint)
    snap.unmatched.push(`${lost.noPoint} marker(s) without a usable lat/lon (${lost.noPointOut} customers out)`);
  if (lost.outside)
    snap.unmatched.push(`${lost.outside} marker(s) outside every US county (${lost.outsideOut} customers out)`);
  snap.counties = sortedCounties(counties);
  snap.customers_out = total;
  // Markers carry points, so the feed is county-grade; only a list of markers none of which can be placed is not.
  snap.basis = markers.length > 0 && located === 0 ? 'outage_only' : 'county';
  return snap;
}

function incidentOf(m: OutageEntryMarker, out: number, clock: Clock): Incident {
  const lat = coordinate(m.lat, 90);
  const lon = coordinate(m.lon, 180);
  const placed = lat !== null && lon !== null;
  const id =
    m.incident_id !== null && m.incident_id !== undefined && m.incident_id !== ''
      ? String(m.incident_id)
      : `${m.lat},${m.lon}`;
  return newIncident({
    id,
    fips: null,
    customers_out: out,
    // estimated_restore_time carries the year; formatted_ert ("Mon, Jun 29, 01:37 pm") only the weekday.
    etr: timeIn(clock, m.estimated_restore_time) ?? timeIn(clock, m.formatted_ert),
    crew_status: null,
    cause: null,
    started_at: timeIn(clock, m.start_date),
    lat: placed ? lat : null,
    lon: placed ? lon : null,
    city: null,
  });
}
