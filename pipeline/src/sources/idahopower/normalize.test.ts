// Idaho Power normalize. Tested on the peer's edited sample only (payloads/idaho-power/sample.json): values
// rounded/edited, field names as the peer's adapter reads them. The other answers here are made up from it.
import { describe, expect, it } from 'vitest';
import { etrOf, normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

interface Outage {
  omsCustomerCount: number;
  outageCity: Array<{ outageCityName: string }>;
  omsFeederName: string;
  omsEstimatedOutageRestorationDate: string | null;
  latitude: number | null;
  longitude: number | null;
  [k: string]: unknown;
}
interface Answer {
  object: { totalCustomersAffected?: number | string; outages: Outage[] };
}
const sample = () => sharedJson('payloads/idaho-power/sample.json') as Answer;
const idaho = sourceDef({ connector: 'idahopower' as never, utility: 'Idaho Power', states: ['ID', 'OR'] });
/** The sample's towns by county (Census), independent of the point placement under test. */
const CITY_COUNTY: Record<string, string> = {
  CROUCH: '16015', // Boise County, ID
  MIDDLETON: '16027', // Canyon County, ID
};
const sum = (list: Outage[]) => list.reduce((s, o) => s + o.omsCustomerCount, 0);
const outage = (over: Partial<Outage>): Outage => ({
  omsCustomerCount: 10,
  outageCity: [{ outageCityName: 'BOISE' }],
  omsFeederName: 'F1',
  omsEstimatedOutageRestorationDate: null,
  latitude: 43.6,
  longitude: -116.2,
  ...over,
});

describe.skipIf(!hasSharedData)('idahopower normalize, the peer sample', () => {
  it('takes the headline as customers_out and places every point in its town county', () => {
    const raw = sample();
    const { outages, totalCustomersAffected } = raw.object;
    expect(outages.length).toBeGreaterThan(0);
    // the sample's own numbers agree: the headline is the sum of its points
    expect(totalCustomersAffected).toBe(sum(outages));
    const out: Record<string, number> = {};
    for (const o of outages) {
      const fips = CITY_COUNTY[o.outageCity[0].outageCityName];
      out[fips] = (out[fips] ?? 0) + o.omsCustomerCount;
    }
    const snap = normalize(raw, idaho);
    expect(snap.customers_out).toBe(totalCustomersAffected);
    expect(snap.incidents).toHaveLength(outages.length);
    expect(snap.incidents.map((i) => i.customers_out)).toEqual(outages.map((o) => o.omsCustomerCount));
    expect(snap.counties).toEqual(
      Object.keys(out)
        .sort()
        .map((fips) => ({ fips, customers_out: out[fips], customers_served: null })),
    );
    expect(snap.counties.every((c) => c.fips.startsWith('16') || c.fips.startsWith('41'))).toBe(true);
    expect(snap).toMatchObject({
      customers_served: null,
      unmatched: [],
      notice: null,
      basis: 'county',
      unit: 'customers',
    });
  });

  it('reads each outage: id from feeder and point, first city, ETR as Boise wall clock', () => {
    const snap = normalize(sample(), idaho);
    // 2026-06-24T17:30:00 is MDT (UTC-6) in June
    expect(snap.incidents).toEqual([
      {
        id: 'HBND41@44.1,-115.9',
        fips: '16015',
        customers_out: 119,
        etr: '2026-06-24T23:30:00.000Z',
        crew_status: null,
        cause: null,
        started_at: null,
        lat: 44.1,
        lon: -115.9,
        city: 'CROUCH',
        planned: false,
      },
      {
        id: 'X@43.7,-116.6',
        fips: '16027',
        customers_out: 24,
        etr: null,
        crew_status: null,
        cause: null,
        started_at: null,
        lat: 43.7,
        lon: -116.6,
        city: 'MIDDLETON',
        planned: false,
      },
    ]);
  });

  it('sums the points when the headline is missing, and reads a headline sent as text', () => {
    const raw = sample();
    const points = sum(raw.object.outages);
    delete raw.object.totalCustomersAffected;
    expect(normalize(raw, idaho).customers_out).toBe(points);
    raw.object.totalCustomersAffected = '1,250';
    expect(normalize(raw, idaho).customers_out).toBe(1250);
  });
});

describe('idahopower normalize, made-up answers', () => {
  it('leaves points outside the row states, without a point or off the shapes unplaced, counted in the total', () => {
    const answer = {
      object: {
        totalCustomersAffected: 75,
        outages: [
          outage({ omsCustomerCount: 40, latitude: 44.02, longitude: -116.96 }), // Ontario: Malheur, OR
          outage({ omsCustomerCount: 5, latitude: 47.6, longitude: -122.3 }), // Seattle: WA, not a row state
          outage({ omsCustomerCount: 20, latitude: null, longitude: null }),
          outage({ omsCustomerCount: 10, latitude: 0, longitude: 0 }),
        ],
      },
    };
    const snap = normalize(answer, idaho);
    expect(snap.counties).toEqual([{ fips: '41045', customers_out: 40, customers_served: null }]);
    expect(snap.incidents.map((i) => i.fips)).toEqual(['41045', null, null, null]);
    expect(snap.incidents.map((i) => i.id)).toEqual(['F1@44.02,-116.96', 'F1@47.6,-122.3', 'F1', 'F1#2']);
    expect(snap.unmatched).toEqual(['3 point(s) not placed in a county (35 customers out)']);
    expect(snap).toMatchObject({ customers_out: 75, basis: 'county' });
  });

  it('reads the id, cause and status other clients name, and counts a planned outage in progress, flagged', () => {
    const outages = [
      outage({ omsOutageId: 9001, probableCause: ' Equipment ', omsStatusDescription: 'Crew assigned' }),
      outage({ omsOutageId: '9002', isPlannedOutage: true, omsCustomerCount: 99 }),
      outage({ omsOutageId: '9003', isPlannedOutage: false, outageCity: [{ outageCityName: ' ' }] }),
    ];
    const snap = normalize({ object: { outages } }, idaho);
    expect(snap.incidents.map((i) => i.id)).toEqual(['9001', '9002', '9003']);
    expect(snap.incidents.map((i) => i.planned)).toEqual(outages.map((o) => o.isPlannedOutage === true));
    expect(snap.incidents[0]).toMatchObject({ cause: 'Equipment', crew_status: 'Crew assigned', fips: '16001' });
    expect(snap.incidents[1]).toMatchObject({ customers_out: outages[1].omsCustomerCount, fips: '16001' });
    expect(snap.incidents[2].city).toBeNull();
    expect(snap.customers_out).toBe(sum(outages));
    expect(snap.counties).toEqual([{ fips: '16001', customers_out: sum(outages), customers_served: null }]);
  });

  it('is outage_only when no point is placed, county grade for an empty answer', () => {
    const none = normalize({ object: { outages: [outage({ latitude: null, longitude: null })] } }, idaho);
    expect(none).toMatchObject({ basis: 'outage_only', counties: [], customers_out: 10 });
    expect(normalize({ object: { totalCustomersAffected: 0, outages: [] } }, idaho)).toMatchObject({
      basis: 'county',
      customers_out: 0,
      incidents: [],
    });
  });

  it('reads ETRs as Mountain wall clock unless they carry a zone; placeholders and junk are none', () => {
    const z = 'America/Boise';
    expect(etrOf('2026-01-15T08:05:00', z)).toBe('2026-01-15T15:05:00.000Z'); // MST, UTC-7
    expect(etrOf('2026-06-24 17:30', z)).toBe('2026-06-24T23:30:00.000Z');
    expect(etrOf('2026-06-24T17:30:15.123', z)).toBe('2026-06-24T23:30:15.000Z');
    expect(etrOf('2026-06-24T17:30:00Z', z)).toBe('2026-06-24T17:30:00.000Z');
    expect(etrOf('2026-06-24T17:30:00-06:00', z)).toBe('2026-06-24T23:30:00.000Z');
    expect(etrOf('2026-06-24T17:30:00', 'America/Los_Angeles')).toBe('2026-06-25T00:30:00.000Z');
    for (const none of ['0001-01-01T00:00:00', '', null, 'TBD', '06/24/2026 5:30 PM', '2026-06-24'])
      expect(etrOf(none, z)).toBeNull();
    const pacific = sourceDef({ ...idaho, options: { time_zone: 'America/Los_Angeles' } });
    const answer = { object: { outages: [outage({ omsEstimatedOutageRestorationDate: '2026-06-24T17:30:00' })] } };
    expect(normalize(answer, pacific).incidents[0].etr).toBe('2026-06-25T00:30:00.000Z');
    expect(normalize(answer, idaho).incidents[0].etr).toBe('2026-06-24T23:30:00.000Z');
  });

  it('names the field when the answer has an unexpected shape', () => {
    expect(() => normalize({ outages: [] }, idaho)).toThrow(/object: expected object, got undefined/);
    expect(() => normalize({ object: { outages: {} } }, idaho)).toThrow(/object\.outages: expected array/);
    expect(() => normalize({ object: { outages: [outage({ omsCustomerCount: {} as never })] } }, idaho)).toThrow(
      /object\.outages\.0\.omsCustomerCount: expected number or string, got object/,
    );
    expect(() =>
      normalize({ object: { outages: [outage({ outageCity: [{ outageCityName: 7 as never }] })] } }, idaho),
    ).toThrow(/object\.outages\.0\.outageCity\.0\.outageCityName/);
    expect(() => normalize({ object: { totalCustomersAffected: true, outages: [] } }, idaho)).toThrow(
      /object\.totalCustomersAffected/,
    );
  });
});
