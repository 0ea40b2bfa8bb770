// Snohomish PUD normalize: each KML outage area is an incident at its polygon's centre (the outer ring's vertex mean,
// which lies inside the small, compact areas SnoPUD draws), placed in a county with the county atlas (Washington only).
// EstCustomersOut -1 is SnoPUD's placeholder for an area it has not counted yet: 0 customers, its times none.
import type { SourceDef } from '../registry.ts';
import { emptySnapshot, toIso, type Incident, type Snapshot } from '../snapshot.ts';
import { locatePoint } from '../../geo/match.ts';
import { findState } from '../../geo/states.ts';
import { countOf, decimalOf, newIncident, placedCounties } from '../checks.ts';
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
  if (!n) return null;
  const [lon, lat] = [x / n, y / n];
  return Math.abs(lon) <= 180 && Math.abs(lat) <= 90 && !(lon === 0 && lat === 0) ? [lon, lat] : null;
}

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const areas = readRaw(raw);
  const states = new Set(source.states.map((s) => findState(s)?.fips));
  const snap = emptySnapshot(source.utility);
  const ids = new Set<string>();
  let uncounted = 0;
  for (const a of areas) {
    if (a.data.get('EstCustomersOut')?.trim() === '-1') uncounted += 1;
    snap.incidents.push(incidentOf(a, states, ids));
  }
  if (uncounted) snap.unmatched.push(`${uncounted} area(s) published without a customer count (EstCustomersOut -1)`);
  snap.counties = placedCounties(snap.incidents, snap.unmatched, 'area');
  // The file has no headline: customers out is the areas' sum.
  snap.customers_out = snap.incidents.reduce((s, i) => s + i.customers_out, 0);
  snap.basis =
    snap.counties.length > 0 || snap.incidents.length === 0 || snap.incidents.some((i) => i.fips)
      ? 'county'
      : 'outage_only';
  return snap;
}

function incidentOf(a: Area, states: Set<string | undefined>, ids: Set<string>): Incident {
  const centre = centreOf(a.coordinates);
  const fips = centre ? locatePoint(centre[0], centre[1]) : null;
  const placeholder = a.data.get('EstCustomersOut')?.trim() === '-1';
  const base = a.name ?? (centre ? `${centre[1]},${centre[0]}` : 'area');
  let id = base;
  for (let k = 2; ids.has(id); k += 1) id = `${base}#${k}`;
  ids.add(id);
  return newIncident({
    id,
    fips: fips && states.has(fips.slice(0, 2)) ? fips : null,
    customers_out: placeholder ? 0 : (countOf(a.data.get('EstCustomersOut')) ?? 0),
    etr: placeholder ? null : timeOf(a.data.get('EstimatedRestorationUTC')),
    crew_status: textOf(a.data.get('OutageStatus')),
    cause: textOf(a.data.get('Cause')),
    started_at: placeholder ? null : timeOf(a.data.get('StartUTC')),
    lat: centre ? centre[1] : null,
    lon: centre ? centre[0] : null,
    city: null,
  });
}
