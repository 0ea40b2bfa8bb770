import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { Db } from '../state/db.ts';
import { importEagleI } from './import.ts';
import { deriveEpisodes } from './derive.ts';
import { exportData, REPORT_EXPORTS, TABLES } from './export-data.ts';
import { computeReports } from './reports.ts';
import { importOe417 } from './import.ts';
import { loadCountyModel } from '../geo/county-model.ts';
import { hasSharedData, sharedPath } from '../../test/shared-data.ts';
import { testTempDir } from '../../test/clean-machine.ts';

describe("researchers' tables", () => {
  it.skipIf(!hasSharedData)(
    'writes Parquet and CSV that DuckDB reads back, described by datapackage.json',
    async () => {
      const db = await Db.open(':memory:');
      await importEagleI(db, sharedPath('history/eaglei/eaglei_outages_2024_harris_beryl_slice.csv'));
      await importOe417(db, sharedPath('history/oe417/2020_Annual_Summary.xls'));
      await deriveEpisodes(db, loadCountyModel());
      const dir = testTempDir('data');
      const reports = await computeReports(db, loadCountyModel(), new Date('2026-09-01T00:00:00Z'));
      const counts = await exportData(db, dir, { simulated: false, generated_at: '2026-09-01T00:00:00Z' }, reports);
      await exportData(db, dir, { simulated: false, generated_at: '2026-09-01T00:00:00Z' }, reports); // re-export replaces
      const [{ n }] = await db.all<{ n: number }>('SELECT count(*)::INT AS n FROM episodes');
      expect(counts.county_episodes).toBe(n);
      const reader = await Db.open(':memory:');
      // county_episodes is partitioned by year: county_episodes/year=2024/data_0.parquet
      const fromParquet = await reader.all<{ n: number; peak: number }>(
        `SELECT count(*)::INT AS n, max(peak)::INT AS peak FROM read_parquet('${dir}/county_episodes/*/*.parquet', hive_partitioning = false)`,
      );
      const fromCsv = await reader.all<{ n: number; peak: number }>(
        `SELECT count(*)::INT AS n, max(peak)::INT AS peak FROM read_csv('${dir}/county_episodes/*/*.csv', hive_partitioning = false)`,
      );
      expect(fromParquet).toEqual([{ n, peak: 1_660_703 }]);
      expect(fromCsv).toEqual(fromParquet);
      expect(fs.readdirSync(path.join(dir, 'county_episodes'))).toEqual(['year=2024']);
      const codec = await reader.all<{ c: string }>(
        `SELECT DISTINCT compression AS c FROM parquet_metadata('${dir}/county_episodes/year=2024/data_0.parquet')`,
      );
      expect(codec.map((r) => r.c.toUpperCase())).toEqual(['ZSTD']);
      // the report tables hold what the reports computed
      const [nat] = await reader.all<Record<string, unknown>>(
        `SELECT episodes, peak_out, loaded FROM '${dir}/report_national.parquet' WHERE year = 2024`,
      );
      expect(nat).toEqual({ episodes: 1, peak_out: 1_660_703, loaded: true });
      const [dist] = await reader.all<{ n: number }>(
        `SELECT count(*)::INT AS n FROM read_csv('${dir}/oe417_disturbances.csv') WHERE year = 2020`,
      );
      expect(dist.n).toBe(383);
      expect(counts.report_counties).toBe(reports.byYear.get(2024)!.counties.length);
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'datapackage.json'), 'utf8'));
      for (const t of [...TABLES, ...REPORT_EXPORTS]) {
        const res = pkg.resources.find((r: { name: string }) => r.name === t.name);
        const files = [res.path]
          .flat()
          .map((p: string) => `'${dir}/${p}'`)
          .join(', ');
        const cols = (
          await reader.all<{ column_name: string }>(
            `DESCRIBE SELECT * FROM read_csv([${files}], hive_partitioning = false)`,
          )
        ).map((r) => r.column_name);
        expect(
          res.schema.fields.map((f: { name: string }) => f.name),
          t.name,
        ).toEqual(cols);
        const pcols = (
          await reader.all<{ column_name: string }>(
            `DESCRIBE SELECT * FROM read_parquet([${[
              pkg.resources.find((r: { name: string }) => r.name === `${t.name}_parquet`).path,
            ]
              .flat()
              .map((p: string) => `'${dir}/${p}'`)
              .join(', ')}], hive_partitioning = false)`,
          )
        ).map((r) => r.column_name);
        expect(pcols, t.name).toEqual(cols);
      }
      expect(pkg.licenses[0].name).toBe('CC-BY-4.0');
      reader.close();
      db.close();
    },
  );
});
