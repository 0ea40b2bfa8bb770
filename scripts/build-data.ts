// `npm run data:build`: rebuilds the committed tables of data/ (CSV + Parquet + datapackage.json) from ../shared/data
// and the registry files in data/, the same bytes on every run (sorted rows, one DuckDB thread, no timestamps).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { parseOe417 } from '../pipeline/src/history/oe417.ts';
import { parseEia861, type ReliabilityRow } from '../pipeline/src/history/eia861.ts';
import { PACKAGE, TABLES, type Row, type Table } from './build-data-tables.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SHARED = path.resolve(ROOT, process.env.OUTAGE_SHARED_DATA || '../shared/data');

export class DataBuildError extends Error {}

/** OE-417 events 2002–2023 from the DOE multi-year workbook, in time order (ties keep the workbook's order). */
function oe417Rows(shared: string): { rows: Row[]; rejected: number } {
  const file = path.join(shared, 'history/oe417/DOE_Electric_Disturbance_Events_2002-2023.xlsx');
  const parsed = parseOe417(file).rows;
  const iso = (s: string | null) => (s === null ? null : s.replace(' ', 'T'));
  const rows = parsed
    .filter((p) => p.row)
    .map((p) => ({
      ...p.row!,
      began_at: iso(p.row!.began_at),
      restored_at: iso(p.row!.restored_at),
      source_row: p.line,
    }))
    .map((r, ord) => ({ r, ord }))
    .sort((a, b) => (a.r.began_at! < b.r.began_at! ? -1 : a.r.began_at! > b.r.began_at! ? 1 : a.ord - b.ord))
    .map(({ r }) => r as unknown as Row);
  return { rows, rejected: parsed.length - rows.length };
}

/** EIA-861 reliability of every Reliability_<year>.xlsx in the shared folder, by year, utility, state, standard. */
function reliabilityRows(shared: string): { rows: Row[]; rejected: number } {
  const dir = path.join(shared, 'reference/eia861');
  const files = fs
    .readdirSync(dir)
    .filter((f) => /^Reliability_\d{4}\.xlsx$/.test(f))
    .sort();
  if (files.length === 0) throw new DataBuildError(`No Reliability_<year>.xlsx in ${dir}; is ../shared/data there?`);
  let rejected = 0;
  const rows: ReliabilityRow[] = [];
  for (const f of files) {
    const parsed = parseEia861(path.join(dir, f));
    if (parsed?.kind !== 'reliability') throw new DataBuildError(`${f} is not an EIA-861 Reliability workbook.`);
    for (const p of parsed.rows) p.row ? rows.push(p.row as ReliabilityRow) : rejected++;
  }
  const key = (r: ReliabilityRow) => `${r.year}|${String(r.utility_number).padStart(6, '0')}|${r.state}|${r.standard}`;
  rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return { rows: rows as unknown as Row[], rejected };
}

/** Rows of a CSV that lives in data/ already (written by another script), typed by the table's fields. */
function csvRows(file: string, t: Table): Row[] {
  const records = parse(fs.readFileSync(file), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  const header = Object.keys(records[0] ?? {});
  const names = t.fields.map((f) => f.name);
  if (header.join(',') !== names.join(','))
    throw new DataBuildError(
      `${path.relative(ROOT, file)} has the columns ${header.join(', ')} but scripts/build-data-tables.ts describes ${names.join(', ')}; describe the new columns there, then run npm run data:build.`,
    );
  return records.map((r) =>
    Object.fromEntries(
      t.fields.map((f) => [
        f.name,
        r[f.name] === '' ? null : f.type === 'integer' || f.type === 'number' ? Number(r[f.name]) : r[f.name],
      ]),
    ),
  );
}

const DUCK = { string: 'VARCHAR', integer: 'BIGINT', number: 'DOUBLE', datetime: 'VARCHAR' } as const;

/** Writes rows as zstd Parquet through an in-memory DuckDB (datetimes as TIMESTAMP, local time as given). */
async function writeParquet(db: DuckDBInstance, t: Table, rows: Row[], file: string): Promise<void> {
  const conn = await db.connect();
  try {
    const cols = t.fields.map((f) => `"${f.name}" ${DUCK[f.type]}`).join(', ');
    await conn.run(`CREATE OR REPLACE TABLE stage (${cols})`);
    const a = await conn.createAppender('stage');
    for (const r of rows) {
      for (const f of t.fields) {
        const v = r[f.name];
        if (v === null || v === undefined || v === '')
          a.appendNull(); // as Frictionless reads an empty CSV cell
        else if (f.type === 'integer') a.appendBigInt(BigInt(v as number));
        else if (f.type === 'number') a.appendDouble(v as number);
        else a.appendVarchar(String(v));
      }
      a.endRow();
    }
    a.closeSync();
    const select = t.fields
      .map((f) => (f.type === 'datetime' ? `"${f.name}"::TIMESTAMP AS "${f.name}"` : `"${f.name}"`))
      .join(', ');
    await conn.run(
      `COPY (SELECT ${select} FROM stage) TO '${file.replace(/'/g, "''")}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 100000)`,
    );
  } finally {
    conn.closeSync();
  }
}

const csvText = (t: Table, rows: Row[]) =>
  stringify(rows, { header: true, columns: t.fields.map((f) => f.name), record_delimiter: '\n' });

const fileFacts = (file: string) => {
  const bytes = fs.readFileSync(file);
  return { bytes: bytes.length, hash: `sha256:${createHash('sha256').update(bytes).digest('hex')}` };
};

export interface BuildResult {
  rows: Record<string, number>;
  rejected: Record<string, number>;
  files: string[];
  /** tables built from ../shared/data that were kept as committed, because it is not there */
  kept: string[];
}

/**
 * A table built from ../shared/data, kept as committed where it is not there (a contributor who edited the registry
 * rebuilds only what derives from data/): its two entries of the committed datapackage.json, checked against the files.
 */
function committedResources(dataDir: string, name: string): Array<Record<string, unknown>> {
  const file = path.join(dataDir, 'datapackage.json');
  const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { resources: Array<Record<string, unknown>> };
  const entries = pkg.resources.filter((r) => r.name === name || r.name === `${name}_parquet`);
  for (const r of entries) {
    const facts = fileFacts(path.join(dataDir, String(r.path)));
    if (facts.hash !== r.hash)
      throw new DataBuildError(`${r.path} differs from ${file} and ../shared/data is not there to rebuild it`);
  }
  if (entries.length !== 2) throw new DataBuildError(`${file} lacks the entries of ${name}`);
  return entries;
}

/**
 * Writes every table into `out` (normally data/): generated CSVs, Parquet for all, then datapackage.json with bytes
 * and sha256 of each file. CSVs that other scripts own or people edit (sources.csv, the modelled county customers) are
 * read from `dataDir` and only described; when `out` differs from `dataDir` they are copied so the package is whole.
 * Without ../shared/data the tables built from it are kept as committed (committedResources).
 */
export async function buildData(out: string, shared = SHARED, dataDir = path.join(ROOT, 'data')): Promise<BuildResult> {
  const db = await DuckDBInstance.create(':memory:', { threads: '1' });
  const result: BuildResult = { rows: {}, rejected: {}, files: [], kept: [] };
  const resources = [];
  try {
    for (const t of TABLES) {
      if (!t.input && !fs.existsSync(shared) && path.resolve(out) === path.resolve(dataDir)) {
        resources.push(...committedResources(dataDir, t.name));
        result.kept.push(t.name);
        continue;
      }
      let rows: Row[];
      if (t.input) {
        rows = csvRows(path.join(dataDir, t.csv), t);
        if (path.resolve(out) !== path.resolve(dataDir)) {
          fs.mkdirSync(path.dirname(path.join(out, t.csv)), { recursive: true });
          fs.copyFileSync(path.join(dataDir, t.csv), path.join(out, t.csv));
        }
      } else {
        const built = t.name === 'oe417_disturbances' ? oe417Rows(shared) : reliabilityRows(shared);
        rows = built.rows;
        result.rejected[t.name] = built.rejected;
        fs.writeFileSync(path.join(out, t.csv), csvText(t, rows));
      }
      if (rows.length === 0) throw new DataBuildError(`${t.name} has no rows; the inputs in ${shared} look wrong.`);
      fs.mkdirSync(path.dirname(path.join(out, t.parquet)), { recursive: true });
      await writeParquet(db, t, rows, path.join(out, t.parquet));
      result.rows[t.name] = rows.length;
      result.files.push(t.csv, t.parquet);
      const schema = {
        fields: t.fields.map(({ name, type, format, description }) => ({
          name,
          type,
          ...(format ? { format } : {}),
          description,
        })),
      };
      const common = { description: t.description, sources: t.sources, licenses: t.licenses, schema };
      if (t.primaryKey) Object.assign(common.schema, { primaryKey: t.primaryKey });
      resources.push(
        {
          name: t.name,
          title: t.title,
          path: t.csv,
          format: 'csv',
          mediatype: 'text/csv',
          encoding: 'utf-8',
          ...fileFacts(path.join(out, t.csv)),
          ...common,
        },
        {
          name: `${t.name}_parquet`,
          title: `${t.title} (Parquet)`,
          path: t.parquet,
          format: 'parquet',
          mediatype: 'application/vnd.apache.parquet',
          ...fileFacts(path.join(out, t.parquet)),
          ...common,
        },
      );
    }
  } finally {
    db.closeSync();
  }
  fs.writeFileSync(path.join(out, 'datapackage.json'), `${JSON.stringify({ ...PACKAGE, resources }, null, 2)}\n`);
  result.files.push('datapackage.json');
  return result;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = path.join(ROOT, 'data');
  buildData(out).then(
    (r) => {
      for (const [t, n] of Object.entries(r.rows))
        console.log(
          `${t}: ${n.toLocaleString('en-US')} rows${r.rejected[t] ? ` (${r.rejected[t]} source rows rejected)` : ''}`,
        );
      if (r.kept.length) console.log(`kept as committed (../shared/data is not there): ${r.kept.join(', ')}`);
      console.log(`wrote ${r.files.length} files to data/`);
    },
    (err) => {
      console.error(err instanceof DataBuildError ? err.message : err);
      process.exit(1);
    },
  );
}
