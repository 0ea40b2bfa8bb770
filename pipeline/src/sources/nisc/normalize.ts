// NISC normalize: the county region data set ("omscounty" or any set whose id/description says county) gives
// per-county out and served; `outages` give incidents (ETR as epoch ms, point when present).
import type { SourceDef } from '../registry.ts';
import { emptySnapshot, toIso, type Incident, type Snapshot } from '../snapshot.ts';
import { locatePoint, matchCounty } from '../../geo/match.ts';
import { CountyTally, remembered, newIncident } from '../checks.ts';
import { readSummary, type NiscOutage, type NiscRegionSet } from './schema.ts';

/** ETRs and start times (epoch ms) repeat poll after poll. */
const isoOf = remembered(toIso);
const isCountySet = (d: NiscRegionSet) => /county/i.test(d.id) || /count(y|ies)/i.test(d.description ?? '');

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const data = readSummary(raw);
  const snap = emptySnapshot(source.utility);
  const set = data.regionDataSets?.find(isCountySet);
  const counties = new CountyTally();
  for (const r of set?.regions ?? []) {
    const fips = countyOf(source.states, r.id);
    if (!fips) {
      snap.unmatched.push(r.id);
      continue;
    }
    counties.add(fips, Math.max(0, Math.round(r.numberOut ?? 0)), r.numberServed ?? null);
  }
  let incidentOut = 0;
  for (const o of data.outages ?? []) {
    const incident = incidentOf(o);
    incidentOut += incident.customers_out;
    snap.incidents.push(incident);
  }
  snap.counties = counties.sorted();
  snap.customers_out = set ? snap.counties.reduce((s, c) => s + c.customers_out, 0) : incidentOut;
  snap.customers_served = data.totalServed ?? null;
  snap.basis = snap.counties.length > 0 ? 'county' : snap.customers_served !== null ? 'utility_total' : 'outage_only';
  return snap;
}

/** A region id is a county name in the first state, else in the first of the others that has it. */
function countyOf(states: string[], name: string): string | undefined {
  for (const s of states) {
    const fips = matchCounty(s, name);
    if (fips) return fips;
  }
  return undefined;
}

function incidentOf(o: NiscOutage): Incident {
  const lat = o.outagePoint?.lat ?? null;
  const lon = o.outagePoint?.lng ?? null;
  return newIncident({
    id: String(o.id),
    fips: lat !== null && lon !== null ? locatePoint(lon, lat) : null,
    customers_out: Math.max(0, Math.round(o.nbrOut ?? 0)),
    etr: o.estimateTime == null ? null : isoOf(o.estimateTime),
    crew_status: o.crewStatus ?? null,
    cause: o.cause ?? null,
    started_at: o.startTime == null ? null : isoOf(o.startTime),
    lat,
    lon,
    city: null,
  });
}
