// El Paso Electric normalize on the peer's sample (edited values: it proves parsing, not facts about EPE). Counties are
// computed here from the payload: each ZIP's count goes to the county the test's own lookup (d3-geo over us-atlas)
// finds for that ZIP's outage points; a ZIP without a point is unplaced.
import { describe, expect, it } from 'vitest';
import { normalize } from './normalize.ts';
import { normalizeReadable } from '../unreadable.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';
import { countyContaining } from '../../../test/county-lookup.ts';

interface Answer {
  totalCustAffected: number;
  totalActiveCustomers: number;
  customersAffectedPerZipcode: Array<{ zipcode: string; customersAffected: number }>;
  outages: Array<{ outageNo: number; zipcode: string; latitude: number; longitude: number; etr: string }>;
}
const sample = () => sharedJson('payloads/el-paso/sample.json') as Answer;
const epe = sourceDef({ connector: 'elpaso', utility: 'El Paso Electric', states: ['TX', 'NM'] });

describe.skipIf(!hasSharedData)('elpaso normalize, the peer sample', () => {
  it('places each ZIP’s customers in the county of its outage points; the headline and served are EPE’s', () => {
    const raw = sample();
    const expected = new Map<string, number>();
    let unplaced = 0;
    for (const z of raw.customersAffectedPerZipcode) {
      const counties = new Set(
        raw.outages.filter((o) => o.zipcode === z.zipcode).map((o) => countyContaining(o.longitude, o.latitude)),
      );
      const [only] = counties;
      if (counties.size === 1 && only) expected.set(only, (expected.get(only) ?? 0) + z.customersAffected);
      else unplaced += z.customersAffected;
    }
    const snap = normalize(raw, epe);
    expect(new Map(snap.counties.map((c) => [c.fips, c.customers_out]))).toEqual(expected);
    expect(unplaced).toBeGreaterThan(0);
    expect(snap.unmatched).toEqual([`1 ZIP code(s) not placed in a county (${unplaced} customers out)`]);
    expect(snap.customers_out).toBe(raw.totalCustAffected);
    expect(snap.customers_served).toBe(raw.totalActiveCustomers);
  });

  it('makes each outage point an incident with its Mountain-time ETR, and no count of its own', () => {
    const raw = sample();
    expect(raw.outages[0].etr).toBe('6/24/2026 7:00:00 PM');
    const snap = normalize(raw, epe);
    expect(snap.incidents).toEqual([
      {
        id: String(raw.outages[0].outageNo),
        fips: countyContaining(raw.outages[0].longitude, raw.outages[0].latitude),
        customers_out: 0,
        etr: '2026-06-25T01:00:00.000Z', // 7 p.m. MDT
        crew_status: null,
        cause: null,
        started_at: null,
        lat: raw.outages[0].latitude,
        lon: raw.outages[0].longitude,
        city: null,
        planned: false,
      },
    ]);
  });
});

describe('elpaso normalize, made-up answers', () => {
  it('leaves a ZIP whose points lie in two counties unplaced, and sums the ZIPs without a headline', () => {
    const snap = normalize(
      {
        customersAffectedPerZipcode: [
          { zipcode: '88001', customersAffected: 5 },
          { zipcode: '79901', customersAffected: '1,002' },
        ],
        outages: [
          { outageNo: 1, zipcode: '88001', latitude: 32.31, longitude: -106.78 }, // Las Cruces: Doña Ana, NM
          { outageNo: 2, zipcode: '79901', latitude: 31.76, longitude: -106.49 }, // El Paso County, TX
          { outageNo: 3, zipcode: '79901', latitude: 32.31, longitude: -106.78 },
        ],
      },
      epe,
    );
    expect(snap.counties).toEqual([{ fips: '35013', customers_out: 5, customers_served: null }]);
    expect(snap.customers_out).toBe(1007);
    expect(snap.unmatched).toEqual(['1 ZIP code(s) not placed in a county (1002 customers out)']);
    expect(normalize({}, epe)).toMatchObject({ customers_out: 0, incidents: [], basis: 'county' });
  });

  it('a ZIP whose count cannot be read is never 0: noted and left out, the figures stand on the rest; with none readable the poll fails', () => {
    const zips = (bad: unknown) => [
      { zipcode: '88001', customersAffected: 5 },
      { zipcode: '79901', customersAffected: bad },
    ];
    const outages = [
      { outageNo: 1, zipcode: '88001', latitude: 32.31, longitude: -106.78 },
      { outageNo: 2, zipcode: '79901', latitude: 31.76, longitude: -106.49 },
    ];
    for (const bad of [undefined, null, '', 'unknown', -5]) {
      const snap = normalize({ totalCustAffected: 9, customersAffectedPerZipcode: zips(bad), outages }, epe);
      expect(snap.counties).toEqual([{ fips: '35013', customers_out: 5, customers_served: null }]);
      expect(snap.unreadable).toHaveLength(1);
      expect(snap.unreadable[0]).toMatch(/^ZIP 79901: customersAffected/);
      expect(snap.customers_out).toBe(9);
      // Without the headline, the total is the sum of the ZIPs that can be read.
      const summed = normalizeReadable({ normalize }, { customersAffectedPerZipcode: zips(bad), outages }, epe);
      expect(summed.counties).toEqual([{ fips: '35013', customers_out: 5, customers_served: null }]);
      expect(summed.unreadable).toEqual([expect.stringMatching(/^ZIP 79901: customersAffected/)]);
      expect(summed.customers_out).toBe(zips(bad)[0].customersAffected);
      // No ZIP readable: the poll fails naming the field.
      const none = zips(bad).map((z) => ({ ...z, customersAffected: bad }));
      expect(() => normalizeReadable({ normalize }, { customersAffectedPerZipcode: none, outages }, epe)).toThrow(
        /no record's customersAffected can be read.*ZIP 88001: customersAffected/,
      );
    }
    expect(() => normalize({ totalCustAffected: 'N/A' }, epe)).toThrow(/headline total totalCustAffected/);
  });

  it('a ZIP code that cannot be read places nothing, and is noted', () => {
    const snap = normalize(
      {
        totalCustAffected: 7,
        customersAffectedPerZipcode: [
          { zipcode: 'unknown', customersAffected: 5 },
          { zipcode: '88001', customersAffected: 2 },
        ],
        outages: [
          { outageNo: 1, zipcode: null, latitude: 32.31, longitude: -106.78 },
          { outageNo: 2, zipcode: '88001', latitude: 32.31, longitude: -106.78 },
        ],
      },
      epe,
    );
    expect(snap.counties).toEqual([{ fips: '35013', customers_out: 2, customers_served: null }]);
    expect(snap.unreadable).toEqual(['outage 1: zipcode null', 'ZIP row 0: zipcode "unknown"']);
    expect(snap.customers_out).toBe(7);
  });

  it('names the field of an unexpected shape', () => {
    expect(() => normalize({ outages: {} }, epe)).toThrow(/outages: expected array/);
    expect(() => normalize({ outages: [{ latitude: '31.8' }] }, epe)).toThrow(/outages\.0\.latitude/);
    expect(() => normalize({ customersAffectedPerZipcode: [{ customersAffected: {} }] }, epe)).toThrow(
      /customersAffectedPerZipcode\.0\.customersAffected/,
    );
  });
});
