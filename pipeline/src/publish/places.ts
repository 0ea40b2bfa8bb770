// /api/v1/places: the place index the search box reads, one file per table. The same bytes every cycle (the tables
// change only with data/reference), so each is serialised once per process and each cycle carries the previous files
// over (the unchanged basis).
import { endpoint, PLACE_TABLES } from '../contract/catalogue.ts';
import { fileFor } from '../contract/urls.ts';
import { loadPlaceTables, PLACES_CREDIT } from '../geo/places.ts';
import { putJsonBasis } from './formats.ts';
import type { TreeWriter } from './tree-writer.ts';

export type PlaceTable = (typeof PLACE_TABLES)[number];

/** The `data` of one table's document (without generated_at, which putJson adds). */
export function placeDoc(table: PlaceTable): Record<string, unknown> {
  return { table, credit: PLACES_CREDIT, [table]: loadPlaceTables()[table] };
}

const serialised = new Map<PlaceTable, Buffer>();
const basisOf = (table: PlaceTable): Buffer =>
  serialised.get(table) ?? serialised.set(table, Buffer.from(JSON.stringify(placeDoc(table)))).get(table)!;

export function publishPlaces(w: TreeWriter): void {
  const e = endpoint('places');
  for (const table of PLACE_TABLES) putJsonBasis(w, fileFor(e, {}, 'json', table), basisOf(table));
}
