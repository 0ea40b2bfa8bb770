// Hawaiian Electric normalize on the peer's sample (edited values: it proves parsing, not facts about HECO), as a bare
// saved answer and as fetch returns it with an HTTP Date. Counties and totals are computed here from the payload with
// the test's own county lookup (d3-geo over us-atlas), never with the connector's.
import { describe, expect, it } from 'vitest';
import { normalize } from './normalize.ts';
import { recordedRaw } from './recorded.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';
import { tallyByCounty } from '../../../test/county-lookup.ts';

interface Outage {
  outageId: number;
  totalCustomersAffected: number;
  affectedAreas: string[];
  estimatedRestoreTime: string | null;
  geometry: { coordinates: Array<{ x: number; y: number }> };
}
const sample = () => sharedJson('payloads/heco/sample.json') as { outages: Outage[] };
const heco = sourceDef({ connector: 'heco', utility: 'Hawaiian Electric', states: ['HI'] });

describe.skipIf(!hasSharedData)('heco normalize, the peer sample', () => {
  it('places each outage by its point and sums the customers (the answer has no headline)', () => {
    const raw = sample();
    const points = raw.outages.map((o) => ({
      lon: o.geometry.coordinates[0].x,
      lat: o.geometry.coordinates[0].y,
      out: o.totalCustomersAffected,
    }));
    const snap = normalize(recordedRaw(raw), heco);
    expect(new Map(snap.counties.map((c) => [c.fips, c.customers_out]))).toEqual(tallyByCounty(points));
    expect(snap.customers_out).toBe(points.reduce((s, p) => s + p.out, 0));
    expect(snap.incidents.map((i) => [i.id, i.city])).toEqual(
      raw.outages.map((o) => [String(o.outageId), o.affectedAreas[0]]),
    );
    expect(snap).toMatchObject({ customers_served: null, unmatched: [], basis: 'county' });
  });

  it('reads "Today at …" against the answer’s HTTP Date in Honolulu, and as no time without one', () => {
    const raw = sample();
    expect(raw.outages[0].estimatedRestoreTime).toBe('Today at 03:30 PM HST');
    expect(normalize(recordedRaw(raw), heco).incidents[0].etr).toBeNull();
    // 10 p.m. UTC on 24 June is noon in Honolulu (UTC-10, no DST): today's 3:30 p.m. is 01:30 UTC on the 25th
    const dated = normalize({ captured_at: '2026-06-24T22:00:00.000Z', answer: raw }, heco);
    expect(dated.incidents.map((i) => i.etr)).toEqual(['2026-06-25T01:30:00.000Z', null]);
    // just after midnight UTC it is still the 24th in Honolulu
    expect(normalize({ captured_at: '2026-06-25T05:00:00.000Z', answer: raw }, heco).incidents[0].etr).toBe(
      '2026-06-25T01:30:00.000Z',
    );
  });
});

describe('heco normalize, made-up answers', () => {
  it('recordedRaw wraps a bare answer and leaves a fetch result alone', () => {
    const wrapped = { captured_at: null, answer: { outages: [] } };
    expect(recordedRaw({ outages: [] })).toEqual(wrapped);
    expect(recordedRaw(wrapped)).toBe(wrapped);
  });

  it('names the field of an unexpected shape', () => {
    expect(() => normalize({ outages: [] }, heco)).toThrow(/answer: expected object, got undefined/);
    expect(() => normalize({ captured_at: 5, answer: {} }, heco)).toThrow(/captured_at: expected string/);
    expect(() => normalize({ captured_at: null, answer: { outages: {} } }, heco)).toThrow(
      /Hawaiian Electric outages answer has an unexpected shape: outages: expected array/,
    );
    expect(() =>
      normalize(
        {
          captured_at: null,
          answer: { outages: [{ outageId: 1, geometry: { coordinates: [{ x: '-158', y: 21 }] } }] },
        },
        heco,
      ),
    ).toThrow(/outages\.0\.geometry\.coordinates\.0\.x: expected number/);
  });
});
