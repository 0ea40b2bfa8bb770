// OMAP normalize: `data[]` rows are counties (nc out, tc served), `mun[]` their municipalities (areas); the headline
// `nc` string is the utility's customers out. The feed publishes no ETR, no masking and no planned outages.
import type { SourceDef } from '../registry.ts';
import { addCounty, emptySnapshot, toCount, type CountyCount, type Snapshot } from '../snapshot.ts';
import { matchCounty } from '../../geo/match.ts';
import { parseTabular } from './schema.ts';

/** The county `name` names in exactly one of `states`; undefined when it names none, or counties in two states. */
function countyIn(states: string[], name: string): string | undefined {
  const found = new Set(states.map((st) => matchCounty(st, name)).filter((f) => f !== undefined));
  return found.size === 1 ? [...found][0] : undefined;
}

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const data = parseTabular(raw, 'OMAP Tabular');
  const snap = emptySnapshot(source.utility);
  const counties = new Map<string, CountyCount>();
  for (const row of data.data) {
    const name = row.nm.trim();
    const out = toCount(row.nc);
    const tc = toCount(row.tc);
    const fips = countyIn(source.states, name) ?? null;
    if (!fips || out === null) snap.unmatched.push(out === null ? `${name} (unreadable count)` : name);
    else addCounty(counties, fips, out, tc);
    for (const m of row.mun ?? []) {
      const mOut = toCount(m.nc);
      const path = [name, m.nm.trim()];
      if (mOut === null) {
        snap.unmatched.push(`${path.join(' / ')} (unreadable count)`);
        continue;
      }
      snap.areas.push({
        fips,
        name: path[1],
        path,
        customers_out: mOut,
        out_display: String(mOut),
        out_lower: mOut,
        out_upper: mOut,
        masked: false,
        customers_served: toCount(m.tc),
        etr: null,
        bbox: null,
      });
    }
  }
  snap.counties = [...counties.values()].sort((a, b) => a.fips.localeCompare(b.fips));
  snap.customers_out = toCount(data.nc) ?? snap.counties.reduce((s, c) => s + c.customers_out, 0);
  // No utility-wide served figure, and the rows need not list every county: summing them would understate it.
  snap.customers_served = null;
  // An empty table is a county feed with no county out, not a feed without counties.
  snap.basis = data.data.length === 0 || snap.counties.length > 0 ? 'county' : 'utility_total';
  return snap;
}
