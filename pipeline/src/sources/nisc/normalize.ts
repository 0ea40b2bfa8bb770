// NISC normalize: the county region data set ("omscounty" or any set whose id/description says county) gives
// per-county out and served; `outages` give incidents (ETR as epoch ms, point when present).
import type { SourceDef } from '../registry.ts';
import { addCounty, emptySnapshot, toIso, type CountyCount, type Snapshot } from '../snapshot.ts';
import { parseUpstream } from '../parse.ts';
import { matchCounty } from '../../geo/match.ts';
import { loadAtlas } from '../../geo/counties.ts';
import { summarySchema } from './schema.ts';

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const data = parseUpstream(summarySchema, raw, 'NISC summary.json');
  const snap = emptySnapshot(source.utility);
  const set = (data.regionDataSets ?? []).find(
    (d) => /county/i.test(d.id) || /count(y|ies)/i.test(d.description ?? ''),
  );
  const counties = new Map<string, CountyCount>();
  for (const r of set?.regions ?? []) {
    const fips =
      matchCounty(source.states[0], r.id) ??
      source.states
        .slice(1)
        .map((s) => matchCounty(s, r.id))
        .find(Boolean);
    if (!fips) {
      snap.unmatched.push(r.id);
      continue;
    }
    addCounty(counties, fips, Math.max(0, Math.round(r.numberOut ?? 0)), r.numberServed ?? null);
  }
  const atlas = loadAtlas();
  snap.incidents = (data.outages ?? []).map((o) => {
    const lat = o.outagePoint?.lat ?? null;
    const lon = o.outagePoint?.lng ?? null;
    return {
      id: String(o.id),
      fips: lat !== null && lon !== null ? (atlas.locate(lon, lat) ?? null) : null,
      customers_out: Math.max(0, Math.round(o.nbrOut ?? 0)),
      etr: toIso(o.estimateTime),
      crew_status: o.crewStatus ?? null,
      cause: o.cause ?? null,
      started_at: toIso(o.startTime),
      lat,
      lon,
      city: null,
    };
  });
  snap.counties = [...counties.values()].sort((a, b) => a.fips.localeCompare(b.fips));
  const countyOut = snap.counties.reduce((s, c) => s + c.customers_out, 0);
  snap.customers_out = set ? countyOut : snap.incidents.reduce((s, i) => s + i.customers_out, 0);
  snap.customers_served = data.totalServed ?? null;
  snap.basis = snap.counties.length > 0 ? 'county' : snap.customers_served !== null ? 'utility_total' : 'outage_only';
  return snap;
}
