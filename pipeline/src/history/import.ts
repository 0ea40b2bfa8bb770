// History importers (`outage import <kind> FILE…`). DuckDB reads the CSV (streaming, all text), every row is checked
// in SQL with a reason, and the good rows replace what they supersede in one transaction: an import never
// half-applies and re-importing never duplicates. spec/issue #4 part 1.
import path from 'node:path';
import fs from 'node:fs';
import type { Db } from '../state/db.ts';
import { UsageError } from '../errors.ts';
import { parseOe417, type Oe417Event, type ParsedRow } from './oe417.ts';
import { parseEia861, type CustomersRow, type ReliabilityRow, type TerritoryRow } from './eia861.ts';

export interface ImportSummary {
  kind: string;
  file: string;
  rows_read: number;
  rows_loaded: number;
  rows_rejected: number;
  /** the first rejected rows, with their line numbers */
  rejects: Array<{ line: number | string; reason: string }>;
  reasons: Record<string, number>;
  years: number[];
}

export type Progress = (fraction: number) => void;

const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

async function columnsOf(db: Db, file: string): Promise<string[]> {
  if (!fs.existsSync(file)) throw new UsageError(`No such file: ${file}`);
  try {
    const rows = await db.all<{ column_name: string }>(
      `DESCRIBE SELECT * FROM read_csv(${sqlString(file)}, header = true, all_varchar = true)`,
    );
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
  const [{ read, bad }] = await db.all<{ read: number; bad: number }>(
    'SELECT count(*)::BIGINT AS read, count(reason)::BIGINT AS bad FROM staged',
  );
  const rejects = await db.all<{ line: number | string; reason: string }>(
    'SELECT line, reason FROM staged WHERE reason IS NOT NULL ORDER BY ord LIMIT 20',
  );
  const reasons = await db.all<{ reason: string; n: number }>(
    'SELECT reason, count(*)::BIGINT AS n FROM staged WHERE reason IS NOT NULL GROUP BY reason ORDER BY n DESC',
  );
  return {
    kind,
    file,
    rows_read: read,
    rows_loaded: read - bad,
    rows_rejected: bad,
    rejects,
    reasons: Object.fromEntries(reasons.map((r) => [r.reason, r.n])),
    years,
  };
}

/**
 * EAGLE-I county outage CSV (fips_code, county, state, customers_out — `sum` in some years — run_start_time in UTC
 * without a suffix; total_customers from 2024). For every county in the file, its rows in the file's years are
 * replaced: a national year file replaces that year, a one-county slice replaces that county's year.
 */
export async function importEagleI(db: Db, file: string, onProgress?: Progress): Promise<ImportSummary> {
  const cols = await columnsOf(db, file);
  const count = cols.includes('customers_out') ? 'customers_out' : cols.includes('sum') ? 'sum' : null;
  const missing = [
    !cols.includes('fips_code') && 'fips_code',
    !count && 'customers_out (or sum)',
    !cols.includes('run_start_time') && 'run_start_time',
  ].filter(Boolean);
  if (missing.length)
    throw new UsageError(
      `${path.basename(file)} is not an EAGLE-I county outage file: it lacks ${missing.join(', ')} (its columns: ${cols.join(', ')}). Nothing was imported.`,
    );
  const total = cols.includes('total_customers') ? 'total_customers' : 'NULL';
  await db.run('DROP TABLE IF EXISTS staged');
  await runWithProgress(
    db,
    `CREATE TEMP TABLE staged AS
    SELECT line, line AS ord, fips, t, n, total,
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
    )`,
    onProgress,
  );
  const years = (
    await db.all<{ y: number }>('SELECT DISTINCT year(t)::INT AS y FROM staged WHERE reason IS NULL ORDER BY y')
  ).map((r) => r.y);
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
  if (!fipsCol || !custCol)
    throw new UsageError(
      `${path.basename(file)} is not an EAGLE-I MCC file: it needs County_FIPS and Customers (its columns: ${cols.join(', ')}). Nothing was imported.`,
    );
  await db.run('DROP TABLE IF EXISTS staged');
  await runWithProgress(
    db,
    `CREATE TEMP TABLE staged AS
    SELECT line, line AS ord, fips, n,
      CASE WHEN fips IS NULL THEN 'County_FIPS is not a county FIPS code'
           WHEN n IS NULL THEN 'Customers is not a whole number'
           WHEN n < 0 THEN 'Customers is negative'
           WHEN count(*) OVER (PARTITION BY fips) > 1 THEN 'County_FIPS appears more than once' END AS reason
    FROM (
      SELECT row_number() OVER () + 1 AS line,
        CASE WHEN regexp_full_match(trim("${fipsCol}"), '\\d{1,5}') THEN lpad(trim("${fipsCol}"), 5, '0') END AS fips,
        TRY_CAST(replace(trim("${custCol}"), ',', '') AS BIGINT) AS n
      FROM read_csv(${sqlString(file)}, header = true, all_varchar = true, parallel = false)
    )`,
    onProgress,
  );
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
  await db.run(
    `INSERT INTO import_log SELECT ?, ?, ?, count(*), count(*) FILTER (WHERE reason IS NULL), count(reason), ? FROM staged`,
    [kind, path.basename(file), new Date().toISOString(), years.join(',')],
  );
}

type StageType = 'VARCHAR' | 'BIGINT' | 'DOUBLE';

/** Stages rows parsed in JavaScript (spreadsheets) as `staged(ord, line, reason, …columns)`, through an appender. */
async function stageParsed<T>(
  db: Db,
  rows: ParsedRow<T>[],
  columns: Array<[keyof T & string, StageType]>,
): Promise<void> {
  await db.run('DROP TABLE IF EXISTS staged');
  await db.run(
    `CREATE TEMP TABLE staged (ord BIGINT, line VARCHAR, reason VARCHAR, ${columns.map(([c, t]) => `"${c}" ${t}`).join(', ')})`,
  );
  const a = await db.appender('staged');
  for (const r of rows) {
    a.appendBigInt(BigInt(r.ord));
    a.appendVarchar(r.line);
    if (r.reason === null) a.appendNull();
    else a.appendVarchar(r.reason);
    for (const [c, t] of columns) {
      const v = r.row?.[c] as unknown;
      if (v === null || v === undefined) a.appendNull();
      else if (t === 'VARCHAR') a.appendVarchar(String(v));
      else if (t === 'BIGINT') a.appendBigInt(BigInt(Math.round(Number(v))));
      else a.appendDouble(Number(v));
    }
    a.endRow();
  }
  a.closeSync();
}

/** Replaces the years the staged rows hold in `table`, in one transaction. */
async function replaceYears(db: Db, kind: string, file: string, table: string, select: string): Promise<number[]> {
  const years = (
    await db.all<{ y: number }>('SELECT DISTINCT year::INT AS y FROM staged WHERE reason IS NULL ORDER BY y')
  ).map((r) => r.y);
  if (years.length === 0) throw new UsageError(`${path.basename(file)} has no valid rows. Nothing was imported.`);
  await db.transaction(async () => {
    await db.run(`DELETE FROM ${table} WHERE year IN (SELECT DISTINCT year FROM staged WHERE reason IS NULL)`);
    await db.run(`INSERT INTO ${table} SELECT ${select} FROM staged WHERE reason IS NULL`);
    await logImport(db, kind, file, years);
  });
  return years;
}

/**
 * DOE OE-417 disturbance reports: the yearly Annual_Summary spreadsheets and the multi-year DOE workbook. The years
 * a file holds replace those years (the workbook and an Annual_Summary of the same year replace each other).
 */
export async function importOe417(db: Db, file: string, onProgress?: Progress): Promise<ImportSummary> {
  const { rows, sheets } = parseOe417(file);
  onProgress?.(0.5);
  if (sheets === 0)
    throw new UsageError(
      `${path.basename(file)} is not an OE-417 spreadsheet: no sheet has a "Date Event Began" (or "Date") and an "Area Affected" column. Nothing was imported.`,
    );
  await stageParsed<Oe417Event>(db, rows, [
    ['year', 'BIGINT'],
    ['began_at', 'VARCHAR'],
    ['restored_at', 'VARCHAR'],
    ['restoration', 'VARCHAR'],
    ['area', 'VARCHAR'],
    ['states', 'VARCHAR'],
    ['nerc', 'VARCHAR'],
    ['alert_criteria', 'VARCHAR'],
    ['event_type', 'VARCHAR'],
    ['cause', 'VARCHAR'],
    ['demand_loss_mw', 'DOUBLE'],
    ['customers_affected', 'BIGINT'],
  ]);
  const years = await replaceYears(
    db,
    'oe417',
    file,
    'oe417_events',
    `year, began_at::TIMESTAMP, restored_at::TIMESTAMP, restoration, area, states, nerc, alert_criteria,
    event_type, cause, demand_loss_mw, customers_affected, ${sqlString(`${path.basename(file)}`)} || ' ' || line`,
  );
  onProgress?.(1);
  return summarise(db, 'oe417', file, years);
}

/** EIA-861 Reliability, Service_Territory or Sales_Ult_Cust workbook (recognised by its headers); replaces its year. */
export async function importEia861(db: Db, file: string, onProgress?: Progress): Promise<ImportSummary> {
  const parsed = parseEia861(file);
  onProgress?.(0.5);
  if (!parsed)
    throw new UsageError(
      `${path.basename(file)} is not an EIA-861 Reliability, Service_Territory or Sales_Ult_Cust workbook (no sheet with "Data Year" and "Utility Number" headers of those files). Nothing was imported.`,
    );
  const base: Array<[string, StageType]> = [
    ['year', 'BIGINT'],
    ['utility_number', 'BIGINT'],
    ['utility_name', 'VARCHAR'],
    ['state', 'VARCHAR'],
  ];
  let years: number[];
  if (parsed.kind === 'reliability') {
    await stageParsed<ReliabilityRow>(db, parsed.rows as ParsedRow<ReliabilityRow>[], [
      ...(base as Array<[keyof ReliabilityRow, StageType]>),
      ['ownership', 'VARCHAR'],
      ['standard', 'VARCHAR'],
      ['saidi_with_med', 'DOUBLE'],
      ['saifi_with_med', 'DOUBLE'],
      ['caidi_with_med', 'DOUBLE'],
      ['saidi_without_med', 'DOUBLE'],
      ['saifi_without_med', 'DOUBLE'],
      ['caidi_without_med', 'DOUBLE'],
      ['customers', 'BIGINT'],
    ]);
    years = await replaceYears(
      db,
      'eia861',
      file,
      'eia861_reliability',
      'year, utility_number, utility_name, state, ownership, standard, saidi_with_med, saifi_with_med, caidi_with_med, saidi_without_med, saifi_without_med, caidi_without_med, customers',
    );
  } else if (parsed.kind === 'territory') {
    await stageParsed<TerritoryRow>(db, parsed.rows as ParsedRow<TerritoryRow>[], [
      ...(base as Array<[keyof TerritoryRow, StageType]>),
      ['county', 'VARCHAR'],
      ['fips', 'VARCHAR'],
    ]);
    years = await replaceYears(
      db,
      'eia861',
      file,
      'eia861_territory',
      'year, utility_number, utility_name, state, county, fips',
    );
  } else {
    await stageParsed<CustomersRow>(db, parsed.rows as ParsedRow<CustomersRow>[], [
      ...(base as Array<[keyof CustomersRow, StageType]>),
      ['part', 'VARCHAR'],
      ['service_type', 'VARCHAR'],
      ['ownership', 'VARCHAR'],
      ['customers', 'BIGINT'],
    ]);
    years = await replaceYears(
      db,
      'eia861',
      file,
      'eia861_customers',
      'year, utility_number, utility_name, part, service_type, state, ownership, customers',
    );
  }
  onProgress?.(1);
  return { ...(await summarise(db, `eia861 ${parsed.kind}`, file, years)) };
}

/**
 * EAGLE-I coverage_history.csv: year (a year, or a date such as 1/1/18), state (USPS code), total_customers,
 * min_covered, max_covered. Replaces the rows of the years and states it holds.
 */
export async function importCoverage(db: Db, file: string, onProgress?: Progress): Promise<ImportSummary> {
  const cols = await columnsOf(db, file);
  const need = ['year', 'state', 'total_customers', 'min_covered', 'max_covered'];
  const missing = need.filter((c) => !cols.includes(c));
  if (missing.length)
    throw new UsageError(
      `${path.basename(file)} is not an EAGLE-I coverage_history file: it lacks ${missing.join(', ')} (its columns: ${cols.join(', ')}). Nothing was imported.`,
    );
  await db.run('DROP TABLE IF EXISTS staged');
  const number = (c: string) => `TRY_CAST(replace(trim("${c}"), ',', '') AS DOUBLE)`;
  await runWithProgress(
    db,
    `CREATE TEMP TABLE staged AS
    SELECT line, line AS ord, year, state, total, lo, hi,
      CASE WHEN year IS NULL OR year < 2000 OR year > 2100 THEN 'year is not a year or a date'
           WHEN state IS NULL THEN 'state is not a two-letter code'
           WHEN total IS NULL OR lo IS NULL OR hi IS NULL THEN 'total_customers, min_covered or max_covered is not a number'
           WHEN total < 0 OR lo < 0 OR hi < lo THEN 'coverage figures are negative or min_covered > max_covered'
           WHEN count(*) OVER (PARTITION BY year, state) > 1 THEN 'year and state appear more than once' END AS reason
    FROM (
      SELECT row_number() OVER () + 1 AS line,
        coalesce(TRY_CAST(trim(year) AS INTEGER), year(TRY_STRPTIME(trim(year), ['%m/%d/%y', '%m/%d/%Y', '%Y-%m-%d'])))::INTEGER AS year,
        CASE WHEN regexp_full_match(trim(state), '[A-Za-z]{2}') THEN upper(trim(state)) END AS state,
        ${number('total_customers')} AS total, ${number('min_covered')} AS lo, ${number('max_covered')} AS hi
      FROM read_csv(${sqlString(file)}, header = true, all_varchar = true, parallel = false)
    )`,
    onProgress,
  );
  const years = (
    await db.all<{ y: number }>('SELECT DISTINCT year::INT AS y FROM staged WHERE reason IS NULL ORDER BY y')
  ).map((r) => r.y);
  if (years.length === 0) throw new UsageError(`${path.basename(file)} has no valid rows. Nothing was imported.`);
  await db.transaction(async () => {
    await db.run(
      'DELETE FROM eaglei_coverage WHERE (year, state) IN (SELECT (year, state) FROM staged WHERE reason IS NULL)',
    );
    await db.run('INSERT INTO eaglei_coverage SELECT year, state, total, lo, hi FROM staged WHERE reason IS NULL');
    await logImport(db, 'coverage', file, years);
  });
  return summarise(db, 'coverage', file, years);
}

/** The import kind a file's name says (the names the publishers use), for `outage start --history-dir`. */
export function importKindOf(file: string): 'eaglei' | 'mcc' | 'coverage' | 'oe417' | 'eia861' | null {
  const name = path.basename(file).toLowerCase();
  if (/^eaglei_outages_\d{4}.*\.csv$/.test(name)) return 'eaglei';
  if (/^mcc.*\.csv$/.test(name)) return 'mcc';
  if (/^coverage_history.*\.csv$/.test(name)) return 'coverage';
  if (/annual_summary.*\.xlsx?$|^doe_.*\.xlsx$/.test(name)) return 'oe417';
  if (/^(reliability|service_territory|sales_ult_cust)_\d{4}\.xlsx$/.test(name)) return 'eia861';
  return null;
}
