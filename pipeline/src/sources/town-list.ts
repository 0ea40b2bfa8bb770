// Town lists (Green Mountain Power's towns, Liberty's cities, Chugach's sections): each named place with customers
// out becomes an area placed in a county by the place table (geo/place-match.ts), and the placed towns are summed per
// county, served too. Upstream names are hostile: a name is cleaned (clean-text.ts) before it is looked up. A town
// whose count cannot be read is no row at all (the caller notes it with recordCount, unreadable.ts): never a 0.
import { placeCounty } from '../geo/place-match.ts';
import { findState } from '../geo/states.ts';
import { cleanText, noCleaning, TEXT_CAPS } from './clean-text.ts';
import { CountyTally } from './checks.ts';
import type { AreaCount, Snapshot } from './snapshot.ts';
import {} from './unreadable.ts';

export interface TownRow {
  /** the name as published: the area's name and path */
  name: string;
  /** the name looked up in the place table (default: `name`); Chugach's `Anchorage - Hillside` looks up `Anchorage` */
  place?: string;
  /** the state the feed gives the town, else null: the row's states are tried in order */
  state: string | null;
  out: number;
  served: number | null;
}

const NAME = { cap: TEXT_CAPS.name, multiline: false };

/** The county of a town: in its own state when the feed names one, else in the first of `states` that has it. */
export function townCounty(row: TownRow, states: string[]): string | null {
  // Only for the look-up: the quarantine step cleans (and counts) the name the snapshot keeps.
  const name = cleanText(row.place ?? row.name, NAME, noCleaning());
  const own = row.state?.trim();
  for (const s of own ? [findState(own)?.code ?? own] : states) {
    if (!states.includes(s)) continue; // a town in a state the row does not cover is not this row's to place
    const fips = placeCounty(s, name);
    if (fips) return fips;
  }
  return null;
}

/** Adds the towns with customers out to `snap` as areas; with `counties`, every placed town counts in its county. */
export function addTowns(snap: Snapshot, rows: TownRow[], states: string[], counties: boolean): void {
  const tally = new CountyTally();
  const paths = new Set<string>();
  for (const row of rows) {
    if (row.out <= 0 && !row.served) continue;
    const fips = townCounty(row, states);
    if (fips && counties) tally.add(fips, row.out, row.served);
    if (row.out <= 0) continue;
    snap.areas.push(areaOf(row, fips, uniquePath(row, paths)));
    if (!fips) snap.unmatched.push(`${row.name}${row.state ? `, ${row.state}` : ''} (${row.out} customers out)`);
  }
  if (counties) snap.counties = tally.sorted();
}

/**
 * A town list's snapshot: its towns as areas and counties (addTowns); the list has no headline, so the utility's
 * customers out and served are the towns' sums. `county` basis unless customers are out and no town could be placed.
 * A town noted in `snap.unreadable` (its count left out of `rows`) is left out of the sums and noted beside them;
 * a list none of whose towns could be read fails the poll (requireReadable).
 */
export function townSnapshot(snap: Snapshot, rows: TownRow[], states: string[]): Snapshot {
  addTowns(snap, rows, states, true);
  const totals = townTotals(rows);
  snap.customers_out = totals.out;
  snap.customers_served = totals.served;
  snap.basis = snap.counties.length > 0 || totals.out === 0 ? 'county' : 'utility_total';
  return snap;
}

/** The rows' customers out, and served: null when any row's served is unknown. */
export function townTotals(rows: TownRow[]): { out: number; served: number | null } {
  let out = 0;
  let served: number | null = 0;
  for (const r of rows) {
    out += r.out;
    served = served === null || r.served === null ? null : served + r.served;
  }
  return { out, served: rows.length ? served : null };
}

/** `[state, town]` (or `[town]`), a town met twice numbered `#2`, so no two areas share one identity. */
function uniquePath(row: TownRow, paths: Set<string>): string[] {
  const head = row.state ? [row.state.trim()] : [];
  let step = row.name;
  for (let k = 2; paths.has(`${head[0] ?? ''}|${step}`); k += 1) step = `${row.name} #${k}`;
  paths.add(`${head[0] ?? ''}|${step}`);
  return [...head, step];
}

function areaOf(row: TownRow, fips: string | null, path: string[]): AreaCount {
  return {
    fips,
    name: row.name,
    path,
    customers_out: row.out,
    out_display: String(row.out),
    out_lower: row.out,
    out_upper: row.out,
    masked: false,
    customers_served: row.served,
    etr: null,
    bbox: null,
  };
}
