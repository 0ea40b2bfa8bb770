// ArcGIS normalize, two modes (options.mode):
//  - "incidents" (default): one feature per outage point → incidents, summed into the county the point falls in;
//  - "counties": one feature per county (name or FIPS field) with out and served counts.
// Field names come from options.fields; unset ones fall back to names seen on real utility layers.
import type { SourceDef } from '../source-def.ts';
import {
  addCounty,
  emptySnapshot,
  toCount,
  toIso,
  type CountyCount,
  type Incident,
  type Snapshot,
} from '../snapshot.ts';
import { OutageIds } from '../outage-ids.ts';
import { SourceError } from '../../errors.ts';
import { locatePoint, matchCounty } from '../../geo/match.ts';
import { readFeatures, type ArcgisFeature, type ArcgisRaw } from './schema.ts';
import { isMercator, pointOf } from './geometry.ts';
import { CountyTally, remembered, servedSum, sortedCounties, newIncident } from '../checks.ts';
import { recordCount } from '../unreadable.ts';

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

type Key = keyof typeof DEFAULT_FIELDS;

/**
 * The attribute names each field is read from, in order. A layer's features all carry the layer's fields, so the
 * fallback names are narrowed once to those the first feature has (trying a dozen absent names per field per
 * feature cost more than JSON.parse). A name set in options.fields is the only one read.
 */
function namesOf(options: Record<string, unknown>, first: Record<string, unknown> | undefined): Record<Key, string[]> {
  const mapped = (options.fields ?? {}) as Record<string, string>;
  const names = {} as Record<Key, string[]>;
  for (const key of Object.keys(DEFAULT_FIELDS) as Key[]) {
    const all = DEFAULT_FIELDS[key];
    const present = first ? all.filter((n) => n in first) : all;
    names[key] = mapped[key] ? [mapped[key]] : present.length ? present : all;
  }
  return names;
}

/** The first of `names` the feature has a value for. */
function pick(attrs: Record<string, unknown>, names: string[]): unknown {
  for (let i = 0; i < names.length; i++) {
    const v = attrs[names[i]];
    if (v !== undefined && v !== null) return v;
  }
  return undefined;
}

/** ETR and start times (epoch ms or text) repeat poll after poll. */
const isoOf = remembered(toIso);
const timeOf = (v: unknown): string | null => (typeof v === 'string' || typeof v === 'number' ? isoOf(v) : toIso(v));

const str = (v: unknown): string | null => (v === undefined || v === null || v === '' ? null : String(v));

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const features = readFeatures(raw, 'ArcGIS features');
  const snap = emptySnapshot(source.utility);
  const names = namesOf(source.options, features[0] && attrsOf(features[0]));
  const mercator = isMercator((raw as ArcgisRaw).spatialReference);
  const mode = source.options.mode ?? 'incidents';
  if (mode === 'counties') countyLayer(features, names, source.states, snap);
  else if (mode === 'incidents') incidentLayer(features, names, source.states[0], mercator, snap);
  else throw new SourceError('config', `options.mode must be "incidents" or "counties", got ${JSON.stringify(mode)}`);
  return snap;
}

/** A layer of one feature per county: the counties, their sums the utility's totals. */
function countyLayer(features: ArcgisFeature[], names: Record<Key, string[]>, states: string[], snap: Snapshot): void {
  const counties = new CountyTally();
  for (const f of features) countyFeature(f, names, states, counties, snap);
  snap.counties = counties.sorted();
  snap.customers_out = snap.counties.reduce((s, c) => s + c.customers_out, 0);
  snap.customers_served = servedSum(snap.counties);
  snap.basis = 'county';
}

/**
 * A layer of one feature per outage (a point, or an area at its centre): each outage counted once, however many
 * features draw it (a polygon layer draws one outage as several polygons, each carrying the outage's whole count:
 * PG&E's layer 8), into the county it lies in; customers out is the outages' sum, placed or not.
 */
function incidentLayer(
  features: ArcgisFeature[],
  names: Record<Key, string[]>,
  state: string,
  mercator: boolean,
  snap: Snapshot,
): void {
  const ids = new OutageIds();
  const field = names.customers_out[0];
  for (const [k, f] of features.entries()) {
    const a = attrsOf(f);
    const out = recordCount(
      pick(a, names.customers_out),
      field,
      `feature ${str(pick(a, names.id)) ?? k}`,
      snap.unreadable,
    );
    if (out === null) continue;
    const incident = ids.once(incidentOf(f, out, names, state, mercator, ids));
    if (incident) snap.incidents.push(incident);
  }
  const counties = new Map<string, CountyCount>();
  let unplaced = 0;
  for (const incident of snap.incidents) {
    if (incident.fips) addCounty(counties, incident.fips, incident.customers_out, null);
    else {
      unplaced += incident.customers_out;
      if (incident.customers_out > 0) snap.unmatched.push(`incident ${incident.id} outside every county`);
    }
  }
  snap.counties = sortedCounties(counties);
  snap.customers_out = snap.counties.reduce((s, c) => s + c.customers_out, 0) + unplaced;
  snap.basis = 'outage_only';
}

/** The feature's fields: `attributes` (f=json) or `properties` (f=geojson). */
const attrsOf = (f: ArcgisFeature): Record<string, unknown> => f.attributes ?? f.properties ?? {};

/** A county feature (FIPS or name field) added into `counties`; one that names no county is reported. */
function countyFeature(
  f: ArcgisFeature,
  names: Record<Key, string[]>,
  states: string[],
  counties: CountyTally,
  snap: Snapshot,
): void {
  const a = attrsOf(f);
  const code = str(pick(a, names.county_fips));
  const name = str(pick(a, names.county)) ?? '';
  const fips = (code && matchIn(states, code)) || matchIn(states, name);
  const label = name || code || '(unnamed feature)';
  const out = recordCount(pick(a, names.customers_out), names.customers_out[0], label, snap.unreadable);
  if (!fips) snap.unmatched.push(label);
  else if (out !== null) counties.add(fips, out, toCount(pick(a, names.customers_served)));
}

function matchIn(states: string[], name: string): string | undefined {
  for (const s of states) {
    const fips = matchCounty(s, name);
    if (fips) return fips;
  }
  return undefined;
}

/** An outage point (or area, at its centre): placed by its geometry, else its lat/lon fields, else its county name. */
function incidentOf(
  f: ArcgisFeature,
  out: number,
  names: Record<Key, string[]>,
  state: string,
  mercator: boolean,
  ids: OutageIds,
): Incident {
  const a = attrsOf(f);
  const [lon, lat] = pointOf(f, mercator) ?? [Number(pick(a, names.lon) ?? NaN), Number(pick(a, names.lat) ?? NaN)];
  const located = Number.isFinite(lon) && Number.isFinite(lat) && Math.abs(lon) <= 180 && Math.abs(lat) <= 90;
  const countyName = str(pick(a, names.county));
  const fips =
    (located ? locatePoint(lon, lat) : null) ?? (countyName ? matchCounty(state, countyName) : undefined) ?? null;
  return newIncident({
    id: ids.idOf(str(pick(a, names.id)), `${lon},${lat}`),
    fips,
    customers_out: out,
    etr: timeOf(pick(a, names.etr)),
    crew_status: str(pick(a, names.crew_status)),
    cause: str(pick(a, names.cause)),
    started_at: timeOf(pick(a, names.started_at)),
    lat: located ? lat : null,
    lon: located ? lon : null,
    city: str(pick(a, names.city)),
  });
}
