import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { Db } from '../state/db.ts';
import { importEagleI, importMcc } from './import.ts';
import { countyHistories, deriveEpisodes } from './derive.ts';
import { hasSharedData, sharedPath } from '../../test/shared-data.ts';
import { countyModel, loadCountyModel } from '../geo/county-model.ts';

/** The episode rule, written again independently over the raw CSV rows. */
function episodesByHand(rows: Array<{ t: number; n: number }>, threshold: number) {
  const counting = rows.filter((r) => r.n >= threshold).sort((a, b) => a.t - b.t);
  const eps: Array<{ start: number; end: number; peak: number; ch: number }> = [];
  for (const r of counting) {
    const last = eps.at(-1);
    if (last && r.t - (last.end - 15 * 60_000) <= 60 * 60_000) {
      last.end = r.t + 15 * 60_000;
      last.peak = Math.max(last.peak, r.n);
      last.ch += r.n * 0.25;
    } else eps.push({ start: r.t, end: r.t + 15 * 60_000, peak: r.n, ch: r.n * 0.25 });
  }
  return eps;
}

describe('episodes from the EAGLE-I 15-minute series', () => {
  it.skipIf(!hasSharedData)('match an independent computation on the real Harris County / Beryl slice', async () => {
    const db = await Db.open(':memory:');
    const file = sharedPath('history/eaglei/eaglei_outages_2024_harris_beryl_slice.csv');
    await importEagleI(db, file);
    await importMcc(db, sharedPath('reference/eaglei/MCC_texas_slice.csv'));
    const model = await countyModel(db, loadCountyModel());
    await deriveEpisodes(db, model);
    const threshold = Math.max(50, Math.ceil(model.get('48201')! * 0.001));
    const rows = (parse(fs.readFileSync(file), { columns: true }) as Array<Record<string, string>>).map((r) => ({
      t: Date.parse(`${r.run_start_time.replace(' ', 'T')}Z`),
      n: Number(r.customers_out),
    }));
    const expected = episodesByHand(rows, threshold);
    const got = await db.all<{ start: string; end_at: string; peak: number; ch: number; threshold: number }>(
      "SELECT strftime(start_at, '%Y-%m-%dT%H:%M:%SZ') AS start, strftime(end_at, '%Y-%m-%dT%H:%M:%SZ') AS end_at, peak, customer_hours AS ch, threshold FROM episodes ORDER BY start_at",
    );
    expect(got.map((e) => [e.start, e.end_at, e.peak, Math.round(e.ch)])).toEqual(
      expected.map((e) => [
        new Date(e.start).toISOString().replace('.000', ''),
        new Date(e.end).toISOString().replace('.000', ''),
        e.peak,
        Math.round(e.ch),
      ]),
    );
    expect(got[0].threshold).toBe(threshold);
    // Beryl made landfall on 8 July 2024: the worst episode holds the 1,660,703 peak.
    const h = (await countyHistories(db)).get('48201')!;
    expect(h.worst[0].peak).toBe(1_660_703);
    expect(h.worst[0].start_at.startsWith('2024-07-0')).toBe(true);
    expect(h.years[0]).toMatchObject({ year: 2024, episodes: expected.length });
    expect(h.months.reduce((s, m) => s + m.episodes, 0)).toBe(expected.length);
    db.close();
  });

  it('bridges gaps up to 60 minutes and splits longer ones', async () => {
    const db = await Db.open(':memory:');
    await db.run(`INSERT INTO eaglei_outages VALUES
      ('01001', TIMESTAMP '2020-01-01 00:00', 100, NULL), ('01001', TIMESTAMP '2020-01-01 01:00', 100, NULL),
      ('01001', TIMESTAMP '2020-01-01 02:15', 100, NULL), ('01001', TIMESTAMP '2020-01-01 02:30', 10, NULL)`);
    await deriveEpisodes(db, new Map([['01001', 1000]]));
    const eps = await db.all<{ n: number; h: number }>(
      'SELECT peak AS n, duration_h AS h FROM episodes ORDER BY start_at',
    );
    expect(eps).toEqual([
      { n: 100, h: 1.25 },
      { n: 100, h: 0.25 },
    ]);
    db.close();
  });
});
