// ODIN normalize: one record per utility × county with `metersaffected` (meters, not customers: the snapshot's
// unit says so and the notice travels to every output that uses it). FIPS from `communitydescriptor`. Utilities in
// `exclude_utility_ids` (those with an active deep row, see exclusions.ts) are dropped, so nothing counts twice.
import { SourceError } from '../../errors.ts';
import type { SourceDef } from '../source-def.ts';
import { addCounty, emptySnapshot, type CountyCount, type Snapshot } from '../snapshot.ts';
import { loadAtlas } from '../../geo/counties.ts';
import { odinRecords, recordUtility, utilityKey } from './schema.ts';
import { odinUtilities } from './utilities.ts';
import { sortedCounties } from '../checks.ts';
import { recordCount } from '../unreadable.ts';

export const ODIN_NOTICE = 'ODIN counts are meters (service points) reported to ORNL, not customers.';

/** The row's `exclude_utility_ids` option as canonical utility numbers. */
export function excludedUtilities(source: SourceDef): Set<string> {
  const v = source.options.exclude_utility_ids ?? [];
  if (!Array.isArray(v) || v.some((x) => utilityKey(x) === null)) {
    throw new SourceError(
      'config',
      `${source.id}: options.exclude_utility_ids must be a list of utility numbers, got ${JSON.stringify(v)}`,
    );
  }
  return new Set(v.map((x) => utilityKey(x) as string));
}

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const records = odinRecords(raw);
  const skip = excludedUtilities(source);
  const snap = emptySnapshot(source.utility, 'meters');
  snap.notice = ODIN_NOTICE;
  const atlas = loadAtlas();
  const counties = new Map<string, CountyCount>();
  for (const r of records) {
    const utility = recordUtility(r);
    if (utility !== null && skip.has(utility)) continue;
    const fips = (r.communitydescriptor ?? '').padStart(5, '0');
    const meters = recordCount(
      r.metersaffected,
      'metersaffected',
      `${r.name ?? '?'} in ${r.county ?? '?'}`,
      snap.unreadable,
    );
    if (meters === null) continue;
    if (!/^\d{5}$/.test(fips) || !atlas.byFips.has(fips)) {
      snap.unmatched.push(`${r.name ?? '?'} in ${r.county ?? '?'} (${r.communitydescriptor ?? 'no FIPS'})`);
      continue;
    }
    addCounty(counties, fips, meters, null);
  }
  snap.counties = sortedCounties(counties);
  snap.customers_out = snap.counties.reduce((s, c) => s + c.customers_out, 0);
  snap.basis = 'county';
  snap.by_utility = Object.fromEntries(
    odinUtilities(records)
      .filter((u) => u.utility_id !== null)
      .map((u) => [u.utility_id!, u.meters]),
  );
  return snap;
}
