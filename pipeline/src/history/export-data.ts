// Writes the researchers' tables (issue #4 part 3): every derived history table as Parquet (zstd) and CSV, a
// Frictionless `datapackage.json` with a schema for each, so `data/` can be cloned and queried with DuckDB.
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../state/db.ts';

export interface TableSpec {
  name: string;
  title: string;
  description: string;
  sql: string;
  fields: Array<{ name: string; type: 'string' | 'integer' | 'number' | 'datetime'; description: string }>;
}

export const TABLES: TableSpec[] = [
  {
    name: 'county_episodes', title: 'County outage episodes',
    description: 'Outage episodes derived from the EAGLE-I 15-minute county series (rule in README.md).',
    sql: `SELECT fips, strftime(start_at, '%Y-%m-%dT%H:%M:%SZ') AS start_at, strftime(end_at, '%Y-%m-%dT%H:%M:%SZ') AS end_at, peak, round(customer_hours, 2) AS customer_hours, round(duration_h, 2) AS duration_h, size_class, threshold FROM episodes ORDER BY fips, start_at`,
    fields: [
      { name: 'fips', type: 'string', description: '5-digit county FIPS code' },
      { name: 'start_at', type: 'datetime', description: 'first 15-minute interval at or above the threshold (UTC)' },
      { name: 'end_at', type: 'datetime', description: 'last such interval + 15 minutes (UTC)' },
      { name: 'peak', type: 'integer', description: 'largest customers out in the episode' },
      { name: 'customer_hours', type: 'number', description: 'customers out × 0.25 h summed over the counting intervals' },
      { name: 'duration_h', type: 'number', description: 'end_at − start_at in hours' },
      { name: 'size_class', type: 'string', description: 'small (<1,000), medium (<10,000), large (<100,000), major' },
      { name: 'threshold', type: 'integer', description: 'customers-out threshold used for the county' },
    ],
  },
  {
    name: 'county_months', title: 'County outage months',
    description: 'Episodes per county and month (by episode start).',
    sql: `SELECT fips, year(start_at)::INT AS year, month(start_at)::INT AS month, count(*)::INT AS episodes, round(sum(customer_hours), 2) AS customer_hours, max(peak)::INT AS max_out FROM episodes GROUP BY ALL ORDER BY fips, year, month`,
    fields: [
      { name: 'fips', type: 'string', description: '5-digit county FIPS code' },
      { name: 'year', type: 'integer', description: 'year of the episode start (UTC)' },
      { name: 'month', type: 'integer', description: 'month of the episode start (UTC)' },
      { name: 'episodes', type: 'integer', description: 'number of episodes' },
      { name: 'customer_hours', type: 'number', description: 'customer-hours of those episodes' },
      { name: 'max_out', type: 'integer', description: 'largest peak among them' },
    ],
  },
];

const q = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** Writes <dir>/<table>.parquet and .csv for every table and <dir>/datapackage.json. Returns rows per table. */
export async function exportData(db: Db, dir: string, meta: { simulated: boolean; generated_at: string }): Promise<Record<string, number>> {
  fs.mkdirSync(dir, { recursive: true });
  const counts: Record<string, number> = {};
  const resources = [];
  for (const t of TABLES) {
    const parquet = path.join(dir, `${t.name}.parquet`);
    const csv = path.join(dir, `${t.name}.csv`);
    await db.run(`COPY (${t.sql}) TO ${q(`${parquet}.tmp`)} (FORMAT parquet, COMPRESSION zstd)`);
    await db.run(`COPY (${t.sql}) TO ${q(`${csv}.tmp`)} (FORMAT csv, HEADER true)`);
    fs.renameSync(`${parquet}.tmp`, parquet);
    fs.renameSync(`${csv}.tmp`, csv);
    counts[t.name] = (await db.all<{ n: number }>(`SELECT count(*)::INT AS n FROM (${t.sql})`))[0].n;
    const schema = { fields: t.fields.map((f) => ({ name: f.name, type: f.type, description: f.description })) };
    resources.push({ name: t.name, title: t.title, description: t.description, path: `${t.name}.csv`, format: 'csv', mediatype: 'text/csv', encoding: 'utf-8', schema });
    resources.push({ name: `${t.name}_parquet`, title: `${t.title} (Parquet)`, path: `${t.name}.parquet`, format: 'parquet', mediatype: 'application/vnd.apache.parquet', schema });
  }
  const pkg = {
    name: 'us-power-outage-history', title: `US power outage history${meta.simulated ? ' (SIMULATED)' : ''}`,
    description: meta.simulated ? 'SIMULATED data from the built-in generator; not real outages.' : 'Derived from EAGLE-I county outage data (ORNL).',
    created: meta.generated_at,
    licenses: [{ name: 'CC-BY-4.0', path: 'https://creativecommons.org/licenses/by/4.0/', title: 'EAGLE-I data: Creative Commons Attribution 4.0' }],
    sources: [{ title: 'EAGLE-I county outage data, Oak Ridge National Laboratory', path: 'https://doi.org/10.6084/m9.figshare.24237376' }],
    resources,
  };
  fs.writeFileSync(path.join(dir, 'datapackage.json.tmp'), `${JSON.stringify(pkg, null, 2)}\n`);
  fs.renameSync(path.join(dir, 'datapackage.json.tmp'), path.join(dir, 'datapackage.json'));
  return counts;
}
