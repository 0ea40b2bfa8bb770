// Green Mountain Power normalize: every town with customers out is an area, placed in its county by the place table
// (town-list.ts); the counties sum the placed towns' customers out and served. The list has no headline: the
// utility's customers out and served are the towns' sums.
import type { SourceDef } from '../source-def.ts';
import { emptySnapshot, type Snapshot } from '../snapshot.ts';
import { countOf, nullish } from '../checks.ts';
import { townSnapshot, type TownRow } from '../town-list.ts';
import { readRaw, type GmpTown } from './schema.ts';

/** A town as the town list helper reads it; a count that is present but unreadable is listed, and counts as none. */
function rowOf(t: GmpTown, unmatched: string[]): TownRow {
  const out = countOf(t.customers_affected);
  if (out === null && !nullish(t.customers_affected)) unmatched.push(`${t.town_name} (unreadable count)`);
  return { name: t.town_name.trim(), state: null, out: out ?? 0, served: countOf(t.total_customers) };
}

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const snap = emptySnapshot(source.utility);
  const rows = readRaw(raw).map((t) => rowOf(t, snap.unmatched));
  return townSnapshot(snap, rows, source.states);
}
