// NISC normalize: the county region data set ("omscounty" or any set whose id/description says county) gives
// per-county out and served; `outages` give incidents (ETR as epoch ms). A summary without a county set (Mohave
// Electric's) is counted from its outages instead, each placed in its county by its point: `outagePoint` when given,
// else x/y decoded from config.json's map extent. Planned outages count (flagged), as the utility's map counts them.
import type { SourceDef } from '../source-def.ts';
import { emptySnapshot, toIso, type Incident, type Snapshot } from '../snapshot.ts';
import { locatePoint, matchCounty } from '../../geo/match.ts';
import { SourceError } from '../../errors.ts';
import { CountyTally, remembered, newIncident, placedCounties } from '../checks.ts';
import { OutageIds } from '../outage-ids.ts';
import { recordCount } from '../unreadable.ts';
import {
  isCountySet,
  partsOf,
  readExtent,
  readSummary,
  type NiscExtent,
  type NiscOutage,
  type NiscRegionSet,
} from './schema.ts';

/** ETRs and start times (epoch ms) repeat poll after poll. */
const isoOf = remembered(toIso);

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const parts = partsOf(raw);
  const data = readSummary(parts.summary);
  const snap = emptySnapshot(source.utility);
  const set = data.regionDataSets?.find(isCountySet);
  // Planned work in progress leaves customers without power: counted, as EAGLE-I counts it, and flagged. (Mohave's
  // real capture flags its 92-customer WEATHER outage, "Crews are responding", planned: counted, it is 93 as NISC's
  // map shows, not 1.)
  const outages = data.outages ?? [];
  const toPoint = pointReader(outages, set, readExtent(parts.config));
  const ids = new OutageIds(); // an outage listed twice is one
  for (const o of outages) {
    const out = recordCount(o.nbrOut, 'nbrOut', `outage ${o.id}`, snap.unreadable);
    const incident = out === null ? null : ids.once(incidentOf(o, ids.idOf(o.id, 'outage'), out, toPoint));
    if (incident) snap.incidents.push(incident);
  }
  snap.planned_out = snap.incidents.reduce((s, i) => s + (i.planned ? i.customers_out : 0), 0);
  snap.customers_served = data.totalServed ?? null;
  if (set) {
    // The county set is the count: an outage without a readable count only leaves the incident list.
    snap.counties = regionCounties(set, source.states, snap);
    snap.customers_out = snap.counties.reduce((s, c) => s + c.customers_out, 0);
    snap.basis = snap.counties.length > 0 ? 'county' : snap.customers_served !== null ? 'utility_total' : 'outage_only';
    return snap;
  }
  snap.counties = placedCounties(snap.incidents, snap.unmatched, 'outage');
  snap.customers_out = snap.incidents.reduce((s, i) => s + i.customers_out, 0);
  snap.basis = 'county';
  return snap;
}

function regionCounties(set: NiscRegionSet, states: string[], snap: Snapshot) {
  const counties = new CountyTally();
  for (const r of set.regions) {
    const fips = countyOf(states, r.id);
    const out = recordCount(r.numberOut, 'numberOut', `region ${r.id}`, snap.unreadable);
    if (!fips) snap.unmatched.push(r.id);
    else if (out !== null) counties.add(fips, out, r.numberServed ?? null);
  }
  return counties.sorted();
}

type PointReader = (o: NiscOutage) => { lat: number; lon: number } | null;

/**
 * How an outage's point is read. Without a county set the points are the only way to counties, so an unplanned
 * outage that has only x/y offsets and no extent to decode them with fails the poll rather than publishing 0.
 */
function pointReader(outages: NiscOutage[], set: NiscRegionSet | undefined, extent: NiscExtent | null): PointReader {
  const offsetOnly = outages.find((o) => !o.outagePoint && o.x != null);
  if (!set && offsetOnly && !extent)
    throw new SourceError(
      'schema',
      `NISC summary.json has no county region set and outage ${offsetOnly.id} carries only x/y offsets, but no config.json mapSettings.boundaryExtent came with it to decode them (fetch reads config.json beside summary.json)`,
    );
  return (o) => {
    if (o.outagePoint) return { lat: o.outagePoint.lat, lon: o.outagePoint.lng };
    if (extent && typeof o.x === 'number' && typeof o.y === 'number') return fromMercator(extent, o.x, o.y);
    return null;
  };
}

const R = 6378137; // the Web Mercator sphere's radius, metres
/** Offsets from the extent's corner are at most a few hundred km; values this large are absolute metres already. */
const ABSOLUTE = 5_000_000;
/** A point given in metres east and north of the extent's south-west corner, as longitude and latitude. */
export function fromMercator(extent: NiscExtent, x: number, y: number): { lat: number; lon: number } {
  const absolute = Math.abs(x) >= ABSOLUTE;
  const mx = absolute ? x : extent[0] + x;
  const my = absolute ? y : extent[1] + y;
  const lon = (mx / R) * (180 / Math.PI);
  const lat = (2 * Math.atan(Math.exp(my / R)) - Math.PI / 2) * (180 / Math.PI);
  return { lat: Math.round(lat * 1e6) / 1e6, lon: Math.round(lon * 1e6) / 1e6 };
}

/** A region id is a county name in the first state, else in the first of the others that has it. */
function countyOf(states: string[], name: string): string | undefined {
  for (const s of states) {
    const fips = matchCounty(s, name);
    if (fips) return fips;
  }
  return undefined;
}

function incidentOf(o: NiscOutage, id: string, out: number, toPoint: PointReader): Incident {
  const p = toPoint(o);
  const started = o.startTime ?? o.timeOff;
  return newIncident({
    id,
    fips: p ? (locatePoint(p.lon, p.lat) ?? null) : null,
    customers_out: out,
    etr: o.estimateTime == null ? null : isoOf(o.estimateTime),
    crew_status: o.crewStatus ?? null,
    cause: o.cause?.trim() || null,
    started_at: started == null ? null : isoOf(started),
    lat: p?.lat ?? null,
    lon: p?.lon ?? null,
    city: null,
    planned: o.planned === true,
  });
}
