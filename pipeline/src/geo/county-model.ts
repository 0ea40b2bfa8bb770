// The modelled county customer table (data/reference/county-customers-modelled.csv): the denominator's second half.
// spec: Resources — Percentage denominator. Method and attribution: data/reference/README.md.
import type { Db } from '../state/db.ts';
import { readFileSync } from 'node:fs';
import { fromRoot } from '../package-root.ts';
import { parse } from 'csv-parse/sync';

export const MODEL_FILE = fromRoot('data/reference/county-customers-modelled.csv');

let cached: Map<string, number> | undefined;

/** fips → modelled customers; counties without a model are absent. */
export function loadCountyModel(file = MODEL_FILE): Map<string, number> {
  if (cached && file === MODEL_FILE) return cached;
  const rows = parse(readFileSync(file), { columns: true, skip_empty_lines: true, bom: true }) as Array<
    Record<string, string>
  >;
  const model = new Map<string, number>();
  for (const r of rows) {
    const customers = Number(r.customers);
    if (/^\d{5}$/.test(r.fips) && Number.isFinite(customers) && customers > 0) model.set(r.fips, customers);
  }
  if (file === MODEL_FILE) cached = model;
  return model;
}

/** The county denominator's modelled half: MCC where it has been imported, the shipped model elsewhere. */
export async function countyModel(db: Db, shipped: Map<string, number>): Promise<Map<string, number>> {
  const rows = await db.all<{ fips: string; customers: number }>('SELECT fips, customers FROM county_customers_mcc');
  if (rows.length === 0) return shipped;
  const model = new Map(shipped);
  for (const r of rows) if (r.customers > 0) model.set(r.fips, r.customers);
  return model;
}
