// PGE normalize: each county row's totalCustomersImpacted goes to its Oregon county by name; customers_out is the sum
// of the rows (the feed has no total of its own). No incidents: the feed's ZIP points are per-ZIP sums, not outages.
import type { SourceDef } from '../source-def.ts';
import { addCounty, emptySnapshot, type CountyCount, type Snapshot } from '../snapshot.ts';
import { matchCounty } from '../../geo/match.ts';
import { sortedCounties } from '../checks.ts';
import { recordCount } from '../unreadable.ts';
import { readRaw } from './schema.ts';

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const rows = readRaw(raw);
  const snap = emptySnapshot(source.utility);
  const states = source.states.length > 0 ? source.states : ['OR'];
  const counties = new Map<string, CountyCount>();
  let total = 0;
  for (const row of rows) {
    const name = row.county.trim() || '(blank county)';
    const out = recordCount(row.totalCustomersImpacted, 'totalCustomersImpacted', name, snap.unreadable);
    if (out === null) continue;
    // A name that places nowhere still counts in the utility's total: its customers are out all the same.
    total += out;
    const fips = countyOf(states, name);
    if (fips) addCounty(counties, fips, out, null);
    else snap.unmatched.push(`${name} (${out} customers out)`);
  }
  snap.counties = sortedCounties(counties);
  snap.customers_out = total;
  snap.basis = 'county';
  return snap;
}

/** The first of the row's states that has a county of this name (names carry no state). */
function countyOf(states: string[], name: string): string | undefined {
  for (const state of states) {
    const fips = matchCounty(state, name);
    if (fips) return fips;
  }
  return undefined;
}
