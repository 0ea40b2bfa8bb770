// ArcGIS normalize, two modes (options.mode):
//  - "incidents" (default): one feature per outage point → incidents, summed into the county the point falls in;
//  - "counties": one feature per county (name or FIPS field) with out and served counts.
// Field names come from options.fields; unset ones fall back to names seen on real utility layers.
import type { SourceDef } from '../registry.ts';
import { addCounty, emptySnapshot, toCount, toIso, type CountyCount, type Snapshot } from '../snapshot.ts';
import { SourceError } from '../../errors.ts';
import { locatePoint, matchCounty } from '../../geo/match.ts';
import { readFeatures } from './schema.ts';

const DEFAULT_FIELDS: Record<string, string[]> = {
  id: ['OUTAGE_ID', 'F_OUTAGE_ID', 'IncidentId', 'identifier', 'OBJECTID', 'objectid'],
  customers_out: [
    'EST_CUSTOMERS',
    'NoOfAffectedCust_Inci',
    'numpeople',
    'CUSTOMERS_OUT',
    'customers_out',
    'NO_OUTAGES',
  ],
  customers_served: ['NO_CUSTOMERS', 'CUSTOMERS_SERVED', 'customers_served'],
  etr: ['CURRENT_ETOR', 'CURRENT_ETOR_TEXT', 'ERT', 'etrdate', 'ETR'],
  cause: ['OUTAGE_CAUSE', 'CAUSE', 'cause'],
  crew_status: ['CREW_CURRENT_STATUS', 'CREW_STATUS', 'crew_status'],
  started_at: ['OUTAGE_START', 'START_TIME', 'started_at'],
  county: ['CountyName', 'COUNTY', 'NAME', 'county'],
  county_fips: ['FIPS', 'COUNTY_FIPS', 'fips'],
  city: ['CITY', 'city'],
  lat: ['OUTAGE_LATITUDE', 'latitude'],
  lon: ['OUTAGE_LONGITUDE', 'longitude'],
};

/**
 * The attribute reader. A layer's features all carry the layer's fields, so the fallback names are narrowed once to
 * those the first feature has (trying a dozen absent names per field per feature cost more than JSON.parse).
 */
function picker(options: Record<string, unknown>, first: Record<string, unknown> | undefined) {
  const mapped = (options.fields ?? {}) as Record<string, string>;
  const names = new Map<string, string[]>();
  for (const [key, all] of Object.entries(DEFAULT_FIELDS)) {
    const present = first ? all.filter((n) => n in first) : all;
    names.set(key, present.length ? present : all);
  }
  return (attrs: Record<string, unknown>, key: string): unknown => {
    if (mapped[key]) return attrs[mapped[key]];
    for (const name of names.get(key) ?? []) if (attrs[name] !== undefined && attrs[name] !== null) return attrs[name];
    return undefined;
  };
}

const str = (v: unknown): string | null => (v === undefined || v === null || v === '' ? null : String(v));

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const features = readFeatures(raw, 'ArcGIS features');
  const snap = emptySnapshot(source.utility);
  const pick = picker(source.options, features[0]?.attributes);
  const counties = new Map<string, CountyCount>();
  const mode = source.options.mode ?? 'incidents';
  if (mode === 'counties') {
    for (const f of features) {
      const a = f.attributes;
      const code = str(pick(a, 'county_fips'));
      const name = str(pick(a, 'county')) ?? '';
      const fips =
        (code && source.states.map((s) => matchCounty(s, code)).find(Boolean)) ||
        source.states.map((s) => matchCounty(s, name)).find(Boolean);
      const out = toCount(pick(a, 'customers_out'));
      if (!fips || out === null) {
        snap.unmatched.push(name || code || '(unnamed feature)');
        continue;
      }
      addCounty(counties, fips, out, toCount(pick(a, 'customers_served')));
    }
    snap.basis = 'county';
  } else if (mode === 'incidents') {
    for (const f of features) {
      const a = f.attributes;
      const lon = typeof f.geometry?.x === 'number' ? f.geometry.x : Number(pick(a, 'lon') ?? NaN);
      const lat = typeof f.geometry?.y === 'number' ? f.geometry.y : Number(pick(a, 'lat') ?? NaN);
      const located = Number.isFinite(lon) && Number.isFinite(lat) && Math.abs(lon) <= 180 && Math.abs(lat) <= 90;
      const countyName = str(pick(a, 'county'));
      const fips =
        (located ? locatePoint(lon, lat) : null) ??
        (countyName ? matchCounty(source.states[0], countyName) : undefined) ??
        null;
      const out = toCount(pick(a, 'customers_out')) ?? 0;
      snap.incidents.push({
        id: str(pick(a, 'id')) ?? `${lon},${lat}`,
        fips,
        customers_out: out,
        etr: toIso(pick(a, 'etr')),
        crew_status: str(pick(a, 'crew_status')),
        cause: str(pick(a, 'cause')),
        started_at: toIso(pick(a, 'started_at')),
        lat: located ? lat : null,
        lon: located ? lon : null,
        city: str(pick(a, 'city')),
      });
      if (fips) addCounty(counties, fips, out, null);
      else if (out > 0) snap.unmatched.push(`incident ${str(pick(a, 'id')) ?? ''} outside every county`);
    }
    snap.basis = 'outage_only';
  } else {
    throw new SourceError('config', `options.mode must be "incidents" or "counties", got ${JSON.stringify(mode)}`);
  }
  snap.counties = [...counties.values()].sort((a, b) => a.fips.localeCompare(b.fips));
  snap.customers_out =
    snap.counties.reduce((s, c) => s + c.customers_out, 0) +
    (mode === 'incidents' ? snap.incidents.filter((i) => !i.fips).reduce((s, i) => s + i.customers_out, 0) : 0);
  const served = snap.counties.map((c) => c.customers_served);
  snap.customers_served =
    mode === 'counties' && served.length && served.every((v) => v !== null)
      ? served.reduce((s, v) => s! + v!, 0)
      : null;
  return snap;
}
