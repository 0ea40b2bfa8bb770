// History importers (`outage import <kind> FILE…`). DuckDB reads the CSV (streaming, all text), every row is checked
// in SQL with a reason, and the good rows replace what they supersede in one transaction: an import never
// half-applies and re-importing never duplicates. spec/issue #4 part 1.
import path from 'node:path';
import fs from 'node:fs';
import type { Db } from '../state/db.ts';
import { UsageError } from '../errors.ts';

export interface ImportSummary {
  kind: string;
  file: string;
  rows_read: number;
  rows_loaded: number;
  rows_rejected: number;
  /** the first rejected rows, with their line numbers */
  rejects: Array<{ line: number; reason: string }>;
  reasons: Record<string, number>;
  years: number[];
}

export type Progress = (fraction: number) => void;

const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

async function columnsOf(db: Db, file: string): Promise<string[]> {
  if (!fs.existsSync(file)) throw new UsageError(`No such file: ${file}`);
  try {
    const rows = await db.all<{ column_name: string }>(`DESCRIBE SELECT * FROM read_csv(${sqlString(file)}, header = true, all_varchar = true)`);
    return rows.map((r) => r.column_name.replace(/^\uFEFF/, '').trim());
  } catch (err) {
    throw new UsageError(`${path.basename(file)} is not a readable CSV file: ${(err as Error).message.split('\n')[0]}`);
  }
}

/** Runs a long statement, reporting DuckDB's own progress. File order is kept so row numbers are line numbers. */
async function runWithProgress(db: Db, sql: string, onProgress?: Progress): Promise<void> {
  await db.run('SET preserve_insertion_order = true');
  const pending = await db.conn.start(sql);
  let last = 0;
  while (pending.runTask() !== 0) {
    const now = Date.now();
    if (onProgress && now - last > 200) {
      last = now;
      const p = db.conn.progress;
      if (p.percentage >= 0) onProgress(p.percentage / 100);
    }
    await new Promise((r) => setImmediate(r));
  }
  await pending.getResult();
  await db.run('SET preserve_insertion_order = false');
  onProgress?.(1);
}

async function summarise(db: Db, kind: string, file: string, years: number[]): Promise<ImportSummary> {
  const [{ read, bad }] = await db.all<{ read: number; bad: number }>('SELECT count(*)::BIGINT AS read, count(reason)::BIGINT AS bad FROM staged');
  const rejects = await db.all<{ line: number; reason: string }>('SELECT line::BIGINT AS line, reason FROM staged WHERE reason IS NOT NULL ORDER BY line LIMIT 20');
  const reasons = await db.all<{ reason: string; n: number }>('SELECT reason, count(*)::BIGINT AS n FROM staged WHERE reason IS NOT NULL GROUP BY reason ORDER BY n DESC');
  return { kind, file, rows_read: read, rows_loaded: read - bad, rows_rejected: bad, rejects, reasons: Object.fromEntries(reasons.map((r) => [r.reason, r.n])), years };
}

/**
 * EAGLE-I county outage CSV (fips_code, county, state, customers_out — `sum` in some years — run_start_time in UTC
 * without a suffix; total_customers from 2024). For every county in the file, its rows in the file's years are
 * replaced: a national year file replaces that year, a one-county slice replaces that county's year.
 */
export async function importEagleI(db: Db, file: string, onProgress?: Progress): Promise<ImportSummary> {
  const cols = await columnsOf(db, file);
  const count = cols.includes('customers_out') ? 'customers_out' : cols.includes('sum') ? 'sum' : null;
  const missing = [!cols.includes('fips_code') && 'fips_code', !count && 'customers_out (or sum)', !cols.includes('run_start_time') && 'run_start_time'].filter(Boolean);
  if (missing.length) throw new UsageError(`${path.basename(file)} is not an EAGLE-I county outage file: it lacks ${missing.join(', ')} (its columns: ${cols.join(', ')}). Nothing was imported.`);
  const total = cols.includes('total_customers') ? 'total_customers' : 'NULL';
  await db.run('DROP TABLE IF EXISTS staged');
  await runWithProgress(db, `CREATE TEMP TABLE staged AS
    SELECT line, fips, t, n, total,
      CASE WHEN fips IS NULL THEN 'fips_code is not a county FIPS code'
           WHEN t IS NULL THEN 'run_start_time is not a date-time'
           WHEN n IS NULL THEN 'customers out is not a whole number'
           WHEN n < 0 THEN 'customers out is negative' END AS reason
    FROM (
      SELECT row_number() OVER () + 1 AS line,
        CASE WHEN regexp_full_match(trim(fips_code), '\\d{1,5}') THEN lpad(trim(fips_code), 5, '0') END AS fips,
        TRY_CAST(trim(run_start_time) AS TIMESTAMP) AS t,
        TRY_CAST(replace(trim("${count}"), ',', '') AS INTEGER) AS n,
        TRY_CAST(${total === 'NULL' ? 'NULL' : `trim(${total})`} AS INTEGER) AS total
      FROM read_csv(${sqlString(file)}, header = true, all_varchar = true, parallel = false)
    )`, onProgress);
  const years = (await db.all<{ y: number }>('SELECT DISTINCT year(t)::INT AS y FROM staged WHERE reason IS NULL ORDER BY y')).map((r) => r.y);
  await db.transaction(async () => {
    await db.run(`DELETE FROM eaglei_outages WHERE fips IN (SELECT DISTINCT fips FROM staged WHERE reason IS NULL)
      AND year(run_start_time) IN (SELECT DISTINCT year(t) FROM staged WHERE reason IS NULL)`);
    await db.run('INSERT INTO eaglei_outages SELECT fips, t, n, total FROM staged WHERE reason IS NULL');
    await logImport(db, 'eaglei', file, years);
  });
  return summarise(db, 'eaglei', file, years);
}

/** EAGLE-I modelled county customers (MCC.csv: County_FIPS unpadded, Customers; BOM, CRLF). Replaces the table. */
export async function importMcc(db: Db, file: string, onProgress?: Progress): Promise<ImportSummary> {
  const cols = await columnsOf(db, file);
  const fipsCol = cols.find((c) => /^county_fips$/i.test(c));
  const custCol = cols.find((c) => /^customers$/i.test(c));
  if (!fipsCol || !custCol) throw new UsageError(`${path.basename(file)} is not an EAGLE-I MCC file: it needs County_FIPS and Customers (its columns: ${cols.join(', ')}). Nothing was imported.`);
  await db.run('DROP TABLE IF EXISTS staged');
  await runWithProgress(db, `CREATE TEMP TABLE staged AS
    SELECT line, fips, n,
      CASE WHEN fips IS NULL THEN 'County_FIPS is not a county FIPS code'
           WHEN n IS NULL THEN 'Customers is not a whole number'
           WHEN n < 0 THEN 'Customers is negative'
           WHEN count(*) OVER (PARTITION BY fips) > 1 THEN 'County_FIPS appears more than once' END AS reason
    FROM (
      SELECT row_number() OVER () + 1 AS line,
        CASE WHEN regexp_full_match(trim("${fipsCol}"), '\\d{1,5}') THEN lpad(trim("${fipsCol}"), 5, '0') END AS fips,
        TRY_CAST(replace(trim("${custCol}"), ',', '') AS BIGINT) AS n
      FROM read_csv(${sqlString(file)}, header = true, all_varchar = true, parallel = false)
    )`, onProgress);
  const [{ good }] = await db.all<{ good: number }>('SELECT count(*)::BIGINT AS good FROM staged WHERE reason IS NULL');
  if (good === 0) throw new UsageError(`${path.basename(file)} has no valid rows. Nothing was imported.`);
  await db.transaction(async () => {
    await db.run('DELETE FROM county_customers_mcc');
    await db.run('INSERT INTO county_customers_mcc SELECT fips, n FROM staged WHERE reason IS NULL');
    await logImport(db, 'mcc', file, []);
  });
  return summarise(db, 'mcc', file, []);
}

async function logImport(db: Db, kind: string, file: string, years: number[]): Promise<void> {
  await db.run(`INSERT INTO import_log SELECT ?, ?, ?, count(*), count(*) FILTER (WHERE reason IS NULL), count(reason), ? FROM staged`, [kind, path.basename(file), new Date().toISOString(), years.join(',')]);
}

/** The county denominator's modelled half: MCC where it has been imported, the shipped model elsewhere. */
export async function countyModel(db: Db, shipped: Map<string, number>): Promise<Map<string, number>> {
  const rows = await db.all<{ fips: string; customers: number }>('SELECT fips, customers FROM county_customers_mcc');
  if (rows.length === 0) return shipped;
  const model = new Map(shipped);
  for (const r of rows) if (r.customers > 0) model.set(r.fips, r.customers);
  return model;
}
