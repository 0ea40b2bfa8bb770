// KUB normalize. Tested on the peer's edited sample only (payloads/kub/sample.json): values rounded/edited, field
// names as the peer's adapter reads them. Expected totals are computed here from the payload itself.
import { describe, expect, it } from 'vitest';
import { etrOf, normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

interface Outage {
  id: number;
  customerCount: string;
  x: number;
  y: number;
  ertProvided: boolean;
  estimatedRestoreTime?: string;
}
interface Answer {
  electricOutage: Outage[];
  electricOutageInfo: Array<{ totalElectricCustomers: number; electricCustomersWithoutPower: number }>;
}
const sample = () => sharedJson('payloads/kub/sample.json') as Answer;
const kub = sourceDef({ connector: 'kub' as never, utility: 'Knoxville Utilities Board', states: ['TN'] });
const KNOX = '47093';

describe('kub normalize', () => {
  it.skipIf(!hasSharedData)('takes the headline totals from electricOutageInfo and places each outage', () => {
    const raw = sample();
    const info = raw.electricOutageInfo[0];
    const summed = raw.electricOutage.reduce((s, o) => s + Number(o.customerCount), 0);
    const snap = normalize(raw, kub);
    expect(snap.customers_out).toBe(info.electricCustomersWithoutPower);
    expect(snap.customers_served).toBe(info.totalElectricCustomers);
    expect(snap.incidents).toHaveLength(raw.electricOutage.length);
    expect(snap.incidents.map((i) => i.id)).toEqual(raw.electricOutage.map((o) => String(o.id)));
    // both sample points lie in Knox County
    expect(snap.counties).toEqual([{ fips: KNOX, customers_out: summed, customers_served: null }]);
    expect(snap.counties.every((c) => c.fips.startsWith('47'))).toBe(true);
    expect(snap).toMatchObject({ unmatched: [], basis: 'county', unit: 'customers' });
  });

  it.skipIf(!hasSharedData)('reads the ETR in Eastern time, and only when ertProvided says so', () => {
    const raw = sample();
    const [first, second] = raw.electricOutage;
    expect(first).toMatchObject({ ertProvided: true, estimatedRestoreTime: '2026-06-24T21:00:00' });
    expect(second.ertProvided).toBe(false);
    const snap = normalize(raw, kub);
    expect(snap.incidents[0]).toEqual({
      id: String(first.id),
      fips: KNOX,
      customers_out: Number(first.customerCount),
      etr: '2026-06-25T01:00:00.000Z', // 9 p.m. EDT
      crew_status: null,
      cause: null,
      started_at: null,
      lat: first.y,
      lon: first.x,
      city: null,
      planned: false,
    });
    expect(snap.incidents[1]).toMatchObject({ id: String(second.id), etr: null, fips: KNOX, customers_out: 16 });
    // a time sent without the flag is not an ETR
    first.ertProvided = false;
    expect(normalize(raw, kub).incidents[0].etr).toBeNull();
    // options.time_zone overrides Eastern
    first.ertProvided = true;
    const central = sourceDef({ ...kub, options: { time_zone: 'America/Chicago' } });
    expect(normalize(raw, central).incidents[0].etr).toBe('2026-06-25T02:00:00.000Z');
  });

  it('sums the outages without a headline; leaves points outside Tennessee unplaced', () => {
    const snap = normalize(
      {
        electricOutage: [
          { id: 7, customerCount: '1,204', x: -83.92, y: 35.96, ertProvided: 'true', estimatedRestoreTime: 'x' },
          { id: 8, customerCount: '9', x: -84.3, y: 34.9 }, // Fannin County, Georgia
          { customerCount: '4', x: null, y: null },
          { customerCount: 2, x: 0, y: 0 },
        ],
      },
      kub,
    );
    expect(snap.customers_out).toBe(1219);
    expect(snap.customers_served).toBeNull();
    expect(snap.counties).toEqual([{ fips: KNOX, customers_out: 1204, customers_served: null }]);
    expect(snap.incidents.map((i) => [i.id, i.fips, i.etr])).toEqual([
      ['7', KNOX, null],
      ['8', null, null],
      ['outage', null, null],
      ['outage#2', null, null],
    ]);
    expect(snap.unmatched).toEqual(['3 point(s) not placed in a county (15 customers out)']);
  });

  it('reads an empty day, and a headline with no placed point as a utility total', () => {
    const quiet = { electricOutage: [], electricOutageInfo: [{ totalElectricCustomers: '228,355' }] };
    expect(normalize(quiet, kub)).toMatchObject({ customers_out: 0, customers_served: 228355, basis: 'county' });
    expect(normalize({}, kub)).toMatchObject({ customers_out: 0, incidents: [], customers_served: null });
    const offMap = {
      electricOutage: [{ id: 1, customerCount: '5' }],
      // the headline wins over the list's sum (they can be refreshed at different moments)
      electricOutageInfo: [{ totalElectricCustomers: 228355, electricCustomersWithoutPower: 7 }],
    };
    expect(normalize(offMap, kub)).toMatchObject({ customers_out: 7, counties: [], basis: 'utility_total' });
  });

  it('reads wall clock in the zone, an explicit offset as given, and refuses other text', () => {
    const ny = 'America/New_York';
    expect(etrOf('2026-01-15T18:30:45', ny)).toBe('2026-01-15T23:30:45.000Z');
    expect(etrOf('2026-06-24 21:00', ny)).toBe('2026-06-25T01:00:00.000Z');
    expect(etrOf('2026-06-24T21:00:00Z', ny)).toBe('2026-06-24T21:00:00.000Z');
    expect(etrOf('2026-06-24T21:00:00-04:00', ny)).toBe('2026-06-25T01:00:00.000Z');
    for (const bad of ['', 'TBD', '0001-01-01T00:00:00', '2026-06-24T25:00:00', '06/24/2026 9:00 PM'])
      expect(etrOf(bad, ny)).toBeNull();
  });

  it('names the field when the answer has an unexpected shape', () => {
    expect(() => normalize({ electricOutage: [{ customerCount: {} }] }, kub)).toThrow(
      /electricOutage\.0\.customerCount/,
    );
    expect(() => normalize({ electricOutage: [{ x: '-83.9' }] }, kub)).toThrow(/electricOutage\.0\.x/);
    expect(() => normalize({ electricOutage: {} }, kub)).toThrow(/electricOutage: expected array/);
    expect(() => normalize({ electricOutage: [], electricOutageInfo: [{ totalElectricCustomers: [] }] }, kub)).toThrow(
      /electricOutageInfo\.0\.totalElectricCustomers/,
    );
    expect(() => normalize([], kub)).toThrow(/\(root\): expected object/);
  });
});
