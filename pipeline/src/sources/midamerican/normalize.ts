// MidAmerican normalize: each county row is that county's customers out and served; names carry no state, so each
// is looked up in the row's states in order (IA first). No outage points or ids: no incidents. The feed has no
// headline: customers out is the rows' sum, so a row whose count cannot be read fails the poll naming the field.
import type { SourceDef } from '../source-def.ts';
import { addCounty, emptySnapshot, type CountyCount, type Snapshot } from '../snapshot.ts';
import { matchCounty } from '../../geo/match.ts';
import { countOf, sortedCounties } from '../checks.ts';
import { recordCount } from '../unreadable.ts';
import { readRaw } from './schema.ts';

/** FIPS of `name` in the first of `states` that has such a county, else undefined. */
function countyIn(states: string[], name: string): string | undefined {
  for (const state of states) {
    const fips = matchCounty(state, name);
    if (fips) return fips;
  }
  return undefined;
}

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const rows = readRaw(raw);
  const snap = emptySnapshot(source.utility);
  const counties = new Map<string, CountyCount>();
  const lost = { rows: 0, out: 0 };
  let out = 0;
  for (const r of rows) {
    const name = r.CountyNam?.trim() || '(no county name)';
    // A count that cannot be read is noted, never guessed (nor counted as 0 customers out).
    const n = recordCount(r.NumOutages, 'NumOutages', `county ${name}`, snap.unreadable);
    if (n === null) continue;
    out += n;
    const fips = countyIn(source.states, name);
    if (fips) addCounty(counties, fips, n, countOf(r.PremiseCount));
    else {
      snap.unmatched.push(name);
      lost.rows += 1;
      lost.out += n;
    }
  }
  if (lost.out > 0) snap.unmatched.unshift(`${lost.rows} county row(s) not placed (${lost.out} customers out)`);
  snap.counties = sortedCounties(counties);
  // Every row's customers are out, placed or not; the feed has no headline of its own.
  snap.customers_out = out;
  // Null, not the county sum: the list is believed to hold only counties with outages (README: customers_served).
  snap.customers_served = null;
  snap.basis = 'county';
  return snap;
}
