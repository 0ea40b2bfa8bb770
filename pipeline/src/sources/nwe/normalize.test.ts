// NorthWestern Energy normalize. Tested on the peer's edited sample only (payloads/nwe/sample.json, the list inside
// `d`): values rounded/edited, field names as the peer's adapter reads them. The other answers here are made up from it.
import { describe, expect, it } from 'vitest';
import { etrOf, normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

interface Outage {
  NUM_CUST: number | string;
  AREA?: string | null;
  LATITUDE?: number | string | null;
  LONGITUDE?: number | string | null;
  ETR?: string | null;
}
const sample = () => sharedJson('payloads/nwe/sample.json') as Outage[];
const nwe = sourceDef({ connector: 'nwe' as never, utility: 'NorthWestern Energy', states: ['MT', 'SD', 'NE'] });
/** The sample's towns by county (Census), independent of the point placement under test. */
const TOWN_COUNTY: Record<string, string> = {
  'Great Falls': '30013', // Cascade County, MT
  Bozeman: '30031', // Gallatin County, MT
};
/** State FIPS of the row's states: MT, SD, NE. */
const ROW_STATES = ['30', '46', '31'];
const sum = (list: Outage[]) => list.reduce((s, o) => s + Number(o.NUM_CUST), 0);
const outage = (over: Partial<Outage>): Outage => ({
  NUM_CUST: 10,
  AREA: 'Butte',
  LATITUDE: 46.0,
  LONGITUDE: -112.53,
  ...over,
});

describe.skipIf(!hasSharedData)('nwe normalize, the peer sample', () => {
  it('sums the points as customers_out and places every point in its town county', () => {
    const raw = sample();
    expect(raw.length).toBeGreaterThan(0);
    const out: Record<string, number> = {};
    for (const o of raw) {
      const fips = TOWN_COUNTY[o.AREA as string];
      out[fips] = (out[fips] ?? 0) + Number(o.NUM_CUST);
    }
    const snap = normalize(raw, nwe);
    expect(snap.customers_out).toBe(sum(raw));
    expect(snap.customers_out).toBe(72);
    expect(snap.incidents).toHaveLength(raw.length);
    expect(snap.incidents.map((i) => i.customers_out)).toEqual(raw.map((o) => o.NUM_CUST));
    expect(snap.counties).toEqual(
      Object.keys(out)
        .sort()
        .map((fips) => ({ fips, customers_out: out[fips], customers_served: null })),
    );
    expect(snap.counties.every((c) => ROW_STATES.includes(c.fips.slice(0, 2)))).toBe(true);
    expect(snap).toMatchObject({
      customers_served: null,
      unmatched: [],
      notice: null,
      basis: 'county',
      unit: 'customers',
    });
  });

  it('reads each point: id from area and point, the area as city, ETR as Mountain wall clock', () => {
    const snap = normalize(sample(), nwe);
    // 2026-06-24T20:00:00 is MDT (UTC-6) in June
    expect(snap.incidents).toEqual([
      {
        id: 'Great Falls@47.5,-111.3',
        fips: '30013',
        customers_out: 49,
        etr: '2026-06-25T02:00:00.000Z',
        crew_status: null,
        cause: null,
        started_at: null,
        lat: 47.5,
        lon: -111.3,
        city: 'Great Falls',
        planned: false,
      },
      {
        id: 'Bozeman@45.68,-111.04',
        fips: '30031',
        customers_out: 23,
        etr: null,
        crew_status: null,
        cause: null,
        started_at: null,
        lat: 45.68,
        lon: -111.04,
        city: 'Bozeman',
        planned: false,
      },
    ]);
  });

  it('reads the answer as the upstream sends it, {d: "<JSON text>"}, the same as the list fetch returns', () => {
    const raw = sample();
    expect(normalize({ d: JSON.stringify(raw) }, nwe)).toEqual(normalize(raw, nwe));
  });
});

describe('nwe normalize, made-up answers', () => {
  it('leaves points outside the row states, without a point or at 0,0 unplaced, counted in the total', () => {
    const snap = normalize(
      [
        outage({ NUM_CUST: 40, AREA: 'Aberdeen', LATITUDE: 45.46, LONGITUDE: -98.49 }), // Brown County, SD
        outage({ NUM_CUST: 5, AREA: 'Mammoth', LATITUDE: 44.977, LONGITUDE: -110.7 }), // Yellowstone: WY
        outage({ NUM_CUST: 20, LATITUDE: null, LONGITUDE: null }),
        outage({ NUM_CUST: 10, LATITUDE: 0, LONGITUDE: 0 }),
        outage({ NUM_CUST: 0, AREA: 'Helena', LATITUDE: 46.59, LONGITUDE: -112.04 }), // Lewis and Clark, MT
      ],
      nwe,
    );
    expect(snap.counties).toEqual([{ fips: '46013', customers_out: 40, customers_served: null }]);
    expect(snap.incidents.map((i) => i.fips)).toEqual(['46013', null, null, null, '30049']);
    expect(snap.incidents.map((i) => i.id)).toEqual([
      'Aberdeen@45.46,-98.49',
      'Mammoth@44.977,-110.7',
      'Butte',
      'Butte#2',
      'Helena@46.59,-112.04',
    ]);
    expect(snap.unmatched).toEqual(['3 point(s) not placed in a county (35 customers out)']);
    expect(snap).toMatchObject({ customers_out: 75, basis: 'county' });
    // with Wyoming on the row, the Yellowstone point lands in Park County, WY
    const withWy = normalize([outage({ NUM_CUST: 5, LATITUDE: 44.977, LONGITUDE: -110.7 })], {
      ...nwe,
      states: ['MT', 'SD', 'WY'],
    });
    expect(withWy.counties).toEqual([{ fips: '56029', customers_out: 5, customers_served: null }]);
  });

  it('reads counts and coordinates sent as text; an id-less point without an area is its point', () => {
    const snap = normalize([outage({ NUM_CUST: '1,250', AREA: ' ', LATITUDE: '46.0', LONGITUDE: '-112.53' })], nwe);
    expect(snap.incidents[0]).toMatchObject({
      id: '46,-112.53',
      customers_out: 1250,
      fips: '30093', // Silver Bow County, MT
      city: null,
      lat: 46,
      lon: -112.53,
    });
    expect(snap.customers_out).toBe(1250);
  });

  it('is outage_only when no point is placed, county grade for an empty list', () => {
    const none = normalize([outage({ LATITUDE: null, LONGITUDE: null })], nwe);
    expect(none).toMatchObject({ basis: 'outage_only', counties: [], customers_out: 10 });
    expect(normalize([], nwe)).toMatchObject({ basis: 'county', customers_out: 0, incidents: [], counties: [] });
    expect(normalize({ d: '[]' }, nwe)).toMatchObject({ basis: 'county', customers_out: 0 });
  });

  it('reads ETRs as Mountain wall clock unless they carry a zone; placeholders and junk are none', () => {
    const z = 'America/Denver';
    expect(etrOf('2026-01-15T08:05:00', z)).toBe('2026-01-15T15:05:00.000Z'); // MST, UTC-7
    expect(etrOf('2026-06-24 20:00', z)).toBe('2026-06-25T02:00:00.000Z');
    expect(etrOf('2026-06-24T20:00:00Z', z)).toBe('2026-06-24T20:00:00.000Z');
    expect(etrOf('2026-06-24T20:00:00-05:00', z)).toBe('2026-06-25T01:00:00.000Z');
    for (const none of ['0001-01-01T00:00:00', '', null, 'Assessing', '06/24/2026 8:00 PM', '2026-06-24'])
      expect(etrOf(none, z)).toBeNull();
    const central = sourceDef({ ...nwe, options: { time_zone: 'America/Chicago' } });
    const list = [outage({ ETR: '2026-06-24T20:00:00' })];
    expect(normalize(list, central).incidents[0].etr).toBe('2026-06-25T01:00:00.000Z');
    expect(normalize(list, nwe).incidents[0].etr).toBe('2026-06-25T02:00:00.000Z');
  });

  it('names the field when the answer has an unexpected shape', () => {
    expect(() => normalize([outage({ NUM_CUST: undefined as never })], nwe)).toThrow(
      /d\.0\.NUM_CUST: expected a count \(number or digits\), got undefined/,
    );
    expect(() => normalize([outage({}), outage({ NUM_CUST: 'many' })], nwe)).toThrow(/d\.1\.NUM_CUST/);
    expect(() => normalize([outage({ LATITUDE: {} as never })], nwe)).toThrow(
      /d\.0\.LATITUDE: expected number or string, got object/,
    );
    expect(() => normalize([outage({ ETR: 5 as never })], nwe)).toThrow(/d\.0\.ETR: expected string/);
    expect(() => normalize(['x'], nwe)).toThrow(/d\.0: expected object, got string/);
    expect(() => normalize({ d: JSON.stringify({ Message: 'There was an error.' }) }, nwe)).toThrow(
      /d: expected array, got object \(Message: There was an error\.\)/,
    );
    expect(() => normalize({ d: 5 }, nwe)).toThrow(/d: expected string \(JSON text\), got number/);
    expect(() => normalize({ d: '<html>' }, nwe)).toThrow(expect.objectContaining({ reason: 'bad_body' }));
  });
});
