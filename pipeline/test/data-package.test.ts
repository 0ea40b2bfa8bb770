// data/ as committed: it matches a fresh `npm run data:build` byte for byte, every file matches the bytes and sha256 of
// its datapackage.json entry, the figures agree with the raw federal files, Frictionless (datapackage-js, the
// project's JavaScript implementation) validates the package and casts every CSV, and each Parquet equals its CSV.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { parse } from 'csv-parse/sync';
import XLSX from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildData, ROOT, type BuildResult } from '../../scripts/build-data.ts';
import { SHARED_DATA, hasSharedData, sharedPath } from './shared-data.ts';

const DATA = path.join(ROOT, 'data');
interface Resource {
  name: string;
  path: string;
  format: string;
  bytes: number;
  hash: string;
  schema: { fields: Array<{ name: string; type: string }>; primaryKey?: string[] };
}
const pkg = JSON.parse(fs.readFileSync(path.join(DATA, 'datapackage.json'), 'utf8')) as { resources: Resource[] };
const csvs = pkg.resources.filter((r) => r.format === 'csv');
const csvOf = (rel: string, dir = DATA) =>
  parse(fs.readFileSync(path.join(dir, rel)), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const sheetRows = (rel: string, sheet = 0) => {
  const wb = XLSX.read(fs.readFileSync(sharedPath(rel)));
  return XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets[wb.SheetNames[sheet]], { header: 1, raw: true });
};

// datapackage-js ships no types: the little of its API used here. A cast error (tableschema's TableSchemaError)
// carries the row and, in `errors`, one error per failing cell with its column.
interface CastError extends Error {
  rowNumber?: number;
  columnNumber?: number;
  errors?: CastError[];
}
interface FlResource {
  name: string;
  tabular: boolean;
  descriptor: { path: string; format: string };
  schema: { valid: boolean; errors: Error[] } | null;
  read(options: { cast: boolean; forceCast: boolean }): Promise<Array<unknown[] | CastError>>;
}
interface FlPackage {
  valid: boolean;
  errors: Error[];
  resources: FlResource[];
}
const { Package } = createRequire(import.meta.url)('datapackage') as {
  Package: { load(descriptor: string): Promise<FlPackage> };
};

/** Reads a resource cast against its schema; each failing cell or repeated primary key is one line of `errors`. */
async function castRows(r: FlResource): Promise<{ rows: unknown[][]; errors: string[] }> {
  const lines = (e: CastError) =>
    (e.errors?.length ? e.errors : [e]).map((x) => `row ${x.rowNumber ?? e.rowNumber}: ${x.message}`);
  try {
    // forceCast: a bad row is handed back as its error instead of ending the read, so every bad row is reported.
    const out = await r.read({ cast: true, forceCast: true });
    const rows = out.filter((x): x is unknown[] => Array.isArray(x));
    return { rows, errors: out.filter((x): x is CastError => !Array.isArray(x)).flatMap(lines) };
  } catch (err) {
    return { rows: [], errors: lines(err as CastError) };
  }
}

describe('data/ package', () => {
  it('lists every table as CSV and Parquet, each file matching its bytes and sha256, within 25 MB', () => {
    const names = pkg.resources.map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(['oe417_disturbances', 'eia861_reliability', 'sources']));
    for (const n of names.filter((x) => !x.endsWith('_parquet'))) expect(names).toContain(`${n}_parquet`);
    let total = 0;
    for (const r of pkg.resources) {
      const file = path.join(DATA, r.path);
      expect(fs.statSync(file).size, r.path).toBe(r.bytes);
      expect(`sha256:${sha256(file)}`, `${r.path}: run npm run data:build`).toBe(r.hash);
      total += r.bytes;
    }
    expect(total).toBeLessThan(25 * 1024 * 1024);
  });

  describe('Frictionless validation (datapackage-js)', () => {
    let fl: FlPackage;
    beforeAll(async () => {
      fl = await Package.load(path.join(DATA, 'datapackage.json'));
    });

    it('the descriptor passes the Data Package profile and each CSV schema the Table Schema profile', () => {
      expect(fl.errors.map(String)).toEqual([]);
      expect(fl.valid).toBe(true);
      expect(fl.resources.map((r) => r.name)).toEqual(pkg.resources.map((r) => r.name));
      const tables = fl.resources.filter((r) => r.descriptor.format === 'csv');
      expect(tables.length).toBeGreaterThanOrEqual(4);
      for (const r of tables) {
        expect(r.tabular, r.name).toBe(true);
        expect(r.schema?.errors.map(String), r.name).toEqual([]);
        expect(r.schema?.valid, r.name).toBe(true);
      }
    });

    it('every CSV casts cell by cell against its schema (types, primary keys), every row of the file read', async () => {
      expect(csvs.length).toBeGreaterThanOrEqual(4);
      for (const c of csvs) {
        const records = csvOf(c.path); // read apart from tableschema, for the count and the sums
        expect(records.length, c.path).toBeGreaterThan(0);
        expect(Object.keys(records[0]), `${c.path} header`).toEqual(c.schema.fields.map((f) => f.name));
        const { rows, errors } = await castRows(fl.resources.find((r) => r.name === c.name)!);
        expect(errors.slice(0, 10), `${c.path}: ${errors.length} cast errors`).toEqual([]);
        expect(rows.length, c.path).toBe(records.length);
        c.schema.fields.forEach((f, i) => {
          if (f.type !== 'integer' && f.type !== 'number') return;
          const cast = rows.map((r) => r[i]).filter((v) => v !== null);
          if (f.type === 'integer') expect(cast.every(Number.isInteger), `${c.path} ${f.name}`).toBe(true);
          expectSum(
            sumOf(cast as number[]),
            sumOf(
              records
                .map((r) => r[f.name])
                .filter((v) => v !== '')
                .map(Number),
            ),
          );
        });
      }
    });

    it('fails a broken copy: a letter in an integer cell and a repeated primary key, each named', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'data-package-broken-'));
      try {
        for (const rel of ['datapackage.json', ...csvs.map((r) => r.path)]) {
          fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
          fs.copyFileSync(path.join(DATA, rel), path.join(dir, rel));
        }
        // File row 6 (the header is row 1): its utility_number, the second column, gets a letter.
        const rel = 'eia861-reliability.csv';
        const lines = fs.readFileSync(path.join(dir, rel), 'utf8').split('\n');
        const broken = lines[5].replace(/^(\d{4}),(\d+),/, '$1,$2x,');
        expect(broken).not.toBe(lines[5]);
        fs.writeFileSync(path.join(dir, rel), [...lines.slice(0, 5), broken, ...lines.slice(6)].join('\n'));
        // The first county again as file row 4.
        const county = 'reference/county-customers-modelled.csv';
        const counties = fs.readFileSync(path.join(dir, county), 'utf8').split('\n');
        counties.splice(3, 0, counties[1]);
        fs.writeFileSync(path.join(dir, county), counties.join('\n'));

        const copy = await Package.load(path.join(dir, 'datapackage.json'));
        expect(copy.valid).toBe(true); // the descriptor is untouched: only the cast can see the damage
        const find = (name: string) => copy.resources.find((r) => r.name === name)!;
        const eia = await castRows(find('eia861_reliability'));
        expect(eia.errors).toHaveLength(1);
        expect(eia.errors[0]).toMatch(/^row 6: The value "\d+x" in column "utility_number" is not type "integer"/);
        expect(eia.rows.length).toBe(csvOf(rel).length - 1);
        const fips = await castRows(find('county_customers_modelled'));
        expect(fips.errors).toEqual(['row 4: Row 4 has an unique constraint violation in column "fips"']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('Parquet twins (DuckDB)', () => {
    let db: DuckDBInstance | undefined;
    let conn: DuckDBConnection;
    beforeAll(async () => {
      db = await DuckDBInstance.create(':memory:', { threads: '1' });
      conn = await db.connect();
    });
    afterAll(() => {
      conn?.closeSync();
      db?.closeSync();
    });
    const one = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJS()[0];

    it('each Parquet holds the rows of its CSV: columns, count, numeric sums, and row for row', async () => {
      expect(csvs.length).toBeGreaterThanOrEqual(4);
      for (const c of csvs) {
        const p = pkg.resources.find((r) => r.name === `${c.name}_parquet`)!;
        const records = csvOf(c.path);
        const pq = `read_parquet(${sqlText(path.join(DATA, p.path))})`;
        const names = await conn.runAndReadAll(`DESCRIBE SELECT * FROM ${pq}`);
        expect(names.getRowObjectsJS().map((r) => r.column_name)).toEqual(c.schema.fields.map((f) => f.name));
        const numeric = c.schema.fields.filter((f) => f.type === 'integer' || f.type === 'number');
        const sums = numeric.map((f) => `coalesce(sum("${f.name}"), 0)::DOUBLE AS "${f.name}"`);
        const got = await one(`SELECT ${['count(*)::DOUBLE AS n', ...sums].join(', ')} FROM ${pq}`);
        expect(got.n, p.path).toBe(records.length);
        for (const f of numeric)
          expectSum(
            got[f.name] as number,
            sumOf(
              records
                .map((r) => r[f.name])
                .filter((v) => v !== '')
                .map(Number),
            ),
          );
        // Row for row, against DuckDB's own reading of the CSV typed by the schema (both directions, duplicates count).
        const types = c.schema.fields.map((f) => `${sqlText(f.name)}: ${sqlText(DUCK[f.type])}`).join(', ');
        const csv = `read_csv(${sqlText(path.join(DATA, c.path))}, header = true, columns = {${types}})`;
        const diff = await one(
          `SELECT (SELECT count(*) FROM (FROM ${pq} EXCEPT ALL FROM ${csv}))::DOUBLE AS only_parquet,
                  (SELECT count(*) FROM (FROM ${csv} EXCEPT ALL FROM ${pq}))::DOUBLE AS only_csv`,
        );
        expect(diff, p.path).toEqual({ only_parquet: 0, only_csv: 0 });
      }
    });
  });

  it.skipIf(!hasSharedData)('OE-417 years 2015–2020 hold as many events as the DOE annual summaries list', () => {
    const rows = csvOf('oe417-disturbances.csv');
    for (let year = 2015; year <= 2020; year++) {
      const sheet = sheetRows(`history/oe417/${year}_Annual_Summary.xls`);
      const col = sheet.findIndex((r) => r.includes('Date Event Began'));
      const at = (sheet[col] as unknown[]).indexOf('Date Event Began');
      const events = sheet
        .slice(col + 1)
        .filter((r) => typeof r[at] === 'number' || /^\d{1,2}\/\d{1,2}\/\d{4}$/.test(String(r[at] ?? ''))).length;
      expect(events).toBeGreaterThan(100);
      expect(rows.filter((r) => r.year === String(year)).length, String(year)).toBe(events);
    }
    expect(rows.every((r) => /^(\d{4}-\d\d-\d\dT\d\d:\d\d:00)$/.test(r.began_at))).toBe(true);
  });

  it.skipIf(!hasSharedData)('EIA-861 2018 IEEE SAIDI with MED: same count and sum as the raw sheets', () => {
    // States and Territories sheets; the first "SAIDI With MED" of the header is under "IEEE Standard".
    const raw = [0, 1].flatMap((i) => {
      const sheet = sheetRows('reference/eia861/Reliability_2018.xlsx', i);
      const at = (sheet[1] as unknown[]).indexOf('SAIDI With MED');
      return sheet
        .slice(2)
        .map((r) => r[at])
        .filter((v): v is number => typeof v === 'number');
    });
    const table = csvOf('eia861-reliability.csv')
      .filter((r) => r.year === '2018' && r.standard === 'ieee' && r.saidi_with_med !== '')
      .map((r) => Number(r.saidi_with_med));
    expect(raw.length).toBeGreaterThan(500);
    expect(table.length).toBe(raw.length);
    expect(table.reduce((a, b) => a + b, 0)).toBeCloseTo(
      raw.reduce((a, b) => a + b, 0),
      6,
    );
  });

  describe.skipIf(!hasSharedData)('rebuild', () => {
    let out = '';
    let built: BuildResult;
    beforeAll(async () => {
      out = fs.mkdtempSync(path.join(os.tmpdir(), 'data-build-'));
      built = await buildData(out, SHARED_DATA);
    });
    afterAll(() => {
      if (out) fs.rmSync(out, { recursive: true, force: true });
    });

    it('a fresh build gives the committed bytes (run `npm run data:build` after changing an input)', () => {
      expect(built.files.length).toBe(pkg.resources.length + 1);
      for (const f of built.files) expect(sha256(path.join(out, f)), f).toBe(sha256(path.join(DATA, f)));
      expect(built.rows.oe417_disturbances).toBe(csvOf('oe417-disturbances.csv').length);
    });
  });

  it('rebuilds after a registry edit without ../shared/data: the tables built from it kept as committed', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'data-build-edited-'));
    try {
      fs.cpSync(DATA, dir, { recursive: true });
      const registry = path.join(dir, 'sources.csv');
      fs.writeFileSync(
        registry,
        fs.readFileSync(registry, 'utf8').replace('EIA-861 2018,active', 'EIA-861 2018 ,active'),
      );
      const result = await buildData(dir, path.join(dir, 'no-shared-data'), dir);
      expect(result.kept).toEqual(['oe417_disturbances', 'eia861_reliability']);
      const rebuilt = JSON.parse(fs.readFileSync(path.join(dir, 'datapackage.json'), 'utf8')) as typeof pkg;
      const entry = (p: typeof pkg, name: string) => p.resources.find((r) => r.name === name);
      for (const name of ['oe417_disturbances', 'eia861_reliability_parquet'])
        expect(entry(rebuilt, name)).toEqual(entry(pkg, name));
      expect(entry(rebuilt, 'sources')?.hash).toBe(`sha256:${sha256(registry)}`);
      expect(entry(rebuilt, 'sources')?.hash).not.toBe(entry(pkg, 'sources')?.hash);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

const DUCK: Record<string, string> = { string: 'VARCHAR', integer: 'BIGINT', number: 'DOUBLE', datetime: 'TIMESTAMP' };
const sqlText = (s: string) => `'${s.replace(/'/g, "''")}'`;
const sumOf = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
/** Sums of the same values taken in another order agree to rounding. */
const expectSum = (got: number, want: number) =>
  expect(Math.abs(got - want), `${got} vs ${want}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(want)));
