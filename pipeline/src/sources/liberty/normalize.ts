// Liberty normalize: every city with customers out is an area, placed in a county of the state the row gives it (one
// of the registry row's states) by the place table (town-list.ts); the counties sum the placed cities' customers out
// and served. The summary has no headline: the utility's customers out and served are the cities' sums.
import type { SourceDef } from '../source-def.ts';
import { emptySnapshot, type Snapshot } from '../snapshot.ts';
import { countOf, nullish } from '../checks.ts';
import { townSnapshot, type TownRow } from '../town-list.ts';
import { readRaw, type LibertyCity } from './schema.ts';

/** A city as the town list helper reads it; a count that is present but unreadable is listed, and counts as none. */
function rowOf(c: LibertyCity, unmatched: string[]): TownRow {
  const out = countOf(c.customer_affected);
  if (out === null && !nullish(c.customer_affected)) unmatched.push(`${c.city} (unreadable count)`);
  return { name: c.city.trim(), state: c.state?.trim() || null, out: out ?? 0, served: countOf(c.customer_served) };
}

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const snap = emptySnapshot(source.utility);
  const rows = readRaw(raw).map((c) => rowOf(c, snap.unmatched));
  return townSnapshot(snap, rows, source.states);
}
