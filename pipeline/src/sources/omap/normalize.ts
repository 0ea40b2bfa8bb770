// OMAP normalize: `data[]` rows are counties (nc out, tc served), `mun[]` their municipalities (areas); the headline
// `nc` string is the utility's customers out. The feed publishes no ETR, no masking and no planned outages.
import type { SourceDef } from '../source-def.ts';
import { emptySnapshot, type Snapshot } from '../snapshot.ts';
import { CountyTally, countOf } from '../checks.ts';
import { optHeadlineCount, recordCount } from '../unreadable.ts';
import { matchCounty } from '../../geo/match.ts';
import { parseTabular } from './schema.ts';

/** The county `name` names in exactly one of `states`; undefined when it names none, or counties in two states. */
function countyIn(states: string[], name: string): string | undefined {
  let found: string | undefined;
  for (const st of states) {
    const fips = matchCounty(st, name);
    if (fips === undefined) continue;
    if (found !== undefined && found !== fips) return undefined;
    found = fips;
  }
  return found;
}

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const data = parseTabular(raw, 'OMAP Tabular');
  const snap = emptySnapshot(source.utility);
  const counties = new CountyTally();
  for (const row of data.data) {
    const name = row.nm.trim();
    const out = recordCount(row.nc, 'nc', name, snap.unreadable);
    const tc = countOf(row.tc);
    const fips = countyIn(source.states, name) ?? null;
    if (!fips) snap.unmatched.push(name);
    else if (out !== null) counties.add(fips, out, tc);
    for (const m of row.mun ?? []) {
      const path = [name, m.nm.trim()];
      const mOut = recordCount(m.nc, 'municipality nc', path.join(' / '), snap.unreadable);
      if (mOut === null) continue;
      snap.areas.push({
        fips,
        name: path[1],
        path,
        customers_out: mOut,
        out_display: String(mOut),
        out_lower: mOut,
        out_upper: mOut,
        masked: false,
        customers_served: countOf(m.tc),
        etr: null,
        bbox: null,
      });
    }
  }
  snap.counties = counties.sorted();
  // The feed's headline; only without one are the counties summed, and then every county must be readable.
  const headline = optHeadlineCount(data.nc, 'nc', 'OMAP Tabular headline');
  snap.customers_out = headline ?? snap.counties.reduce((s, c) => s + c.customers_out, 0);
  // No utility-wide served figure, and the rows need not list every county: summing them would understate it.
  snap.customers_served = null;
  // An empty table is a county feed with no county out, not a feed without counties.
  snap.basis = data.data.length === 0 || snap.counties.length > 0 ? 'county' : 'utility_total';
  return snap;
}
