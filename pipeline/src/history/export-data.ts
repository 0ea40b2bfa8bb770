// Writes the researchers' tables (issue #4 part 3): the derived history and every report table as Parquet (zstd)
// and CSV — the large ones partitioned by year (`<table>/year=<y>/data_0.parquet`) — and a Frictionless
// `datapackage.json` with a schema for each, so `data/` can be cloned and queried with DuckDB.
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../state/db.ts';
import type { Reports, Row } from './reports.ts';
import { COLUMN_DOCS, REPORT_COLUMNS, columnSchema } from '../contract/report-columns.ts';
import { writeFileAtomic } from '../publish/atomic-write.ts';

type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'datetime';
export interface TableSpec {
  name: string;
  title: string;
  description: string;
  /** a query over the state database, or rows of the computed reports */
  sql?: string;
  rows?: (r: Reports) => Row[];
  /** written as one file per year (`<name>/year=<y>/…`) */
  partitioned?: boolean;
  fields: Array<{ name: string; type: FieldType; description: string }>;
}

/** Report table fields from the documented columns. */
function reportFields(columns: readonly string[]): TableSpec['fields'] {
  return columns.map((name) => {
    const schema = columnSchema(name) as { type?: string | string[]; enum?: unknown[] };
    const t = [schema.type ?? 'string'].flat().find((x) => x !== 'null') ?? 'string';
    const type: FieldType =
      t === 'integer' || t === 'number' || t === 'boolean'
        ? t
        : name.endsWith('_at') && name !== 'began_at' && name !== 'restored_at'
          ? 'datetime'
          : 'string';
    return { name, type, description: COLUMN_DOCS[name] ?? name };
  });
}

const report = (
  name: string,
  title: string,
  description: string,
  columns: readonly string[],
  rows: (r: Reports) => Row[],
  partitioned = false,
): TableSpec => ({ name, title, description, rows, partitioned, fields: reportFields(columns) });

const yearsOf = <T>(r: Reports, pick: (y: number) => T[]): T[] => r.range.flatMap(pick);

export const REPORT_EXPORTS: TableSpec[] = [
  report(
    'report_national',
    'National annual report',
    'One row per year; years not loaded have loaded = false and null values.',
    REPORT_COLUMNS.national.national,
    (r) => r.national,
  ),
  report(
    'report_states',
    'State annual reports',
    'One row per year and state.',
    REPORT_COLUMNS.national.states,
    (r) => r.states,
  ),
  report(
    'report_counties',
    'County annual rows',
    'Every county of every loaded year with its coverage status and national rank.',
    REPORT_COLUMNS.year.counties,
    (r) => yearsOf(r, (y) => r.byYear.get(y)!.counties),
    true,
  ),
  report('report_months', 'National months', 'Twelve rows per year.', REPORT_COLUMNS.year.months, (r) =>
    yearsOf(r, (y) => r.byYear.get(y)!.months),
  ),
  report(
    'report_causes',
    'OE-417 causes by year',
    'Disturbance events by year and cause category.',
    REPORT_COLUMNS.causes,
    (r) => r.causes,
  ),
  report(
    'report_trend',
    'Trend',
    'Yearly customer-hours, episodes and disturbances, nationally (scope US) and per state.',
    REPORT_COLUMNS.trend,
    (r) => r.trend,
  ),
  report(
    'report_etr',
    'ETR record per utility and month',
    "How far to trust each source's restoration estimates, per UTC month of the live incident history this export covers (state/etr-record.ts has the definitions); each row carries its coverage: incidents, with_etr and etr_coverage_pct say how many incidents had an ETR at all.",
    REPORT_COLUMNS.national.etr,
    (r) => r.etr as unknown as Row[],
  ),
  report(
    'oe417_disturbances',
    'OE-417 disturbance events',
    'DOE OE-417 events as imported (local times as reported).',
    ['year', ...REPORT_COLUMNS.year.disturbances],
    (r) => r.range.flatMap((y) => r.byYear.get(y)!.disturbances.map((d) => ({ year: y, ...d }))),
  ),
];

export const TABLES: TableSpec[] = [
  {
    name: 'county_episodes',
    title: 'County outage episodes',
    partitioned: true,
    description:
      'Outage episodes derived from the EAGLE-I 15-minute county series (rule in docs/archive-and-history.md), one file per year of the episode start.',
    sql: `SELECT year(start_at)::INT AS year, fips, strftime(start_at, '%Y-%m-%dT%H:%M:%SZ') AS start_at, strftime(end_at, '%Y-%m-%dT%H:%M:%SZ') AS end_at, peak, round(customer_hours, 2) AS customer_hours, round(duration_h, 2) AS duration_h, size_class, threshold FROM episodes ORDER BY fips, start_at`,
    fields: [
      ...reportFields(['year', 'fips', 'start_at', 'end_at', 'peak', 'customer_hours', 'duration_h', 'size_class']),
      { name: 'threshold', type: 'integer', description: 'customers-out threshold used for the county' },
    ],
  },
  {
    name: 'county_months',
    title: 'County outage months',
    description: 'Episodes per county and month (by episode start).',
    sql: `SELECT fips, year(start_at)::INT AS year, month(start_at)::INT AS month, count(*)::INT AS episodes, round(sum(customer_hours), 2) AS customer_hours, max(peak)::INT AS max_out FROM episodes GROUP BY ALL ORDER BY fips, year, month`,
    fields: reportFields(['fips', 'year', 'month', 'episodes', 'customer_hours', 'max_out']),
  },
];

const q = (s: string) => `'${s.replace(/'/g, "''")}'`;
const DUCK: Record<FieldType, string> = {
  string: 'VARCHAR',
  integer: 'BIGINT',
  number: 'DOUBLE',
  boolean: 'BOOLEAN',
  datetime: 'VARCHAR',
};

/** Loads report rows into a temp table typed by the table's fields. */
async function stageRows(db: Db, t: TableSpec, rows: Row[]): Promise<string> {
  const name = `export_${t.name}`;
  await db.run(
    `CREATE OR REPLACE TEMP TABLE ${name} (${t.fields.map((f) => `"${f.name}" ${DUCK[f.type]}`).join(', ')})`,
  );
  const a = await db.appender(name);
  for (const r of rows) {
    for (const f of t.fields) {
      const v = r[f.name];
      if (v === null || v === undefined) a.appendNull();
      else if (f.type === 'integer') a.appendBigInt(BigInt(Math.round(Number(v))));
      else if (f.type === 'number') a.appendDouble(Number(v));
      else if (f.type === 'boolean') a.appendBoolean(Boolean(v));
      else a.appendVarchar(String(v));
    }
    a.endRow();
  }
  a.closeSync();
  return `SELECT * FROM ${name}`;
}

/** Replaces `target` (a file or a partition directory) by what `write(tmp)` produced. */
function swapIn(target: string, tmp: string): void {
  const old = `${target}.old`;
  fs.rmSync(old, { recursive: true, force: true });
  if (fs.existsSync(target)) fs.renameSync(target, old);
  fs.renameSync(tmp, target);
  fs.rmSync(old, { recursive: true, force: true });
}

const listFiles = (dir: string, root: string, ext: string): string[] =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((d) =>
      d.isDirectory()
        ? listFiles(path.join(dir, d.name), root, ext)
        : d.name.endsWith(ext)
          ? [path.relative(root, path.join(dir, d.name))]
          : [],
    )
    .sort();

/**
 * Writes every table as Parquet (zstd) and CSV — `<name>.parquet`/`.csv`, or `<name>/year=<y>/data_0.parquet`/`.csv`
 * when partitioned — and `<dir>/datapackage.json`. Report tables need the computed `reports`. Returns rows per table.
 */
export async function exportData(
  db: Db,
  dir: string,
  meta: { simulated: boolean; generated_at: string },
  reports?: Reports,
): Promise<Record<string, number>> {
  fs.mkdirSync(dir, { recursive: true });
  const counts: Record<string, number> = {};
  const resources = [];
  for (const t of [...TABLES, ...(reports ? REPORT_EXPORTS : [])]) {
    const sql = t.sql ?? (await stageRows(db, t, t.rows!(reports!)));
    counts[t.name] = (await db.all<{ n: number }>(`SELECT count(*)::INT AS n FROM (${sql})`))[0].n;
    const schema = { fields: t.fields.map((f) => ({ name: f.name, type: f.type, description: f.description })) };
    let paths: { csv: string | string[]; parquet: string | string[] };
    if (t.partitioned) {
      const tmp = path.join(dir, `${t.name}.tmp`);
      fs.rmSync(tmp, { recursive: true, force: true });
      await db.run(
        `COPY (${sql}) TO ${q(tmp)} (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (year), WRITE_PARTITION_COLUMNS true)`,
      );
      await db.run(
        `COPY (${sql}) TO ${q(tmp)} (FORMAT csv, HEADER true, PARTITION_BY (year), WRITE_PARTITION_COLUMNS true, OVERWRITE_OR_IGNORE true)`,
      );
      swapIn(path.join(dir, t.name), tmp);
      const root = path.join(dir, t.name);
      paths = { csv: listFiles(root, dir, '.csv'), parquet: listFiles(root, dir, '.parquet') };
    } else {
      const parquet = path.join(dir, `${t.name}.parquet`);
      const csv = path.join(dir, `${t.name}.csv`);
      await db.run(`COPY (${sql}) TO ${q(`${parquet}.tmp`)} (FORMAT parquet, COMPRESSION zstd)`);
      await db.run(`COPY (${sql}) TO ${q(`${csv}.tmp`)} (FORMAT csv, HEADER true)`);
      swapIn(parquet, `${parquet}.tmp`);
      swapIn(csv, `${csv}.tmp`);
      paths = { csv: `${t.name}.csv`, parquet: `${t.name}.parquet` };
    }
    resources.push({
      name: t.name,
      title: t.title,
      description: t.description,
      path: paths.csv,
      format: 'csv',
      mediatype: 'text/csv',
      encoding: 'utf-8',
      schema,
    });
    resources.push({
      name: `${t.name}_parquet`,
      title: `${t.title} (Parquet)`,
      path: paths.parquet,
      format: 'parquet',
      mediatype: 'application/vnd.apache.parquet',
      schema,
    });
  }
  const pkg = {
    name: 'us-power-outage-history',
    title: `US power outage history${meta.simulated ? ' (SIMULATED)' : ''}`,
    description: meta.simulated
      ? 'SIMULATED data from the built-in generator; not real outages.'
      : 'Derived from EAGLE-I county outage data (ORNL), DOE OE-417 and EIA-861.',
    created: meta.generated_at,
    licenses: [
      {
        name: 'CC-BY-4.0',
        path: 'https://creativecommons.org/licenses/by/4.0/',
        title: 'EAGLE-I data: Creative Commons Attribution 4.0',
      },
      { name: 'other-pd', title: 'DOE OE-417 and EIA-861: US government works, public domain' },
    ],
    sources: [
      {
        title: 'EAGLE-I county outage data, Oak Ridge National Laboratory',
        path: 'https://doi.org/10.6084/m9.figshare.24237376',
      },
      {
        title: 'DOE OE-417 Electric Emergency and Disturbance Reports',
        path: 'https://www.oe.netl.doe.gov/OE417_annual_summary.aspx',
      },
      { title: 'EIA-861 Annual Electric Power Industry Report', path: 'https://www.eia.gov/electricity/data/eia861/' },
    ],
    resources,
  };
  writeFileAtomic(path.join(dir, 'datapackage.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  return counts;
}
