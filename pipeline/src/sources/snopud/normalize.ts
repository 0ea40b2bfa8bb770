// Snohomish PUD normalize: each KML outage area is an incident at its polygon's centre (the outer ring's vertex mean,
// which lies inside the small, compact areas SnoPUD draws), placed in a county with the county atlas (Washington only).
// EstCustomersOut -1 is SnoPUD's placeholder for an area it has not counted yet: 0 customers, its times none.
import type { SourceDef } from '../source-def.ts';
import { toIso, type Incident, type Snapshot } from '../snapshot.ts';
import { decimalOf, newIncident } from '../checks.ts';
import { PointFeed, pointAt } from '../point-feed.ts';
import { readRaw, type Area } from './schema.ts';

/** A time SnoPUD writes with its offset (`2025-01-15T15:45:00.0000000+00:00`); its message texts are no time. */
const ZONED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/i;
const timeOf = (v: string | undefined): string | null => {
  const t = v?.trim();
  // Date.parse reads at most milliseconds: the seven fraction digits .NET writes are cut to three.
  return t && ZONED.test(t) ? toIso(t.replace(/(\.\d{3})\d+/, '$1')) : null;
};
const textOf = (v: string | undefined): string | null => v?.trim() || null;

/** The vertex mean of `lon,lat[,alt]` tuples (the closing vertex, a repeat of the first, left out), or null. */
export function centreOf(coordinates: string | null): [number, number] | null {
  const tuples = (coordinates ?? '').trim().split(/\s+/).filter(Boolean);
  if (tuples.length > 1 && tuples[0] === tuples[tuples.length - 1]) tuples.pop();
  let x = 0;
  let y = 0;
  let n = 0;
  for (const t of tuples) {
    const [a, b] = t.split(',');
    const lon = decimalOf(a ?? '');
    const lat = decimalOf(b ?? '');
    if (!Number.isFinite(lon) || !Number.isFinite(lat)) continue;
    x += lon;
    y += lat;
    n += 1;
  }
  const point = n ? pointAt(y / n, x / n) : null;
  return point && [point.lon, point.lat];
}

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const areas = readRaw(raw);
  const feed = new PointFeed(source);
  areas.forEach((a, i) => {
    // -1 is the file's "not yet estimated": unknown, never 0 (noted, and the area is no incident we can count).
    const out = feed.count(a.data.get('EstCustomersOut'), 'EstCustomersOut', `area ${a.name ?? i}`);
    if (out !== null) feed.add(incidentOf(a, out, feed));
  });
  // The file has no headline: customers out is the areas' sum, so an area without a count fails the poll.
  return feed.finish('area');
}

function incidentOf(a: Area, out: number, feed: PointFeed): Incident {
  const centre = centreOf(a.coordinates);
  const point = centre && pointAt(centre[1], centre[0]);
  return newIncident({
    id: feed.id(a.name ?? (point ? `${point.lat},${point.lon}` : 'area')),
    fips: feed.county(point),
    customers_out: out,
    etr: timeOf(a.data.get('EstimatedRestorationUTC')),
    crew_status: textOf(a.data.get('OutageStatus')),
    cause: textOf(a.data.get('Cause')),
    started_at: timeOf(a.data.get('StartUTC')),
    lat: point?.lat ?? null,
    lon: point?.lon ?? null,
    city: null,
  });
}
