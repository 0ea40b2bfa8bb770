// The OE-417, EIA-861 and EAGLE-I coverage importers on the real sample files (../shared/data), including their odd
// layouts, and the import guarantees: re-importing replaces, a bad file changes nothing.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { Db } from '../state/db.ts';
import { importCoverage, importEia861, importOe417 } from './import.ts';
import { causeOf } from './causes.ts';
import { statesIn } from './oe417.ts';
import { countyKey } from './eia861.ts';
import { hasSharedData, sharedPath } from '../../test/shared-data.ts';
import { testTempDir } from '../../test/clean-machine.ts';

const OE417 = (f: string) => sharedPath(`history/oe417/${f}`);
const EIA = (f: string) => sharedPath(`reference/eia861/${f}`);
const tmpFile = (name: string, body: string | Buffer) => {
  const f = path.join(testTempDir('fed'), name);
  fs.writeFileSync(f, body);
  return f;
};

describe('OE-417 importer', () => {
  it.skipIf(!hasSharedData).each([
    ['2015_Annual_Summary.xls', 2015, 143],
    ['2016_Annual_Summary.xls', 2016, 141],
    ['2017_Annual_Summary.xls', 2017, 150],
    ['2018_Annual_Summary.xls', 2018, 220],
    ['2019_Annual_Summary.xls', 2019, 278],
    ['2020_Annual_Summary.xls', 2020, 383],
  ])('reads every event of %s (BIFF8)', async (file, year, events) => {
    const db = await Db.open(':memory:');
    const s = await importOe417(db, OE417(file));
    expect(s).toMatchObject({ rows_loaded: events, rows_rejected: 0, years: [year] });
    db.close();
  });

  it.skipIf(!hasSharedData)(
    'reads the Excel serial dates and day-fraction times of 2015, and "Unknown" as null',
    async () => {
      const db = await Db.open(':memory:');
      await importOe417(db, OE417('2015_Annual_Summary.xls'));
      const [first] = await db.all<
        Record<string, unknown>
      >(`SELECT began_at::VARCHAR AS began, restored_at::VARCHAR AS restored, area, states, cause, demand_loss_mw, customers_affected
      FROM oe417_events ORDER BY began_at, area LIMIT 1`);
      // 42011 = 2015-01-07, 0.70833 = 17:00; restored 42012 + 0.35764 = 2015-01-08 08:35
      expect(first).toEqual({
        began: '2015-01-07 17:00:00',
        restored: '2015-01-08 08:35:00',
        area: 'Tennessee',
        states: 'TN',
        cause: 'weather',
        demand_loss_mw: null,
        customers_affected: null,
      });
      db.close();
    },
  );

  it.skipIf(!hasSharedData)(
    'reads all 22 layouts of the multi-year DOE workbook (2002–2023) without a reject',
    async () => {
      const db = await Db.open(':memory:');
      const s = await importOe417(db, OE417('DOE_Electric_Disturbance_Events_2002-2023.xlsx'));
      expect(s.years).toEqual(Array.from({ length: 22 }, (_, i) => 2002 + i));
      expect(s.rows_rejected).toBe(0);
      const perYear = Object.fromEntries(
        (
          await db.all<{ y: number; n: number }>('SELECT year AS y, count(*)::INT AS n FROM oe417_events GROUP BY ALL')
        ).map((r) => [r.y, r.n]),
      );
      // The years that also exist as Annual_Summary files hold the same events.
      expect(perYear).toMatchObject({ 2015: 143, 2016: 141, 2017: 150, 2018: 220, 2019: 278, 2020: 383 });
      // 2002: date as a serial, time as a fraction, restoration as a serial date-time.
      const [ok] = await db.all<Record<string, unknown>>(
        "SELECT began_at::VARCHAR AS b, restored_at::VARCHAR AS r, customers_affected AS n FROM oe417_events WHERE area = 'Oklahoma' AND year = 2002",
      );
      expect(ok).toEqual({ b: '2002-01-30 06:00:00', r: '2002-02-07 12:00:00', n: 1_881_134 });
      // 2003: cells wrapped onto continuation rows are joined; "over 340,000" is its stated bound.
      const wrapped = await db.all<{ area: string; states: string }>(
        "SELECT area, states FROM oe417_events WHERE year = 2003 AND area LIKE '%New Orleans%'",
      );
      expect(wrapped).toEqual([
        { area: 'Coastal areas of Southwest Louisiana entire New Orleans metropolitan area', states: 'LA' },
      ]);
      const [over] = await db.all<{ n: number }>(
        "SELECT customers_affected AS n FROM oe417_events WHERE year = 2003 AND area = 'Piedmont, North Carolina'",
      );
      expect(over.n).toBe(340_000);
      // 2005: a typo'd date "7/01//05" is still a date; "Ongoing" restoration is kept as such.
      const [typo] = await db.all<Record<string, unknown>>(
        "SELECT began_at::VARCHAR AS b, restoration FROM oe417_events WHERE event_type LIKE 'Fuel Supply - Deficiency Coal%'",
      );
      expect(typo).toEqual({ b: '2005-07-01 00:00:00', restoration: 'ongoing' });
      db.close();
    },
  );

  it.skipIf(!hasSharedData)(
    'replaces the years it holds: the workbook and an Annual_Summary of the same year never duplicate',
    async () => {
      const db = await Db.open(':memory:');
      await importOe417(db, OE417('DOE_Electric_Disturbance_Events_2002-2023.xlsx'));
      await importOe417(db, OE417('2016_Annual_Summary.xls'));
      await importOe417(db, OE417('2016_Annual_Summary.xls'));
      const [{ n }] = await db.all<{ n: number }>('SELECT count(*)::INT AS n FROM oe417_events WHERE year = 2016');
      expect(n).toBe(141);
      const [{ total }] = await db.all<{ total: number }>('SELECT count(*)::INT AS total FROM oe417_events');
      expect(total).toBe(3950);
      db.close();
    },
  );

  it.skipIf(!hasSharedData)('refuses a spreadsheet that is not OE-417 and leaves the loaded data alone', async () => {
    const db = await Db.open(':memory:');
    await importOe417(db, OE417('2019_Annual_Summary.xls'));
    await expect(importOe417(db, EIA('Reliability_2018.xlsx'))).rejects.toThrow(/not an OE-417 spreadsheet/);
    await expect(importOe417(db, tmpFile('2019_Annual_Summary.xls', 'not a spreadsheet at all'))).rejects.toThrow();
    const [{ n }] = await db.all<{ n: number }>('SELECT count(*)::INT AS n FROM oe417_events');
    expect(n).toBe(278);
    db.close();
  });

  it('names the states of an area and assigns cause categories by the documented rules', () => {
    expect(statesIn('Maine: Connecticut: Massachusetts: Vermont: New Hampshire: Rhode Island:')).toEqual([
      'CT',
      'MA',
      'ME',
      'NH',
      'RI',
      'VT',
    ]);
    expect(statesIn('West Virginia')).toEqual(['WV']);
    expect(statesIn('Kentucky, West Virginia, Virginia')).toEqual(['KY', 'VA', 'WV']);
    expect(statesIn('Arkansas')).toEqual(['AR']);
    expect(statesIn('Washington, D.C. metro')).toEqual(['DC']);
    expect(causeOf('Severe Weather/Transmission Interruption', null)).toBe('weather');
    expect(causeOf('Suspected Physical Attack', null)).toBe('physical_attack');
    expect(causeOf('Cyber Event', null)).toBe('cyber');
    expect(causeOf('Unit Tripped', null)).toBe('equipment');
    expect(causeOf('Unknown *', null)).toBe('unknown');
    expect(causeOf(null, 'Public appeal to reduce the use of electricity')).toBe('load_shed_or_appeal');
  });
});

describe.skipIf(!hasSharedData)('EIA-861 importer', () => {
  it('reads Reliability with both standards and "." as blank', async () => {
    const db = await Db.open(':memory:');
    const s = await importEia861(db, EIA('Reliability_2018.xlsx'));
    expect(s).toMatchObject({ kind: 'eia861 reliability', rows_rejected: 0, years: [2018] });
    const rows = await db.all<Record<string, unknown>>(
      'SELECT state, standard, saidi_with_med, saifi_with_med, saidi_without_med, customers FROM eia861_reliability WHERE utility_number = 84 ORDER BY state',
    );
    expect(rows).toEqual([
      {
        state: 'MD',
        standard: 'other',
        saidi_with_med: 1.74,
        saifi_with_med: 0.006,
        saidi_without_med: 0.2,
        customers: 311,
      },
      {
        state: 'VA',
        standard: 'other',
        saidi_with_med: 178.405,
        saifi_with_med: 1.707,
        saidi_without_med: 68.926,
        customers: 35908,
      },
    ]);
    const [ieee] = await db.all<Record<string, unknown>>(
      'SELECT standard, saidi_with_med, customers FROM eia861_reliability WHERE utility_number = 97',
    );
    expect(ieee).toEqual({ standard: 'ieee', saidi_with_med: 131.99, customers: 8665 });
    db.close();
  });

  it('joins Service_Territory county names to FIPS codes, agreeing with an independent join', async () => {
    const db = await Db.open(':memory:');
    const s = await importEia861(db, EIA('Service_Territory_2018.xlsx'));
    // Only the Alaska census areas split since (and two American Samoa districts not in the atlas) stay unmatched.
    expect(s.rows_rejected).toBe(12);
    expect(Object.keys(s.reasons).every((r) => /is not a county of (Alaska|American Samoa)/.test(r))).toBe(true);
    const ours = new Set(
      (await db.all<{ k: string }>("SELECT utility_number || '|' || fips AS k FROM eia861_territory")).map((r) => r.k),
    );
    // IMMM's processing of the same file (their own name join); states only.
    const ref = fs
      .readFileSync(EIA('service_territory_2018.csv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => /^(\d+),(?:"[^"]*"|[^,]*),(\d+),/.exec(l)!)
      .map((m) => `${m[1]}|${m[2].padStart(5, '0')}`);
    const agree = ref.filter((k) => ours.has(k)).length;
    expect(agree / ref.length).toBeGreaterThan(0.998);
    // Where they differ, ours is right: Galax City VA is 51640 (IMMM: Carroll County), Green WI is 55045 (IMMM: Green Lake).
    expect(ours.has('733|51640')).toBe(true);
    expect(ours.has('13438|55045')).toBe(true);
    expect(countyKey('St Louis City')).toBe(countyKey('St. Louis city'));
    db.close();
  });

  it('reads Sales_Ult_Cust under its three-row header (TOTAL customers), skipping the Decoupled sheet', async () => {
    const db = await Db.open(':memory:');
    const s = await importEia861(db, EIA('Sales_Ult_Cust_2018.xlsx'));
    expect(s).toMatchObject({ kind: 'eia861 customers', rows_rejected: 0 });
    const [aberdeen] = await db.all<Record<string, unknown>>(
      'SELECT part, service_type, state, customers FROM eia861_customers WHERE utility_number = 55',
    );
    expect(aberdeen).toEqual({ part: 'A', service_type: 'Bundled', state: 'MS', customers: 3231 });
    const [pr] = await db.all<{ n: number }>("SELECT customers AS n FROM eia861_customers WHERE state = 'PR'");
    expect(pr.n).toBe(1_473_230);
    db.close();
  });
});

describe.skipIf(!hasSharedData)('EIA-861 importer: wrong files', () => {
  it('refuses a workbook that is not one of the three EIA-861 files and leaves the loaded data alone', async () => {
    const db = await Db.open(':memory:');
    await importEia861(db, EIA('Reliability_2016.xlsx'));
    await expect(importEia861(db, OE417('2019_Annual_Summary.xls'))).rejects.toThrow(
      /not an EIA-861 Reliability, Service_Territory or Sales_Ult_Cust workbook/,
    );
    await expect(importEia861(db, tmpFile('Reliability_2019.xlsx', 'not a spreadsheet'))).rejects.toThrow();
    const [{ n }] = await db.all<{ n: number }>('SELECT count(*)::INT AS n FROM eia861_reliability');
    expect(n).toBe(1060);
    db.close();
  });
});

describe('EAGLE-I coverage importer', () => {
  it('reads coverage_history.csv with date-form years, rejects bad rows by line, and replaces on re-import', async () => {
    const db = await Db.open(':memory:');
    const file = tmpFile(
      'coverage_history.csv',
      [
        'year,state,total_customers,min_covered,max_covered',
        '1/1/18,TX,12000000,9000000,10500000',
        '2019,TX,12100000,9500000,11000000',
        '2019,Texas,1,1,1',
        '2019,FL,10000000,x,9000000',
        '2019,CA,15000000,14000000,13000000',
      ].join('\n'),
    );
    const s = await importCoverage(db, file);
    expect(s).toMatchObject({ rows_read: 5, rows_loaded: 2, rows_rejected: 3, years: [2018, 2019] });
    expect(s.rejects.map((r) => r.line)).toEqual([4, 5, 6]);
    await importCoverage(db, file);
    expect(await db.all('SELECT year, state, max_covered FROM eaglei_coverage ORDER BY year')).toEqual([
      { year: 2018, state: 'TX', max_covered: 10_500_000 },
      { year: 2019, state: 'TX', max_covered: 11_000_000 },
    ]);
    await expect(importCoverage(db, tmpFile('coverage_history.csv', 'year,region\n2019,x\n'))).rejects.toThrow(
      /lacks state, total_customers/,
    );
    db.close();
  });
});
