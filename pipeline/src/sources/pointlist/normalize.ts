// Point-list normalize: each listed outage is an incident placed in a county by its point (counties of the row's states
// only), else by its county name; customers out is the feed's headline when it names one, else the incidents' sum.
import type { SourceDef } from '../registry.ts';
import { emptySnapshot, type Incident, type Snapshot } from '../snapshot.ts';
import { locatePoint, matchCounty } from '../../geo/match.ts';
import { findState } from '../../geo/states.ts';
import { zoneFor } from '../local-time.ts';
import { countOf, decimalOf, newIncident, placedCounties } from '../checks.ts';
import { specOf, type PointSpec } from './options.ts';
import { fieldsOf, figureOf, outagesOf, type OutageFields } from './schema.ts';
import { readEtr } from './etr.ts';

/** The `pointlist` connector's normalize: the row's options are the spec. */
export function normalize(raw: unknown, source: SourceDef): Snapshot {
  return normalizePoints(raw, source, specOf(source.options));
}

/**
 * The snapshot of a point-list answer read by `spec`. `refMs` is the answer's own time (its HTTP Date), which only
 * `day_at` ETRs need. The row's `options.time_zone` overrides the spec's zone, which overrides the first state's.
 */
export function normalizePoints(raw: unknown, source: SourceDef, spec: PointSpec, refMs = Number.NaN): Snapshot {
  const outages = outagesOf(spec, raw);
  const zone = zoneFor(source.states, source.options.time_zone || spec.timeZone);
  const states = new Set(source.states.map((s) => findState(s)?.fips));
  const snap = emptySnapshot(source.utility);
  const ids = new Set<string>();
  for (let i = 0; i < outages.length; i++) {
    const f = fieldsOf(spec, outages[i], i);
    if (f.planned === true) continue;
    snap.incidents.push(incidentOf(f, { spec, source, states, ids, zone, refMs, unmatched: snap.unmatched }));
  }
  snap.counties = placedCounties(snap.incidents, snap.unmatched, spec.noun);
  const headline = countOf(figureOf(spec, raw, spec.total));
  snap.customers_out = headline ?? snap.incidents.reduce((s, i) => s + i.customers_out, 0);
  snap.customers_served = countOf(figureOf(spec, raw, spec.served));
  const placed = snap.counties.length > 0 || snap.incidents.length === 0 || snap.incidents.some((i) => i.fips);
  // A headline with no outage placed is still the utility's own total.
  snap.basis = placed ? 'county' : headline !== null ? 'utility_total' : 'outage_only';
  return snap;
}

interface Context {
  spec: PointSpec;
  source: SourceDef;
  states: Set<string | undefined>;
  ids: Set<string>;
  zone: string;
  refMs: number;
  unmatched: string[];
}

const textOf = (v: number | string | null): string | null => {
  const t = v === null ? '' : String(v).trim();
  return t ? t : null;
};

const coordinate = (v: number | string | null): number | null =>
  typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? decimalOf(v.trim()) : null;

/** [lon, lat] when the outage has a usable point: finite, on the globe, not 0,0 (a feed's "no point"). */
function pointOf(f: OutageFields): [number, number] | null {
  const [lon, lat] = f.point ?? [coordinate(f.lon), coordinate(f.lat)];
  if (lon === null || lat === null || !Number.isFinite(lon) || !Number.isFinite(lat)) return null;
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180 || (lat === 0 && lon === 0)) return null;
  return [lon, lat];
}

/** The county by the point (in the row's states only), else by the outage's county name in the row's states. */
function placeOf(f: OutageFields, point: [number, number] | null, c: Context): string | null {
  const fips = point ? locatePoint(point[0], point[1]) : null;
  if (fips && c.states.has(fips.slice(0, 2))) return fips;
  const name = f.county?.trim();
  if (!name) return null;
  for (const s of c.source.states) {
    const named = matchCounty(s, name);
    if (named) return named;
  }
  c.unmatched.push(`${name} (no such county in ${c.source.states.join(', ')})`);
  return null;
}

/** The outage's own id; without one its id parts and its point (they stay put while it lasts), else `outage`. */
function idOf(f: OutageFields, point: [number, number] | null, ids: Set<string>): string {
  const parts = f.idParts.map(textOf).filter((p): p is string => p !== null);
  if (point) parts.push(`${point[1]},${point[0]}`);
  const base = textOf(f.id) ?? (parts.join('@') || 'outage');
  let id = base;
  for (let k = 2; ids.has(id); k += 1) id = `${base}#${k}`;
  ids.add(id);
  return id;
}

/** An ETR counts only where the feed's flag (when the spec names one) says it gave one: true or the text "true". */
const flagged = (f: OutageFields, spec: PointSpec): boolean =>
  !spec.etrFlag || f.etrFlag === true || (typeof f.etrFlag === 'string' && f.etrFlag.trim().toLowerCase() === 'true');

function incidentOf(f: OutageFields, c: Context): Incident {
  const point = pointOf(f);
  return newIncident({
    id: idOf(f, point, c.ids),
    fips: placeOf(f, point, c),
    customers_out: countOf(f.count) ?? 0,
    etr: flagged(f, c.spec) ? readEtr(f.etr, c.spec.etrFormat, c.zone, c.refMs) : null,
    crew_status: textOf(f.crewStatus),
    cause: textOf(f.cause),
    started_at: null,
    lat: point ? point[1] : null,
    lon: point ? point[0] : null,
    city: textOf(f.city),
  });
}
