// The two committed tables coverage reads (built by scripts/build-eia-customers.ts, documented in
// data/eia861-2018-customers.md): EIA-861 2018 customers per utility × state, and the utilities the recorded ODIN
// capture shows reporting. Read from data/, so coverage never needs ../shared/data at run time.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { UsageError } from '../errors.ts';
import { fromRoot } from '../package-root.ts';

export const CUSTOMERS_FILE = fromRoot('data/eia861-2018-customers.csv');
export const ODIN_SAMPLE_FILE = fromRoot('data/odin-sample-utilities.csv');

export const CUSTOMER_COLUMNS = ['utility_number', 'utility_name', 'state', 'customers', 'customers_source'] as const;
export const ODIN_COLUMNS = [
  'utility_id',
  'name',
  'states',
  'records',
  'meters_out',
  'eia_utility_name',
  'source',
] as const;

export interface CustomerRow {
  utility_number: number;
  utility_name: string;
  /** postal code */
  state: string;
  /** customers on the utility's wires in the state; EIA's state adjustment rows (99999) can be negative */
  customers: number;
  /** `Sales_Ult_Cust`, `Sales_Ult_Cust (EIA state adjustment)` or `Reliability` (the ERCOT wires companies) */
  customers_source: string;
}

const customerRow = z.object({
  utility_number: z.coerce.number().int().nonnegative(),
  utility_name: z.string().min(1),
  state: z.string().regex(/^[A-Z]{2}$/, 'state must be a postal code'),
  customers: z.coerce.number().int(),
  customers_source: z.string().default(''),
});
const odinRow = z.object({ utility_id: z.string().regex(/^\d+$/, 'utility_id must be digits') }).loose();

function readTable<T>(file: string, schema: z.ZodType<T>, what: string): T[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(
      `Cannot read ${what} \`${file}\`: ${(err as Error).message}; rebuild it with \`npx tsx scripts/build-eia-customers.ts\``,
    );
  }
  const records = parse(text, { columns: true, skip_empty_lines: true, bom: true, trim: true }) as Record<
    string,
    string
  >[];
  return records.map((r, i) => {
    const p = schema.safeParse(r);
    if (!p.success)
      throw new UsageError(
        `${file} row ${i + 2}: ${p.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')}`,
      );
    return p.data;
  });
}

export function loadCustomerTable(file = CUSTOMERS_FILE): CustomerRow[] {
  return readTable(file, customerRow, 'the EIA-861 customers table');
}

/** The ODIN utility numbers of the recorded capture: what coverage counts as "reported by ODIN on a typical day". */
export function loadOdinSample(file = ODIN_SAMPLE_FILE): string[] {
  return readTable(file, odinRow, 'the ODIN sample utilities table').map((r) => String(Number(r.utility_id)));
}
