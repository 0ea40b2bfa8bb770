// ODIN normalize: one record per utility × county with `metersaffected` (meters, not customers: the snapshot's
// unit says so and the notice travels to every output that uses it). FIPS from `communitydescriptor`.
import type { SourceDef } from '../registry.ts';
import { addCounty, emptySnapshot, type CountyCount, type Snapshot } from '../snapshot.ts';
import { parseUpstream } from '../parse.ts';
import { loadAtlas } from '../../geo/counties.ts';
import { pageSchema } from './schema.ts';

export const ODIN_NOTICE = 'ODIN counts are meters (service points) reported to ORNL, not customers.';

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const data = parseUpstream(pageSchema, raw, 'ODIN records');
  const snap = emptySnapshot(source.utility, 'meters');
  snap.notice = ODIN_NOTICE;
  const atlas = loadAtlas();
  const skip = new Set(((source.options.exclude_utility_ids ?? []) as unknown[]).map(String));
  const counties = new Map<string, CountyCount>();
  for (const r of data.results) {
    if (r.utility_id !== null && r.utility_id !== undefined && skip.has(String(r.utility_id))) continue;
    const fips = (r.communitydescriptor ?? '').padStart(5, '0');
    const meters = r.metersaffected;
    if (!/^\d{5}$/.test(fips) || !atlas.byFips.has(fips) || typeof meters !== 'number' || meters < 0) {
      snap.unmatched.push(`${r.name ?? '?'} in ${r.county ?? '?'} (${r.communitydescriptor ?? 'no FIPS'})`);
      continue;
    }
    addCounty(counties, fips, Math.round(meters), null);
  }
  snap.counties = [...counties.values()].sort((a, b) => a.fips.localeCompare(b.fips));
  snap.customers_out = snap.counties.reduce((s, c) => s + c.customers_out, 0);
  snap.basis = 'county';
  return snap;
}
