import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { normalize } from './normalize.ts';
import { mapTime } from './times.ts';
import { hasSharedData, sharedJson, sharedPath, sourceDef } from '../../../test/shared-data.ts';

interface Point {
  icon: string;
  custOut: number;
  latitude: number;
  longitude: number;
  etr: string;
  reported: string;
}
interface County {
  countyName: string;
  custOutUnplan: number;
  custOutPlan: number;
}
interface MapList {
  count: number;
  totalState: number;
  outages: Point[];
  counties: County[];
}
// Real Rocky Mountain Power (Utah) at the storm peak: map + list merged by the scraper, so it serves as both files.
const peak = () => sharedJson('payloads/pacificorp/rmp-maplistUT-2024-03-03T0045Z.json') as MapList;
const frame = (n: string) => sharedJson(`sequences/rmp-ut-storm-mar-2024/${n}.json`) as MapList;
/** commit_time_utc of each sequence version (index.csv), standing in for the answer's HTTP Date */
const committed = new Map(
  hasSharedData
    ? readFileSync(sharedPath('sequences/rmp-ut-storm-mar-2024/index.csv'), 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(','))
        .map((c) => [c[1].replace('.json', ''), c[5]])
    : [],
);
const rmp = sourceDef({ connector: 'pacificorp' as never, utility: 'Rocky Mountain Power', states: ['UT'] });
const UT: Record<string, string> = {
  'Box Elder': '49003',
  Cache: '49005',
  Carbon: '49007',
  Davis: '49011',
  Grand: '49019',
  Iron: '49021',
  Juab: '49023',
  Millard: '49027',
  Morgan: '49029',
  'Salt Lake': '49035',
  Sanpete: '49039',
  Tooele: '49045',
  Utah: '49049',
  Weber: '49057',
};
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('pacificorp normalize', () => {
  it.skipIf(!hasSharedData)(
    'reads the real Utah storm peak: headline, list counties, one incident per point with local times',
    () => {
      const f = peak();
      expect(f.outages.length).toBeGreaterThan(0);
      const snap = normalize({ captured_at: '2024-03-03T00:45:28Z', states: [{ state: 'UT', map: f, list: f }] }, rmp);
      expect(snap.customers_out).toBe(f.totalState);
      expect(snap.customers_out).toBe(sum(f.outages.map((p) => p.custOut)));
      expect(snap.counties).toEqual(
        f.counties.map((c) => ({ fips: UT[c.countyName], customers_out: c.custOutUnplan, customers_served: null })),
      );
      expect(snap).toMatchObject({ customers_served: null, unmatched: [], basis: 'county' });
      expect(snap.incidents).toHaveLength(f.outages.length);
      expect(new Set(snap.incidents.map((i) => i.id)).size).toBe(f.outages.length);
      // "Assessing" is no time; "Before 08:30 PM on 03/02" is 20:30 MST = 03:30Z next day
      expect(snap.incidents[0]).toMatchObject({
        id: 'UT:37.694,-113.661@03/02 12:24 PM',
        fips: '49021',
        customers_out: 2,
        etr: null,
        started_at: '2024-03-02T19:24:00.000Z',
        crew_status: 'Crews Arrived',
        cause: 'Investigating',
      });
      expect(snap.incidents[1]).toMatchObject({
        fips: '49021',
        customers_out: 3,
        etr: '2024-03-03T03:30:00.000Z',
        started_at: '2024-03-03T00:19:00.000Z',
        lat: 37.757,
        lon: -113.07,
      });
    },
  );
  it.skipIf(!hasSharedData)('leaves local times null when the raw carries no answer date (no clock of its own)', () => {
    const f = peak();
    const snap = normalize({ states: [{ state: 'UT', map: f, list: null }] }, rmp);
    expect(snap.incidents.every((i) => i.etr === null && i.started_at === null)).toBe(true);
  });
  it.skipIf(!hasSharedData)(
    'counts planned points as PacifiCorp’s headline does, flagged, across the storm sequence; totalState is the sum of custOut',
    () => {
      for (const n of ['0001', '0017', '0030', '0046', '0059']) {
        const f = frame(n);
        expect(f.totalState).toBe(sum(f.outages.map((p) => p.custOut)));
        const planned = f.outages.filter((p) => p.icon === 'planned');
        const snap = normalize({ captured_at: committed.get(n), states: [{ state: 'UT', map: f, list: f }] }, rmp);
        expect(snap.customers_out).toBe(f.totalState);
        expect(snap.planned_out).toBe(sum(planned.map((p) => p.custOut)));
        expect(snap.incidents).toHaveLength(f.outages.length);
        expect(snap.incidents.filter((i) => i.planned)).toHaveLength(planned.length);
        const listed = f.counties.map((c) => c.custOutUnplan + ((c as { custOutPlan?: number }).custOutPlan ?? 0));
        expect(sum(snap.counties.map((c) => c.customers_out))).toBe(sum(listed));
        expect(snap.unmatched).toEqual([]);
      }
      // frame 0017 has a 68-customer planned maintenance point (09:40 AM MST reported, before 02:00 PM): in progress
      const f = frame('0017');
      expect(f.outages.filter((p) => p.icon === 'planned').map((p) => p.custOut)).toEqual([68]);
      const snap = normalize({ states: [{ state: 'UT', map: f, list: f }] }, rmp);
      expect([snap.customers_out, snap.planned_out]).toEqual([f.totalState, 68]);
    },
  );
  it.skipIf(!hasSharedData)(
    'sums points per county, planned included, when there is no list file (hand-made sample, parsing only)',
    () => {
      const sample = (sharedJson('payloads/pacificorp/sample.json') as { states: MapList[] }).states[0];
      const snap = normalize({ states: [{ state: 'UT', map: sample, list: null }] }, rmp);
      expect(snap.customers_out).toBe(sample.totalState);
      const planned = sample.outages.filter((p) => p.icon === 'planned');
      expect(snap.planned_out).toBe(sum(planned.map((p) => p.custOut)));
      expect(snap.incidents.map((i) => [i.customers_out, i.planned])).toEqual(
        sample.outages.map((p) => [p.custOut, p.icon === 'planned']),
      );
      expect(sum(snap.counties.map((c) => c.customers_out))).toBe(sample.totalState);
    },
  );
  it('adds states up and matches list county names in their own state', () => {
    const map = (pts: Array<Partial<Point>>, total: number) => ({ totalState: total, outages: pts });
    const snap = normalize(
      {
        states: [
          {
            state: 'UT',
            map: map([{ latitude: 37.1, longitude: -113.6, custOut: 4, reported: '01:00 PM on 03/02' }], 4),
            list: { counties: [{ countyName: 'Washington', custOutUnplan: 4 }] },
          },
          {
            state: 'OR',
            map: map([{ latitude: 45.5, longitude: -122.9, custOut: 6, reported: '01:00 PM on 03/02' }], 6),
            list: {
              counties: [
                { countyName: 'Washington', custOutUnplan: 6 },
                { countyName: 'Atlantis', custOutUnplan: 0 },
              ],
            },
          },
        ],
      },
      rmp,
    );
    expect(snap.customers_out).toBe(10);
    expect(snap.counties).toEqual([
      { fips: '41067', customers_out: 6, customers_served: null },
      { fips: '49053', customers_out: 4, customers_served: null },
    ]);
    expect(snap.unmatched).toEqual(['Atlantis (OR)']);
    expect(snap.incidents.map((i) => i.id)).toEqual(['UT:37.1,-113.6@03/02 01:00 PM', 'OR:45.5,-122.9@03/02 01:00 PM']);
  });
  it('resolves the missing year from the answer date, across New Year and DST, and refuses far-off dates', () => {
    const newYearsEve = Date.parse('2024-12-31T23:00:00Z');
    expect(mapTime('Before 02:00 AM on 01/01', 'America/Denver', newYearsEve)).toBe('2025-01-01T09:00:00.000Z');
    expect(mapTime('11:50 PM on 12/30', 'America/Denver', newYearsEve)).toBe('2024-12-31T06:50:00.000Z');
    expect(mapTime('Before 05:30 PM on 07/01', 'America/Los_Angeles', Date.parse('2024-07-01T12:00:00Z'))).toBe(
      '2024-07-02T00:30:00.000Z',
    );
    // the night DST starts in Denver: 01:45 is still MST (-7), 03:15 already MDT (-6)
    const dst = Date.parse('2024-03-10T12:00:00Z');
    expect([
      mapTime('01:45 AM on 03/10', 'America/Denver', dst),
      mapTime('Before 03:15 AM on 03/10', 'America/Denver', dst),
    ]).toEqual(['2024-03-10T08:45:00.000Z', '2024-03-10T09:15:00.000Z']);
    for (const bad of ['Before 05:30 PM on 09/27', 'Assessing', '', '25:00 PM on 03/02', 'Before 05:30 PM on 02/30']) {
      expect(mapTime(bad, 'America/Denver', Date.parse('2024-03-03T00:45:28Z'))).toBeNull();
    }
  });
  it('names the field when a file has an unexpected shape', () => {
    expect(() =>
      normalize({ states: [{ state: 'UT', map: { totalState: 1, outages: [{ custOut: {} }] } }] }, rmp),
    ).toThrow(/states\.0\.map\.outages\.0\.custOut/);
    expect(() =>
      normalize({ states: [{ state: 'UT', map: {}, list: { counties: [{ custOutUnplan: 1 }] } }] }, rmp),
    ).toThrow(/counties\.0\.countyName/);
  });
});
