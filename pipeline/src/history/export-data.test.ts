import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Db } from '../state/db.ts';
import { importEagleI } from './import.ts';
import { deriveEpisodes } from './derive.ts';
import { exportData, TABLES } from './export-data.ts';
import { loadCountyModel } from '../geo/county-model.ts';
import { sharedPath } from '../../test/shared-data.ts';

describe('researchers\' tables', () => {
  it('writes Parquet and CSV that DuckDB reads back, described by datapackage.json', async () => {
    const db = await Db.open(':memory:');
    await importEagleI(db, sharedPath('history/eaglei/eaglei_outages_2024_harris_beryl_slice.csv'));
    await deriveEpisodes(db, loadCountyModel());
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'data-'));
    const counts = await exportData(db, dir, { simulated: false, generated_at: '2026-09-01T00:00:00Z' });
    const [{ n }] = await db.all<{ n: number }>('SELECT count(*)::INT AS n FROM episodes');
    expect(counts.county_episodes).toBe(n);
    const reader = await Db.open(':memory:');
    const fromParquet = await reader.all<{ n: number; peak: number }>(`SELECT count(*)::INT AS n, max(peak)::INT AS peak FROM '${dir}/county_episodes.parquet'`);
    const fromCsv = await reader.all<{ n: number; peak: number }>(`SELECT count(*)::INT AS n, max(peak)::INT AS peak FROM read_csv('${dir}/county_episodes.csv')`);
    expect(fromParquet).toEqual([{ n, peak: 1_660_703 }]);
    expect(fromCsv).toEqual(fromParquet);
    const codec = await reader.all<{ c: string }>(`SELECT DISTINCT compression AS c FROM parquet_metadata('${dir}/county_episodes.parquet')`);
    expect(codec.map((r) => r.c.toUpperCase())).toEqual(['ZSTD']);
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'datapackage.json'), 'utf8'));
    for (const t of TABLES) {
      const res = pkg.resources.find((r: { name: string }) => r.name === t.name);
      const cols = (await reader.all<{ column_name: string }>(`DESCRIBE SELECT * FROM read_csv('${dir}/${t.name}.csv')`)).map((r) => r.column_name);
      expect(res.schema.fields.map((f: { name: string }) => f.name)).toEqual(cols);
    }
    expect(pkg.licenses[0].name).toBe('CC-BY-4.0');
    reader.close();
    db.close();
  });
});
