// SMUD normalize against the peer's sample and small made-up answers. Tested on the peer's edited sample only:
// values rounded/edited; field names as the peer's adapter reads them (no real SMUD answer was recorded).
import { describe, expect, it } from 'vitest';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

interface Row {
  Title: string;
  OutageCount: number;
  CustomersImpacted: number;
  GeocenterLat?: number;
  GeocenterLong?: number;
}
// The peer's golden fixture: the raw as is.
const sample = () => sharedJson('payloads/smud/sample.json') as { totalCount: number; returndata: Row[] };
const smud = sourceDef({
  connector: 'smud' as never,
  utility: 'Sacramento Municipal Utility District',
  states: ['CA'],
});
const SACRAMENTO = '06067';
const PLACER = '06061';

describe.skipIf(!hasSharedData)('smud normalize, the peer sample', () => {
  it('takes customers out from the SMUD row, which the communities add up to', () => {
    const raw = sample();
    const system = raw.returndata.filter((r) => r.Title === 'SMUD');
    const communities = raw.returndata.filter((r) => r.Title !== 'SMUD' && r.CustomersImpacted > 0);
    expect(system).toHaveLength(1);
    expect(communities.length).toBeGreaterThan(1);
    const communitiesOut = communities.reduce((s, r) => s + r.CustomersImpacted, 0);
    // the feed's own numbers: the system row is the sum of its communities
    expect(communitiesOut).toBe(system[0].CustomersImpacted);
    const snap = normalize(raw, smud);
    expect(snap.customers_out).toBe(system[0].CustomersImpacted);
    expect(snap).toMatchObject({ customers_served: null, basis: 'county', unit: 'customers', unmatched: [] });
    expect(snap.incidents).toEqual([]);
    // both sample communities (Citrus Heights, Folsom) lie in Sacramento County
    expect(snap.counties).toEqual([{ fips: SACRAMENTO, customers_out: communitiesOut, customers_served: null }]);
    expect(snap.counties.every((c) => c.fips.startsWith('06'))).toBe(true);
  });

  it('makes each community an area named and pathed by its title, in its centre point county', () => {
    const raw = sample();
    const snap = normalize(raw, smud);
    const citrus = raw.returndata.find((r) => r.Title === 'Citrus Heights');
    const folsom = raw.returndata.find((r) => r.Title === 'Folsom');
    expect(snap.areas.map((a) => a.name)).toEqual(['Citrus Heights', 'Folsom']);
    expect(snap.areas[0]).toEqual({
      fips: SACRAMENTO,
      name: 'Citrus Heights',
      path: ['Citrus Heights'],
      customers_out: citrus?.CustomersImpacted,
      out_display: String(citrus?.CustomersImpacted),
      out_lower: citrus?.CustomersImpacted,
      out_upper: citrus?.CustomersImpacted,
      masked: false,
      customers_served: null,
      etr: null,
      bbox: null,
    });
    expect(snap.areas[1]).toMatchObject({
      fips: SACRAMENTO,
      path: ['Folsom'],
      customers_out: folsom?.CustomersImpacted,
    });
  });
});

describe('smud normalize, made-up answers', () => {
  const row = (Title: string, CustomersImpacted: unknown, lat?: unknown, lon?: unknown) => ({
    Title,
    OutageCount: 1,
    CustomersImpacted,
    GeocenterLat: lat,
    GeocenterLong: lon,
  });

  it('places communities by point in the row states, and reports the ones it cannot place', () => {
    const snap = normalize(
      {
        returndata: [
          row('SMUD', '1,000'),
          row('Arden-Arcade', 40, 38.6, -121.38),
          row('Rancho Cordova', '7', '38.59', '-121.3'),
          row('Sheridan edge', 3, 38.75, -121.29),
          row('Nowhere', 11),
          row('Reno', 2, 39.53, -119.81),
          row('Zero Island', 5, 0, 0),
          row('Quiet', 0, 38.6, -121.4),
          row('Garbled', 'n/a', 38.6, -121.4),
        ],
      },
      smud,
    );
    expect(snap.customers_out).toBe(1000);
    expect(snap.counties).toEqual([
      { fips: PLACER, customers_out: 3, customers_served: null },
      { fips: SACRAMENTO, customers_out: 47, customers_served: null },
    ]);
    expect(snap.areas.map((a) => [a.name, a.fips, a.customers_out])).toEqual([
      ['Arden-Arcade', SACRAMENTO, 40],
      ['Rancho Cordova', SACRAMENTO, 7],
      ['Sheridan edge', PLACER, 3],
      ['Nowhere', null, 11],
      ['Reno', null, 2],
      ['Zero Island', null, 5],
    ]);
    expect(snap.unmatched).toEqual(['3 community(ies) not placed in a county (18 customers out)']);
    // Noted beside the system row's total, which stands; never read as 0.
    expect(snap.unreadable).toEqual(['Garbled: CustomersImpacted "n/a"']);
    expect(snap.incidents).toEqual([]);
    expect(snap.basis).toBe('county');
  });

  it('sums the communities without a SMUD row; keeps repeated titles apart; an empty list is a county feed', () => {
    const snap = normalize(
      { returndata: [row('Elk Grove', 4, 38.41, -121.37), row('Elk Grove', 6, 38.42, -121.38)] },
      smud,
    );
    expect(snap.customers_out).toBe(10);
    expect(snap.areas.map((a) => [a.name, a.path])).toEqual([
      ['Elk Grove', ['Elk Grove']],
      ['Elk Grove', ['Elk Grove #2']],
    ]);
    expect(snap.counties).toEqual([{ fips: SACRAMENTO, customers_out: 10, customers_served: null }]);
    // the system row matched trimmed and in any case; nothing out anywhere
    const quiet = normalize({ returndata: [row(' smud ', 0), row('Folsom', 0, 38.68, -121.18)] }, smud);
    expect(quiet).toMatchObject({ customers_out: 0, counties: [], areas: [], basis: 'county' });
    // communities out, none placed: only the total is known
    expect(normalize({ returndata: [row('SMUD', 9), row('Nowhere', 9)] }, smud)).toMatchObject({
      customers_out: 9,
      counties: [],
      basis: 'utility_total',
    });
  });

  it('names the field when the answer has an unexpected shape', () => {
    expect(() => normalize({ returndata: [row('Folsom', {})] }, smud)).toThrow(/returndata\.0\.CustomersImpacted/);
    expect(() => normalize({ returndata: [{ CustomersImpacted: 3 }] }, smud)).toThrow(/returndata\.0\.Title/);
    expect(() => normalize({ returndata: [row('Folsom', 1, [38], -121)] }, smud)).toThrow(
      /returndata\.0\.GeocenterLat/,
    );
    expect(() => normalize({ totalCount: 0 }, smud)).toThrow(/returndata: expected array, got undefined/);
    expect(() => normalize([], smud)).toThrow(/\(root\): expected object, got array/);
  });
});
