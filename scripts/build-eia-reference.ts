// Builds data/reference/eia861-utilities.csv, the EIA-861 2018 reference `outage sources check` and `sources verify`
// reconcile registry rows with (utility numbers, names, states, customers per utility × state), so that neither
// needs ../shared/data. The counties are data/reference/eia861-territory.csv (scripts/build-eia-territory.ts).
// A maintenance script, run once: it reads the two workbooks under ../shared/data/reference/eia861 (OUTAGE_SHARED_DATA
// to point elsewhere). Run: npx tsx scripts/build-eia-reference.ts. Notes: data/reference/README.md.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stringify } from 'csv-stringify/sync';
import { parseEia861, type CustomersRow, type TerritoryRow } from '../pipeline/src/history/eia861.ts';
import { EIA_UTILITY_COLUMNS, type EiaUtilityRow } from '../pipeline/src/registry/eia-reference.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SHARED = path.resolve(ROOT, process.env.OUTAGE_SHARED_DATA ?? '../shared/data');
const WORKBOOKS = path.join(SHARED, 'reference/eia861');
const OUT = 'data/reference/eia861-utilities.csv';
/** EIA's per-state adjustment rows are not a utility a feed could report for. */
const ADJUSTMENT = 99999;

function rowsOfKind<T>(file: string, kind: 'customers' | 'territory'): T[] {
  const parsed = parseEia861(file);
  if (!parsed || parsed.kind !== kind) throw new Error(`${file} is not the EIA-861 ${kind} workbook`);
  return parsed.rows.flatMap((p) => (p.row ? [p.row as T] : []));
}

/** Customers on the wires: bundled (A) and delivery-only (C); B is the same meters as C, D is Texas retail. */
const isWires = (r: CustomersRow) => (r.part === 'A' || r.part === 'C') && r.ownership !== 'Behind the Meter';

/**
 * One row per utility × state where EIA-861 2018 lists the utility (any Sales_Ult_Cust row, or service territory),
 * with its wires customers there; `customers` is null where it has none (a retailer's state, a Texas wires company).
 */
export function referenceRows(dir = WORKBOOKS): EiaUtilityRow[] {
  const rows = new Map<string, EiaUtilityRow>();
  const at = (n: number, name: string, state: string): EiaUtilityRow => {
    const key = `${n}|${state}`;
    const row = rows.get(key) ?? { utility_number: n, utility_name: name, state, customers: null };
    rows.set(key, row);
    return row;
  };
  for (const r of rowsOfKind<CustomersRow>(path.join(dir, 'Sales_Ult_Cust_2018.xlsx'), 'customers')) {
    if (r.utility_number === ADJUSTMENT) continue;
    const row = at(r.utility_number, r.utility_name, r.state);
    if (isWires(r)) row.customers = (row.customers ?? 0) + r.customers;
  }
  for (const r of rowsOfKind<TerritoryRow>(path.join(dir, 'Service_Territory_2018.xlsx'), 'territory'))
    at(r.utility_number, r.utility_name, r.state);
  return [...rows.values()].sort((a, b) => a.utility_number - b.utility_number || a.state.localeCompare(b.state));
}

function main(): void {
  const rows = referenceRows();
  fs.writeFileSync(path.join(ROOT, OUT), stringify(rows, { header: true, columns: [...EIA_UTILITY_COLUMNS] }));
  const utilities = new Set(rows.map((r) => r.utility_number)).size;
  console.log(`${OUT}: ${rows.length} utility × state rows of ${utilities} utilities, from ${WORKBOOKS}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
