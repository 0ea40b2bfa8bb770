// Point-list normalize driven by registry options alone: the peers' KUB, Idaho Power and Hawaiian Electric samples
// (edited values; they prove parsing, not facts) read as `pointlist` rows, with totals and counties computed here from
// each payload by the test's own county lookup (d3-geo over us-atlas), never by the connector's. Then made-up answers
// for the county-name fallback, the id rules and the ETR formats, and the options' own checks.
import { describe, expect, it } from 'vitest';
import { normalize } from './normalize.ts';
import { pointSpec } from './options.ts';
import { readEtr } from './etr.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';
import { countyContaining, tallyByCounty } from '../../../test/county-lookup.ts';

const row = (states: string[], options: Record<string, unknown>) =>
  sourceDef({ connector: 'pointlist', utility: 'Point List Utility', states, options });

/** The counties a snapshot publishes, as a map for comparison with the test's own tally. */
const countiesOf = (snap: ReturnType<typeof normalize>) => new Map(snap.counties.map((c) => [c.fips, c.customers_out]));

describe.skipIf(!hasSharedData)('pointlist normalize, the peers’ samples as registry rows', () => {
  it('KUB: the headline, the served total and each point in its county, from options alone', () => {
    const raw = sharedJson('payloads/kub/sample.json') as {
      electricOutage: Array<{ id: number; customerCount: string; x: number; y: number }>;
      electricOutageInfo: Array<{ totalElectricCustomers: number; electricCustomersWithoutPower: number }>;
    };
    const snap = normalize(
      raw,
      row(['TN'], {
        list: 'electricOutage',
        count: 'customerCount',
        id: 'id',
        lon: 'x',
        lat: 'y',
        etr: 'estimatedRestoreTime',
        etr_flag: 'ertProvided',
        total: 'electricOutageInfo.0.electricCustomersWithoutPower',
        served: 'electricOutageInfo.0.totalElectricCustomers',
        time_zone: 'America/New_York',
      }),
    );
    const points = raw.electricOutage.map((o) => ({ lon: o.x, lat: o.y, out: Number(o.customerCount) }));
    expect(countiesOf(snap)).toEqual(tallyByCounty(points));
    expect(snap.customers_out).toBe(raw.electricOutageInfo[0].electricCustomersWithoutPower);
    expect(snap.customers_served).toBe(raw.electricOutageInfo[0].totalElectricCustomers);
    expect(snap.incidents.map((i) => i.id)).toEqual(raw.electricOutage.map((o) => String(o.id)));
    expect(snap).toMatchObject({ basis: 'county', unmatched: [] });
  });

  it('Idaho Power: a nested list, id parts with the point, a city from a list, the sum as the headline', () => {
    const raw = sharedJson('payloads/idaho-power/sample.json') as {
      object: {
        totalCustomersAffected: number;
        outages: Array<{
          omsCustomerCount: number;
          omsFeederName: string;
          latitude: number;
          longitude: number;
          outageCity: Array<{ outageCityName: string }>;
        }>;
      };
    };
    const options = {
      list: 'object.outages',
      count: 'omsCustomerCount',
      id_parts: ['omsFeederName'],
      lat: 'latitude',
      lon: 'longitude',
      city: 'outageCity.0.outageCityName',
      total: 'object.totalCustomersAffected',
    };
    const snap = normalize(raw, row(['ID', 'OR'], options));
    const { outages } = raw.object;
    expect(countiesOf(snap)).toEqual(
      tallyByCounty(outages.map((o) => ({ lon: o.longitude, lat: o.latitude, out: o.omsCustomerCount }))),
    );
    expect(snap.incidents.map((i) => [i.id, i.city])).toEqual(
      outages.map((o) => [`${o.omsFeederName}@${o.latitude},${o.longitude}`, o.outageCity[0].outageCityName]),
    );
    expect(snap.customers_out).toBe(raw.object.totalCustomersAffected);
    // without a headline path the customers out are the points' own sum
    const { total: _, ...noTotal } = options;
    expect(normalize(raw, row(['ID', 'OR'], noTotal)).customers_out).toBe(
      outages.reduce((s, o) => s + o.omsCustomerCount, 0),
    );
  });

  it('Hawaiian Electric: a point nested as geometry.coordinates[0]{x, y}', () => {
    const raw = sharedJson('payloads/heco/sample.json') as {
      outages: Array<{
        outageId: number;
        totalCustomersAffected: number;
        geometry: { coordinates: Array<{ x: number; y: number }> };
      }>;
    };
    const snap = normalize(
      raw,
      row(['HI'], {
        list: 'outages',
        count: 'totalCustomersAffected',
        id: 'outageId',
        lon: 'geometry.coordinates.0.x',
        lat: 'geometry.coordinates.0.y',
      }),
    );
    const points = raw.outages.map((o) => ({
      lon: o.geometry.coordinates[0].x,
      lat: o.geometry.coordinates[0].y,
      out: o.totalCustomersAffected,
    }));
    expect(countiesOf(snap)).toEqual(tallyByCounty(points));
    expect(snap.customers_out).toBe(points.reduce((s, p) => s + p.out, 0));
    expect(snap.customers_served).toBeNull();
  });
});

describe('pointlist normalize, made-up answers', () => {
  const options = {
    list: 'data',
    count: 'n',
    id: 'id',
    lat: 'lat',
    lon: 'lon',
    county: 'county',
    etr: 'etr',
    etr_format: 'mdy',
    cause: 'why',
    crew_status: 'crew',
    planned: 'planned',
  };

  it('places by the point, else by the county name in the row’s states; reports a name it cannot place', () => {
    const douglas = countyContaining(-96.07, 41.25); // Omaha
    const snap = normalize(
      {
        data: [
          { id: 'a', n: 3, lat: 41.25, lon: -96.07, county: 'Sarpy' },
          { id: 'b', n: '1,204', county: 'Cass' },
          { id: 'c', n: 2, lat: 47.6, lon: -122.3, county: 'Atlantis' }, // Seattle: outside NE, and no such county
          { id: 'd', n: 9, planned: true, lat: 41.25, lon: -96.07 },
          { id: 'e', n: 1, lat: 0, lon: 0, why: ' Tree ', crew: 'Enroute', etr: '10/7/2026 11:00:00 AM' },
        ],
      },
      row(['NE'], options),
    );
    expect(snap.incidents.map((i) => [i.id, i.fips])).toEqual([
      ['a', douglas],
      ['b', '31025'],
      ['c', null],
      ['d', douglas],
      ['e', null],
    ]);
    // Planned work in progress counts, as the utility's headline counts it, and is flagged.
    expect(snap.incidents.map((i) => i.planned)).toEqual([false, false, false, true, false]);
    expect(snap.planned_out).toBe(9);
    expect(snap.incidents[4]).toMatchObject({
      lat: null,
      lon: null,
      cause: 'Tree',
      crew_status: 'Enroute',
      etr: '2026-10-07T16:00:00.000Z', // 11 a.m. CDT
    });
    expect(snap.customers_out).toBe(3 + 1204 + 2 + 9 + 1);
    expect(snap.unmatched).toEqual([
      'Atlantis (no such county in NE)',
      '2 point(s) not placed in a county (3 customers out)',
    ]);
  });

  it('builds ids from the parts and the point when the outage has none, numbering repeats', () => {
    const snap = normalize(
      { data: [{ n: 1, f: 'F1', lat: 41.25, lon: -96.07 }, { n: 1, f: 'F1' }, { n: 1, f: 'F1' }, { n: 1 }] },
      row(['NE'], { list: 'data', count: 'n', id_parts: ['f'], lat: 'lat', lon: 'lon' }),
    );
    expect(snap.incidents.map((i) => i.id)).toEqual(['F1@41.25,-96.07', 'F1', 'F1#2', 'outage']);
    expect(snap.basis).toBe('county');
  });

  it('is a utility total when a headline exists and nothing is placed; a bare list is the answer itself', () => {
    const spec = { list: '', count: 'n', lat: 'lat', lon: 'lon' };
    expect(normalize([{ n: 4 }], row(['NE'], spec))).toMatchObject({ customers_out: 4, basis: 'outage_only' });
    const headed = { list: 'l', count: 'n', lat: 'lat', lon: 'lon', total: 't' };
    expect(normalize({ t: '7', l: [{ n: 4 }] }, row(['NE'], headed))).toMatchObject({
      customers_out: 7,
      basis: 'utility_total',
    });
    expect(normalize({ t: 0, l: [] }, row(['NE'], headed))).toMatchObject({ customers_out: 0, basis: 'county' });
  });

  it('reads the three ETR formats, each in the zone, and only its own shapes', () => {
    const chi = 'America/Chicago';
    expect(readEtr('2026-06-24T21:00:00', 'iso', chi)).toBe('2026-06-25T02:00:00.000Z');
    expect(readEtr('2026-06-24T21:00:00-0500', 'iso', chi)).toBe('2026-06-25T02:00:00.000Z');
    expect(readEtr('6/24/2026 7:00:00 PM', 'mdy', chi)).toBe('2026-06-25T00:00:00.000Z');
    expect(readEtr('6/24/2026 7:00:00 PM', 'iso', chi)).toBeNull();
    expect(readEtr(1_780_000_000_000, 'mdy', chi)).toBe(new Date(1_780_000_000_000).toISOString());
    const hi = 'Pacific/Honolulu';
    const at = Date.parse('2026-06-24T20:00:00Z'); // 10 a.m. in Honolulu on the 24th
    expect(readEtr('Today at 03:30 PM HST', 'day_at', hi, at)).toBe('2026-06-25T01:30:00.000Z');
    expect(readEtr('Tomorrow at 7:00 AM', 'day_at', hi, at)).toBe('2026-06-25T17:00:00.000Z');
    expect(readEtr('Today at 03:30 PM HST', 'day_at', hi)).toBeNull(); // no date to read "today" against
    for (const none of ['', 'TBD', '0001-01-01T00:00:00', '13/40/2026 7:00 PM', '2026-06-24T25:00:00'])
      expect([readEtr(none, 'iso', chi), readEtr(none, 'mdy', chi)]).toEqual([null, null]);
  });

  it('names the field of an unexpected shape', () => {
    const src = row(['NE'], options);
    expect(() => normalize({ data: [{ id: 'a', n: {} }] }, src)).toThrow(/data\.0\.n: expected number or string/);
    expect(() => normalize({ data: [{ id: 'a', lat: '41.2' }] }, src)).toThrow(/data\.0\.lat: expected number/);
    expect(() => normalize({ data: {} }, src)).toThrow(/data: expected array, got object/);
    expect(() => normalize({}, src)).toThrow(/data: expected array, got undefined/);
    expect(normalize({}, row(['NE'], { ...options, list_optional: true })).incidents).toEqual([]);
    const deep = row(['NE'], { list: 'a.b', count: 'n', lat: 'p.0.y', lon: 'p.0.x', total: 'h.0.t' });
    expect(() => normalize({ a: 'x' }, deep)).toThrow(/a: expected object, got string/);
    expect(() => normalize({ a: { b: [{ p: 'x' }] } }, deep)).toThrow(/a\.b\.0\.p: expected object/);
    expect(() => normalize({ h: [{ t: [] }], a: { b: [] } }, deep)).toThrow(/h\.0\.t: expected number or string/);
    expect(() => normalize({ data: [{ n: 1 }] }, row(['NE'], { ...options, id_required: true }))).toThrow(
      /data\.0\.id: expected number or string, got undefined/,
    );
  });

  it('refuses options that do not say where the list, the count or the place is, as config', () => {
    for (const bad of [
      {},
      { list: 'data', count: 'n' },
      { list: 'data', count: 'n', lat: 'y' },
      { list: 'data..x', count: 'n', county: 'c' },
      { list: 'data', count: 'n', county: 'c', etr_format: 'rfc2822' },
      { list: 'data', count: 'n', county: 'c', etr_fromat: 'mdy' }, // a typo is not ignored
    ])
      expect(() => pointSpec(bad), JSON.stringify(bad)).toThrow(/pointlist options/);
    expect(() => normalize({ data: [] }, row(['NE'], { list: 'data', count: 'n' }))).toThrow(
      expect.objectContaining({ reason: 'config' }),
    );
  });
});
