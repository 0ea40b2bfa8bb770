import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { Db } from '../state/db.ts';
import { countyModel } from '../geo/county-model.ts';
import { importEagleI, importMcc } from './import.ts';
import { hasSharedData, sharedPath } from '../../test/shared-data.ts';
import { testTempDir } from '../../test/clean-machine.ts';

const tmpFile = (name: string, text: string) => {
  const f = path.join(testTempDir('imp'), name);
  fs.writeFileSync(f, text);
  return f;
};

describe('EAGLE-I county outages importer', () => {
  it.skipIf(!hasSharedData)(
    'loads the real 2024 Harris County (Beryl) slice with total_customers, idempotently',
    async () => {
      const db = await Db.open(':memory:');
      const file = sharedPath('history/eaglei/eaglei_outages_2024_harris_beryl_slice.csv');
      const s = await importEagleI(db, file);
      expect(s).toMatchObject({ rows_read: 768, rows_loaded: 768, rows_rejected: 0, years: [2024] });
      await importEagleI(db, file);
      const [r] = await db.all<{ n: number; peak: number; total: number; first: string }>(
        'SELECT count(*)::INT AS n, max(customers_out)::INT AS peak, max(total_customers)::INT AS total, min(run_start_time)::VARCHAR AS first FROM eaglei_outages',
      );
      expect(r).toEqual({ n: 768, peak: 1_660_703, total: 1_344_930, first: '2024-07-05 00:00:00' });
      db.close();
    },
  );

  it('reads the `sum` column of older years, pads FIPS, and rejects bad rows with their line numbers', async () => {
    const db = await Db.open(':memory:');
    const file = tmpFile(
      'eaglei_outages_2016.csv',
      [
        'fips_code,county,state,sum,run_start_time',
        '1001,Autauga,Alabama,12,2016-03-01 00:15:00',
        'XYZ,Nowhere,Alabama,3,2016-03-01 00:15:00',
        '1003,Baldwin,Alabama,many,2016-03-01 00:15:00',
        '1005,Barbour,Alabama,4,yesterday',
        '1007,Bibb,Alabama,-2,2016-03-01 00:15:00',
        '1009,Blount,Alabama,"1,204",2016-03-01 00:30:00',
      ].join('\n'),
    );
    const s = await importEagleI(db, file);
    expect(s.rows_read).toBe(6);
    expect(s.rows_loaded).toBe(2);
    expect(s.rejects).toEqual([
      { line: 3, reason: 'fips_code is not a county FIPS code' },
      { line: 4, reason: 'customers out is not a whole number' },
      { line: 5, reason: 'run_start_time is not a date-time' },
      { line: 6, reason: 'customers out is negative' },
    ]);
    const rows = await db.all<{ fips: string; customers_out: number }>(
      'SELECT fips, customers_out FROM eaglei_outages ORDER BY fips',
    );
    expect(rows).toEqual([
      { fips: '01001', customers_out: 12 },
      { fips: '01009', customers_out: 1204 },
    ]);
    db.close();
  });

  it.skipIf(!hasSharedData)('a file of the wrong shape changes nothing', async () => {
    const db = await Db.open(':memory:');
    await importEagleI(db, sharedPath('history/eaglei/eaglei_outages_2024_harris_beryl_slice.csv'));
    await expect(importEagleI(db, tmpFile('x.csv', 'a,b\n1,2\n'))).rejects.toThrow(
      /lacks fips_code, customers_out \(or sum\), run_start_time.*Nothing was imported/,
    );
    const [{ n }] = await db.all<{ n: number }>('SELECT count(*)::INT AS n FROM eaglei_outages');
    expect(n).toBe(768);
    db.close();
  });
});

describe('EAGLE-I MCC importer', () => {
  it.skipIf(!hasSharedData)(
    'loads the real Texas slice (CRLF, unpadded FIPS) and becomes the county denominator',
    async () => {
      const db = await Db.open(':memory:');
      const s = await importMcc(db, sharedPath('reference/eaglei/MCC_texas_slice.csv'));
      expect(s).toMatchObject({ rows_read: 254, rows_loaded: 254, rows_rejected: 0 });
      const [harris] = await db.all<{ customers: number }>(
        "SELECT customers FROM county_customers_mcc WHERE fips = '48201'",
      );
      const model = await countyModel(
        db,
        new Map([
          ['48201', 1],
          ['01001', 29149],
        ]),
      );
      expect(model.get('48201')).toBe(harris.customers);
      expect(model.get('01001')).toBe(29149); // counties MCC does not list keep the shipped model
      db.close();
    },
  );

  it('handles a byte-order mark and refuses a file without the MCC columns', async () => {
    const db = await Db.open(':memory:');
    const s = await importMcc(
      db,
      tmpFile('MCC.csv', '\uFEFFCounty_FIPS,Customers\r\n1001,29000\r\n1001,1\r\n1003,120000\r\n'),
    );
    expect(s.rows_rejected).toBe(2); // a FIPS listed twice is rejected both times
    expect(await db.all('SELECT fips, customers::INT AS customers FROM county_customers_mcc')).toEqual([
      { fips: '01003', customers: 120000 },
    ]);
    await expect(importMcc(db, tmpFile('m.csv', 'fips,n\n1,2\n'))).rejects.toThrow(/County_FIPS and Customers/);
    db.close();
  });
});
