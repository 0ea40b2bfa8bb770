// Test helper: a town's county read straight from the committed data/reference/places.csv, independently of the
// connectors' look-up (geo/place-match.ts): the table's rows for the name (any case) in the state, and the county
// whose row has the largest share of the town's population.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';

const FILE = fileURLToPath(new URL('../../data/reference/places.csv', import.meta.url));
let rows: Array<Record<string, string>> | undefined;

/** FIPS of the county holding most of town `name` in `state` (USPS code), or undefined when the table lacks it. */
export function townCounty(state: string, name: string): string | undefined {
  rows ??= parse(readFileSync(FILE), { columns: true }) as Array<Record<string, string>>;
  const hits = rows.filter((r) => r.state === state && r.name.toLowerCase() === name.toLowerCase());
  if (!hits.length) return undefined;
  return hits.reduce((a, b) => (Number(b.share) > Number(a.share) ? b : a)).fips;
}
