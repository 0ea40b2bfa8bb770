// Builds the two tables `outage coverage` reads, so coverage never needs ../shared/data at run time:
//  - data/eia861-2018-customers.csv: EIA-861 2018 customers per utility × state (public-domain federal facts);
//  - data/odin-sample-utilities.csv: the utilities a recorded ODIN capture shows reporting (the ODIN estimate).
// A maintenance script: it reads ../shared/data. Run: npx tsx scripts/build-eia-customers.ts. Rules: data/eia861-2018-customers.md.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'csv-stringify/sync';
import { readWorkbook } from '../pipeline/src/history/spreadsheet.ts';
import { parseCustomers, parseReliability } from '../pipeline/src/history/eia861.ts';
import { odinRecords } from '../pipeline/src/sources/odin/schema.ts';
import { odinUtilities } from '../pipeline/src/sources/odin/utilities.ts';
import { CUSTOMER_COLUMNS, ODIN_COLUMNS, type CustomerRow } from '../pipeline/src/coverage/tables.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SHARED = path.resolve(ROOT, process.env.OUTAGE_SHARED_DATA ?? '../shared/data');
const EIA = path.join(SHARED, 'reference/eia861');
const ODIN_SAMPLE = 'payloads/odin/odin-records-sample.json';
/** EIA's per-state adjustment rows (utility number 99999): kept, so each state sums to EIA's state total. */
const ADJUSTMENT = 99999;

/** Customers on each utility's wires: parts A (bundled) and C (delivery-only); B (energy-only) is the same meters as C. */
function salesRows(): Map<string, CustomerRow> {
  const rows = new Map<string, CustomerRow>();
  for (const { row: r } of parseCustomers(readWorkbook(path.join(EIA, 'Sales_Ult_Cust_2018.xlsx')))) {
    // Part D is Texas retail providers' customers: they are on the ERCOT wires companies' lines, counted below.
    if (!r || (r.part !== 'A' && r.part !== 'C') || r.ownership === 'Behind the Meter') continue;
    const key = `${r.utility_number}|${r.state}`;
    const source = r.utility_number === ADJUSTMENT ? 'Sales_Ult_Cust (EIA state adjustment)' : 'Sales_Ult_Cust';
    const prev = rows.get(key) ?? {
      utility_number: r.utility_number,
      utility_name: r.utility_name,
      state: r.state,
      customers: 0,
      customers_source: source,
    };
    rows.set(key, { ...prev, customers: prev.customers + r.customers });
  }
  return rows;
}

/** The ERCOT wires companies file no Sales_Ult_Cust rows; Reliability_2018 gives each one's customers. */
function wiresOnlyRows(sales: Map<string, CustomerRow>): CustomerRow[] {
  const withSales = new Set([...sales.values()].filter((r) => r.customers > 0).map((r) => r.utility_number));
  const out = new Map<string, CustomerRow>();
  for (const { row: r } of parseReliability(readWorkbook(path.join(EIA, 'Reliability_2018.xlsx')))) {
    if (!r?.customers || withSales.has(r.utility_number)) continue;
    const key = `${r.utility_number}|${r.state}`;
    const prev = out.get(key);
    // one row per standard (IEEE and the utility's own): the customers are the same, keep the larger
    if (!prev || r.customers > prev.customers)
      out.set(key, {
        utility_number: r.utility_number,
        utility_name: r.utility_name,
        state: r.state,
        customers: r.customers,
        customers_source: 'Reliability',
      });
  }
  return [...out.values()];
}

function writeCsv(rel: string, columns: readonly string[], rows: object[]): void {
  fs.writeFileSync(path.join(ROOT, rel), stringify(rows, { header: true, columns: [...columns] }));
}

function main(): void {
  const sales = salesRows();
  const wires = wiresOnlyRows(sales);
  const rows = [...sales.values(), ...wires]
    .filter((r) => r.customers !== 0)
    .sort((a, b) => a.state.localeCompare(b.state) || a.utility_number - b.utility_number);
  writeCsv('data/eia861-2018-customers.csv', CUSTOMER_COLUMNS, rows);
  const total = rows.reduce((s, r) => s + r.customers, 0);
  console.log(
    `data/eia861-2018-customers.csv: ${rows.length} utility × state rows, ${total.toLocaleString('en-US')} customers; from Reliability: ${wires.map((w) => `${w.utility_number} ${w.utility_name} (${w.customers.toLocaleString('en-US')})`).join(', ')}`,
  );

  const names = new Map(rows.map((r) => [String(r.utility_number), r.utility_name]));
  const odin = odinUtilities(odinRecords(JSON.parse(fs.readFileSync(path.join(SHARED, ODIN_SAMPLE), 'utf8'))));
  const odinRows = odin.map((u) => ({
    utility_id: u.utility_id ?? '',
    name: u.name,
    states: u.states.join(';'),
    records: u.records,
    meters_out: u.meters,
    eia_utility_name: u.utility_id ? (names.get(u.utility_id) ?? '') : '',
    source: `${ODIN_SAMPLE} (outage-atlas spikes/odin @ 36d5e72)`,
  }));
  writeCsv('data/odin-sample-utilities.csv', ODIN_COLUMNS, odinRows);
  const unknown = odinRows.filter((r) => !r.eia_utility_name).map((r) => `${r.utility_id} ${r.name}`);
  console.log(
    `data/odin-sample-utilities.csv: ${odinRows.length} utilities${unknown.length ? `; not an EIA-861 2018 utility with customers: ${unknown.join(', ')}` : ''}`,
  );
}

main();
