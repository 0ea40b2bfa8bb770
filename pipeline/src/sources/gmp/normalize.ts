// Green Mountain Power normalize: every town with customers out is an area, placed in its county by the place table
// (town-list.ts); the counties sum the placed towns' customers out and served. The list has no headline: the
// utility's customers out and served are the towns' sums, so a town whose count cannot be read fails the poll.
import type { SourceDef } from '../source-def.ts';
import { emptySnapshot, type Snapshot } from '../snapshot.ts';
import { countOf } from '../checks.ts';
import { townSnapshot, type TownRow } from '../town-list.ts';
import { recordCount } from '../unreadable.ts';
import { readRaw, type GmpTown } from './schema.ts';

/** A town as the town list helper reads it; null, noted in `unreadable`, when its count cannot be read (never 0). */
function rowOf(t: GmpTown, unreadable: string[]): TownRow | null {
  const out = recordCount(t.customers_affected, 'customers_affected', `town ${t.town_name.trim()}`, unreadable);
  return out === null ? null : { name: t.town_name.trim(), state: null, out, served: countOf(t.total_customers) };
}

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const snap = emptySnapshot(source.utility);
  const rows = readRaw(raw).flatMap((t) => rowOf(t, snap.unreadable) ?? []);
  return townSnapshot(snap, rows, source.states);
}
