// /api/v1/places: the place index the search box reads, one file per table. The same bytes every cycle (the tables
// change only with data/reference), so each is serialised once per process and each cycle carries the previous files
// over (the unchanged basis).
import { endpoint, PLACE_TABLES } from '../contract/catalogue.ts';
import { fileFor } from '../contract/urls.ts';
import { loadPlaceTables, PLACES_CREDIT, type PlaceTables } from '../geo/places.ts';
import { putJsonBasis } from './formats.ts';
import type { TreeWriter } from './tree-writer.ts';

export type PlaceTable = (typeof PLACE_TABLES)[number];

/** The `data` of one table's document (without generated_at, which putJson adds). */
export function placeDoc(table: PlaceTable, tables: PlaceTables = loadPlaceTables()): Record<string, unknown> {
  return { table, credit: PLACES_CREDIT, [table]: tables[table] };
}

/** Each table's document serialised, from one read of the tables, which are then let go (the poller keeps the bytes). */
let serialised: Map<PlaceTable, Buffer> | undefined;
function bases(): Map<PlaceTable, Buffer> {
  if (serialised) return serialised;
  const tables = loadPlaceTables();
  serialised = new Map(PLACE_TABLES.map((t) => [t, Buffer.from(JSON.stringify(placeDoc(t, tables)))]));
  return serialised;
}

export function publishPlaces(w: TreeWriter): void {
  const e = endpoint('places');
  for (const [table, basis] of bases()) putJsonBasis(w, fileFor(e, {}, 'json', table), basis);
}
