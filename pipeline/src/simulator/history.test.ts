import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { Db } from '../state/db.ts';
import { loadCountyModel } from '../geo/county-model.ts';
import { importEagleI } from '../history/import.ts';
import { SIMULATED_PREFIX, writeSimulatedHistory } from './history.ts';
import { testTempDir } from '../../test/clean-machine.ts';

describe('simulated history', () => {
  it('writes labelled files in the EAGLE-I layout that the real importer loads without rejects, deterministically', async () => {
    const db = await Db.open(':memory:');
    const dir = testTempDir('simhist');
    const plan = { seed: 3, firstYear: 2023, lastYear: 2024, episodesPerYear: 1 };
    const files = await writeSimulatedHistory(db, dir, loadCountyModel(), plan);
    expect(files.map((f) => path.basename(f))).toEqual([`${SIMULATED_PREFIX}2023.csv`, `${SIMULATED_PREFIX}2024.csv`]);
    expect(fs.readFileSync(files[0], 'utf8').split('\n')[0]).toBe(
      'fips_code,county,state,customers_out,run_start_time',
    );
    expect(fs.readFileSync(files[1], 'utf8').split('\n')[0]).toBe(
      'fips_code,county,state,customers_out,run_start_time,total_customers',
    );
    for (const f of files) {
      const s = await importEagleI(db, f);
      expect(s.rows_rejected).toBe(0);
      expect(s.rows_loaded).toBeGreaterThan(3000);
    }
    const again = testTempDir('simhist');
    const [first] = await writeSimulatedHistory(db, again, loadCountyModel(), { ...plan, lastYear: 2023 });
    expect(fs.readFileSync(first, 'utf8')).toBe(fs.readFileSync(files[0], 'utf8'));
    db.close();
  });
});
