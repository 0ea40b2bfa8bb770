// OutageEntry normalize: each marker is an out device with a point; markers are summed into the county the point
// falls in. The feed has no headline and no customers served, so customers_out is the markers' sum.
import type { SourceDef } from '../registry.ts';
import { addCounty, emptySnapshot, toCount, type CountyCount, type Incident, type Snapshot } from '../snapshot.ts';
import { parseUpstream } from '../parse.ts';
import { loadAtlas } from '../../geo/counties.ts';
import { markersAnswerSchema, type OutageEntryMarker } from './schema.ts';
import { parseLocal, zoneFor } from '../local-time.ts';

/** A coordinate sent as text ("38.494") or number; null for blanks, junk and the 0,0 placeholder. */
function coordinate(v: unknown, limit: number): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) && Math.abs(n) <= limit && n !== 0 ? n : null;
}

/**
 * Point → county, remembered across polls: the same markers come back poll after poll, and one point-in-polygon
 * look-up costs about 0.2 ms. Cleared when it grows large.
 */
const pointMemo = new Map<string, string | null>();
function locate(lon: number, lat: number): string | null {
  const key = `${lon},${lat}`;
  let fips = pointMemo.get(key);
  if (fips === undefined) {
    if (pointMemo.size >= 100_000) pointMemo.clear();
    fips = loadAtlas().locate(lon, lat) ?? null;
    pointMemo.set(key, fips);
  }
  return fips;
}

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const data = parseUpstream(markersAnswerSchema, raw, 'OutageEntry cfa_device_markers answer');
  const markers = data['0']?.markers ?? [];
  const zone = zoneFor(source.states, source.options.time_zone);
  // Times without a year are resolved against the poll's own clock (the feed carries no timestamp). Many markers
  // share one ETR text, so each distinct text is read once.
  const now = Date.now();
  const seen = new Map<string, string | null>();
  const time = (text: string | null | undefined): string | null => {
    if (!text) return null;
    let iso = seen.get(text);
    if (iso === undefined) seen.set(text, (iso = parseLocal(text, zone, now)));
    return iso;
  };
  const snap = emptySnapshot(source.utility);
  const counties = new Map<string, CountyCount>();
  const lost = { noPoint: 0, noPointOut: 0, outside: 0, outsideOut: 0 };
  let total = 0;
  let located = 0;
  for (const m of markers) {
    const incident = incidentOf(m, time);
    if (incident.lat !== null && incident.lon !== null) {
      located += 1;
      incident.fips = locate(incident.lon, incident.lat);
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
  snap.counties = [...counties.values()].sort((a, b) => a.fips.localeCompare(b.fips));
  snap.customers_out = total;
  // Markers carry points, so the feed is county-grade; only a list of markers none of which can be placed is not.
  snap.basis = markers.length > 0 && located === 0 ? 'outage_only' : 'county';
  return snap;
}

function incidentOf(m: OutageEntryMarker, time: (text: string | null | undefined) => string | null): Incident {
  const lat = coordinate(m.lat, 90);
  const lon = coordinate(m.lon, 180);
  const placed = lat !== null && lon !== null;
  const id =
    m.incident_id !== null && m.incident_id !== undefined && m.incident_id !== ''
      ? String(m.incident_id)
      : `${m.lat},${m.lon}`;
  return {
    id,
    fips: null,
    customers_out: toCount(m.consumers_affected) ?? 0,
    // estimated_restore_time carries the year; formatted_ert ("Mon, Jun 29, 01:37 pm") only the weekday.
    etr: time(m.estimated_restore_time) ?? time(m.formatted_ert),
    crew_status: null,
    cause: null,
    started_at: time(m.start_date),
    lat: placed ? lat : null,
    lon: placed ? lon : null,
    city: null,
  };
}
