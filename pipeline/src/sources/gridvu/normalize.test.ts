// GridVu normalize. Tested on the peer's edited sample only (payloads/gridvu/sample.json): values rounded/edited,
// field names as the peer's adapter reads them. Expected totals are computed here from the payload itself.
import { describe, expect, it } from 'vitest';
import { etrOf, normalize } from './normalize.ts';
import { normalizeReadable } from '../unreadable.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

interface Outage {
  idf?: string;
  subst?: string;
  fd?: string;
  custAffected: number;
  lat: number;
  lon: number;
  etr?: string;
  planned?: boolean;
}
const sample = () => sharedJson('payloads/gridvu/sample.json') as { outageLst: Outage[] };
const bwl = sourceDef({ connector: 'gridvu' as never, utility: 'Lansing Board of Water & Light', states: ['MI'] });
const CLINTON = '26037';
const INGHAM = '26065';

describe('gridvu normalize', () => {
  it.skipIf(!hasSharedData)('places each outage by its point and sums their customers', () => {
    const raw = sample();
    const summed = raw.outageLst.reduce((s, o) => s + o.custAffected, 0);
    const snap = normalize(raw, bwl);
    expect(snap.customers_out).toBe(summed);
    expect(snap.planned_out).toBe(0); // the sample flags none planned
    expect(snap.incidents).toHaveLength(raw.outageLst.length);
    expect(snap.incidents.map((i) => i.id)).toEqual(raw.outageLst.map((o) => o.idf));
    // the second outage has no customers out: an incident, but no county row
    expect(snap.counties).toEqual([{ fips: CLINTON, customers_out: summed, customers_served: null }]);
    expect(snap.counties.every((c) => c.fips.startsWith('26'))).toBe(true);
    expect(snap).toMatchObject({ customers_served: null, unmatched: [], basis: 'county', unit: 'customers' });
  });

  it.skipIf(!hasSharedData)('reads the ETR as Lansing wall clock (Eastern), and no ETR as null', () => {
    const raw = sample();
    const [first, second] = raw.outageLst;
    expect(first.etr).toBe('2026-06-29T12:00:00');
    const snap = normalize(raw, bwl);
    expect(snap.incidents[0]).toEqual({
      id: 'i-1',
      fips: CLINTON,
      customers_out: first.custAffected,
      etr: '2026-06-29T16:00:00.000Z', // noon EDT
      crew_status: null,
      cause: null,
      started_at: null,
      lat: first.lat,
      lon: first.lon,
      city: null,
      planned: false,
    });
    expect(second.etr).toBeUndefined();
    expect(snap.incidents[1]).toMatchObject({ id: 'i-2', fips: INGHAM, customers_out: 0, etr: null });
  });

  it.skipIf(!hasSharedData)('counts planned outages in incidents, counties and customers_out, flagged', () => {
    const raw = sample();
    raw.outageLst[0].planned = true;
    const first = raw.outageLst[0];
    const snap = normalize(raw, bwl);
    expect(snap.incidents.map((i) => [i.id, i.planned])).toEqual([
      ['i-1', true],
      ['i-2', false],
    ]);
    expect(snap).toMatchObject({
      customers_out: raw.outageLst.reduce((s, o) => s + o.custAffected, 0),
      planned_out: first.custAffected,
      counties: [{ fips: CLINTON, customers_out: first.custAffected, customers_served: null }],
    });
  });

  it('builds ids from substation/feeder and point without idf; leaves points outside Michigan unplaced; counts planned "true"', () => {
    const snap = normalize(
      {
        outageLst: [
          { subst: 'NORTHEAST', fd: 'H981', custAffected: '1,204', lat: '42.73', lon: '-84.55' },
          { subst: 'NORTHEAST', fd: 'H981', custAffected: 3, lat: 42.73, lon: -84.55 },
          { idf: 'x', custAffected: 9, lat: 41.6, lon: -84.6 }, // Williams County, Ohio
          { custAffected: 4 },
          { custAffected: 2, lat: 0, lon: 0, planned: 'false' },
          { custAffected: 50, lat: 42.73, lon: -84.55, planned: 'true' },
        ],
      },
      bwl,
    );
    expect(snap.customers_out).toBe(1204 + 3 + 9 + 4 + 2 + 50);
    expect(snap.planned_out).toBe(50);
    expect(snap.incidents.map((i) => [i.id, i.fips, i.planned])).toEqual([
      ['NORTHEAST/H981@42.73,-84.55', INGHAM, false],
      ['NORTHEAST/H981@42.73,-84.55#2', INGHAM, false],
      ['x', null, false],
      ['outage', null, false],
      ['outage#2', null, false],
      ['42.73,-84.55', INGHAM, true],
    ]);
    expect(snap.counties).toEqual([{ fips: INGHAM, customers_out: 1204 + 3 + 50, customers_served: null }]);
    expect(snap.unmatched).toEqual(['3 point(s) not placed in a county (15 customers out)']);
  });

  it('an outage whose count cannot be read is never 0: noted and left out, the sum stands on the rest; with none readable the poll fails', () => {
    for (const bad of [undefined, null, '', 'unknown', -5]) {
      const outageLst = [
        { idf: 'a', custAffected: 2, lat: 42.73, lon: -84.55 },
        { idf: 'b', custAffected: bad, lat: 42.73, lon: -84.55 },
      ];
      const snap = normalizeReadable({ normalize }, { outageLst }, bwl);
      expect(snap.customers_out).toBe(outageLst[0].custAffected);
      expect(snap.incidents.map((i) => i.customers_out)).toEqual([outageLst[0].custAffected]);
      expect(snap.counties.map((c) => c.customers_out)).toEqual([outageLst[0].custAffected]);
      expect(snap.unreadable).toEqual([expect.stringMatching(/^outage b: custAffected/)]);
      const none = outageLst.map((o) => ({ ...o, custAffected: bad }));
      expect(() => normalizeReadable({ normalize }, { outageLst: none }, bwl)).toThrow(
        /no record's custAffected can be read.*outage a: custAffected/,
      );
    }
    // Planned work counts, so its count is read like any other: unreadable, it is noted and left out.
    const planned = { idf: 'p', custAffected: 'unknown', planned: true };
    const snap = normalize({ outageLst: [{ idf: 'a', custAffected: 2 }, planned] }, bwl);
    expect(snap).toMatchObject({ customers_out: 2, planned_out: 0 });
    expect(snap.unreadable).toEqual([expect.stringMatching(/^outage p: custAffected/)]);
  });

  it('reads ETR texts with an offset as instants and refuses other shapes', () => {
    const zone = 'America/Detroit';
    expect(etrOf('2026-01-15T08:30:15', zone)).toBe('2026-01-15T13:30:15.000Z'); // EST
    expect(etrOf('2026-06-29T12:00:00-04:00', zone)).toBe('2026-06-29T16:00:00.000Z');
    for (const bad of ['', 'Unknown', '0001-01-01T00:00:00', '2026-06-29T25:00:00'])
      expect(etrOf(bad, zone)).toBeNull();
  });

  it('reads an empty day and names the field when the answer has an unexpected shape', () => {
    expect(normalize({ outageLst: [] }, bwl)).toMatchObject({ customers_out: 0, incidents: [], basis: 'county' });
    expect(normalize({}, bwl)).toMatchObject({ customers_out: 0, incidents: [] });
    expect(() => normalize({ outageLst: [{ custAffected: {} }] }, bwl)).toThrow(/outageLst\.0\.custAffected/);
    expect(() => normalize({ outageLst: { idf: 1 } }, bwl)).toThrow(/outageLst: expected array, got object/);
    expect(() => normalize([], bwl)).toThrow(/\(root\): expected object, got array/);
  });
});
