// Tested on the peer's hand-made sample only (payloads/teco/sample.json): values made up; field names as the peer's
// adapter reads them. The 2017 capture (tampa-electric-2017.json) is another, retired endpoint and is not read.
import { describe, expect, it } from 'vitest';
import { etrOf, normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

interface Hit {
  _source: { customerCount: number; incidentId: string; polygonCenter: [number, number] };
}
interface Answer {
  aggregations: { customerCountSum: { value: number } };
  hits: { total: { value: number }; hits: Hit[] };
}
const sample = () => sharedJson('payloads/teco/sample.json') as Answer;
const teco = sourceDef({ connector: 'teco' as never, utility: 'Tampa Electric', states: ['FL'] });
/** Where the sample's two points lie (looked up by hand: north of Zephyrhills, and Tampa). */
const FIPS: Record<string, string> = { A1: '12101', A2: '12057' };

const hit = (id: string, n: number, center: [number, number] | null, etr?: string) => ({
  _source: { incidentId: id, customerCount: n, polygonCenter: center, estimatedTimeOfRestoration: etr },
});

describe.skipIf(!hasSharedData)('teco normalize (hand-made sample)', () => {
  it('takes customers_out from the aggregation and places each incident by its point', () => {
    const raw = sample();
    const snap = normalize(raw, teco);
    expect(snap.customers_out).toBe(raw.aggregations.customerCountSum.value);
    expect(snap.customers_out).toBe(raw.hits.hits.reduce((s, h) => s + h._source.customerCount, 0));
    expect(snap.incidents).toHaveLength(raw.hits.hits.length);
    const out: Record<string, number> = {};
    for (const h of raw.hits.hits) {
      const f = FIPS[h._source.incidentId];
      out[f] = (out[f] ?? 0) + h._source.customerCount;
    }
    expect(snap.counties).toEqual(
      Object.keys(out)
        .sort()
        .map((fips) => ({ fips, customers_out: out[fips], customers_served: null })),
    );
    expect(snap.counties.every((c) => c.fips.startsWith('12'))).toBe(true);
    expect(snap).toMatchObject({ customers_served: null, unmatched: [], notice: null, basis: 'county' });
  });
  it('reads the ETR as Tampa wall clock, and a hit without one as none', () => {
    const snap = normalize(sample(), teco);
    expect(snap.incidents[0]).toMatchObject({
      id: 'A1',
      fips: '12101',
      customers_out: 17,
      etr: '2026-06-25T00:30:00.000Z',
      cause: 'Tree',
      lat: 28.43,
      lon: -82.21,
    });
    expect(snap.incidents[1]).toMatchObject({ id: 'A2', fips: '12057', customers_out: 8, etr: null });
  });
  it('refuses the retired 2017 answer (a bare array of markers) as a schema failure', () => {
    expect(() => normalize(sharedJson('payloads/teco/tampa-electric-2017.json'), teco)).toThrow(
      expect.objectContaining({ reason: 'schema', message: expect.stringMatching(/\(root\): expected object/) }),
    );
  });
});

describe('teco normalize', () => {
  it('says when the list was cut, keeping the aggregation as the total', () => {
    const snap = normalize(
      {
        aggregations: { customerCountSum: { value: 500 } },
        hits: { total: { value: 3 }, hits: [hit('X', 40, [-82.46, 27.95])] },
      },
      teco,
    );
    expect(snap.customers_out).toBe(500);
    expect(snap.notice).toBe("incident list cut: 1 of 3 returned; customers_out is the aggregation's");
    expect(snap.counties).toEqual([{ fips: '12057', customers_out: 40, customers_served: null }]);
  });
  it('keeps a point in no county out of the counties, and sums the hits without an aggregation', () => {
    const snap = normalize(
      {
        hits: {
          total: { value: 3 },
          hits: [hit('gulf', 5, [-82.85, 27.6]), hit('none', 2, null), hit('P', 9, [-81.95, 28.05])],
        },
      },
      teco,
    );
    expect(snap.customers_out).toBe(16);
    expect(snap.notice).toBeNull();
    expect(snap.counties).toEqual([{ fips: '12105', customers_out: 9, customers_served: null }]);
    expect(snap.unmatched).toEqual(['2 point(s) not placed in a county (7 customers out)']);
    expect(snap.incidents.map((i) => i.fips)).toEqual([null, null, '12105']);
  });
  it('reads an ETR that carries a zone as that instant; other text is none', () => {
    expect(etrOf('2026-01-10T08:00:00', 'America/New_York')).toBe('2026-01-10T13:00:00.000Z');
    expect(etrOf('2026-06-24T20:30:00Z', 'America/New_York')).toBe('2026-06-24T20:30:00.000Z');
    expect(etrOf('2026-06-24T20:30:00-04:00', 'America/New_York')).toBe('2026-06-25T00:30:00.000Z');
    expect(etrOf('0001-01-01T00:00:00', 'America/New_York')).toBeNull();
    expect(etrOf('Pending', 'America/New_York')).toBeNull();
  });
  it('counts a repeated incident id once, with its largest count', () => {
    const snap = normalize({ hits: { hits: [hit('A', 1, null), hit('A', 2, null), hit('B', 4, null)] } }, teco);
    expect(snap.incidents.map((i) => [i.id, i.customers_out])).toEqual([
      ['A', 2],
      ['B', 4],
    ]);
  });
  it('names the field when the answer has an unexpected shape', () => {
    expect(() => normalize({ hits: { hits: [{ _source: { customerCount: {} } }] } }, teco)).toThrow(
      /hits\.hits\.0\._source\.customerCount/,
    );
    expect(() => normalize({ hits: { hits: [{ _source: { polygonCenter: [1] } }] } }, teco)).toThrow(/polygonCenter/);
    expect(() => normalize({ aggregations: { customerCountSum: { value: 'x' } }, hits: { hits: [] } }, teco)).toThrow(
      /aggregations\.customerCountSum\.value/,
    );
    expect(() => normalize({}, teco)).toThrow(/: hits: expected object/);
  });
});
