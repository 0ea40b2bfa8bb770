// Liberty normalize: every city with customers out is an area, placed in a county of the state the row gives it (one
// of the registry row's states) by the place table (town-list.ts); the counties sum the placed cities' customers out
// and served. The summary has no headline: the utility's customers out and served are the cities' sums, so a city
// whose count cannot be read fails the poll.
import type { SourceDef } from '../source-def.ts';
import { emptySnapshot, type Snapshot } from '../snapshot.ts';
import { countOf } from '../checks.ts';
import { townSnapshot, type TownRow } from '../town-list.ts';
import { recordCount } from '../unreadable.ts';
import { readRaw, type LibertyCity } from './schema.ts';

/** A city as the town list helper reads it; null, noted in `unreadable`, when its count cannot be read (never 0). */
function rowOf(c: LibertyCity, unreadable: string[]): TownRow | null {
  const out = recordCount(c.customer_affected, 'customer_affected', `city ${c.city.trim()}`, unreadable);
  if (out === null) return null;
  return { name: c.city.trim(), state: c.state?.trim() || null, out, served: countOf(c.customer_served) };
}

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const snap = emptySnapshot(source.utility);
  const rows = readRaw(raw).flatMap((c) => rowOf(c, snap.unreadable) ?? []);
  return townSnapshot(snap, rows, source.states);
}
