// Legacy iFactor thematic areas (Duke, Georgia Power c. 2017): one record per county polygon, counts as comma strings.
// A county drawn as several polygons repeats the same record per polygon (Georgia Power: LEE ×2, TAYLOR ×3), so a
// title counts once. Titles are "NC-ONSLOW" (state prefix) or a bare "IRWIN" (matched over the source's states).
// Polygons (encoded polylines in geom.a) and zoom points are not read: names place the counties.
import type { SourceDef } from '../source-def.ts';
import { addCounty, emptySnapshot, type CountyCount, type Snapshot } from '../snapshot.ts';
import { findState } from '../../geo/states.ts';
import { readServed, recordReadCount, type Summed } from './count.ts';
import { countyIn } from './places.ts';
import { parseThematic } from './schema.ts';

/** "SC-YORK" → (["SC"], "YORK"); a title without a state prefix is matched over the source's states. */
function splitTitle(title: string, states: string[]): { states: string[]; name: string } {
  const m = /^([A-Za-z]{2})-(.+)$/.exec(title);
  const st = m ? findState(m[1]) : undefined;
  return st ? { states: [st.code], name: m![2] } : { states, name: title };
}

/** The counties of the thematic areas; the total is their sum, so every record that cannot be read is in `summed`. */
export function normalizeThematic(raw: unknown, source: SourceDef, floor: number): { snap: Snapshot; summed: Summed } {
  const data = parseThematic(raw, 'iFactor thematic_areas');
  const snap = emptySnapshot(source.utility);
  const counties = new Map<string, CountyCount>();
  const seen = new Set<string>();
  for (const item of data.file_data) {
    const title = (item.title ?? item.id ?? '').trim();
    if (!title || seen.has(title)) continue;
    seen.add(title);
    const desc = Array.isArray(item.desc) ? item.desc[0] : item.desc;
    // A count that cannot be read makes no county, never one at 0: noted instead.
    const count = recordReadCount(desc?.cust_a, floor, 'cust_a', title, snap.unreadable);
    if (!count) continue;
    const { states, name } = splitTitle(title, source.states);
    const fips = countyIn(states, name);
    if (!fips) {
      snap.unmatched.push(title);
      continue;
    }
    addCounty(counties, fips, count.out, readServed(desc?.cust_s));
  }
  snap.counties = [...counties.values()].sort((a, b) => a.fips.localeCompare(b.fips));
  snap.customers_out = snap.counties.reduce((s, c) => s + c.customers_out, 0);
  const served = snap.counties.map((c) => c.customers_served);
  snap.customers_served = served.length && served.every((v) => v !== null) ? served.reduce((s, v) => s! + v!, 0) : null;
  snap.basis = 'county';
  return { snap, summed: { what: 'iFactor thematic_areas', notes: snap.unreadable } };
}
