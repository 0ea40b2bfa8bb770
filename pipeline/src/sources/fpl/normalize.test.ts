import { describe, expect, it } from 'vitest';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

const fpl = sourceDef({ connector: 'fpl', utility: 'Florida Power & Light', states: ['FL'] });

describe('fpl normalize', () => {
  it.skipIf(!hasSharedData)('parses comma-formatted strings in the {main, nw} pair', () => {
    const snap = normalize(sharedJson('payloads/fpl/counties.json'), fpl);
    expect(snap.counties.find((c) => c.fips === '12086')).toEqual({
      fips: '12086',
      customers_out: 393,
      customers_served: 1271505,
    });
    expect(snap.counties.find((c) => c.fips === '12005')?.customers_out).toBe(21); // Bay, from the nw list
    expect(snap.customers_out).toBe(393 + 76 + 0 + 21);
  });
  it.skipIf(!hasSharedData)('parses the 2017 county list and matches "De Soto" and "St. Lucie"', () => {
    const snap = normalize(sharedJson('payloads/fpl/fpl-county-outages-2017.json'), fpl);
    expect(snap.unmatched).toEqual([]);
    expect(snap.counties.length).toBe(35);
  });
  it.skipIf(!hasSharedData)('reads storm mode, including an empty one', () => {
    const empty = normalize(sharedJson('payloads/fpl/fpl-storm-outages-2017-empty.json'), fpl);
    expect(empty.counties).toEqual([]);
    const storm = normalize(sharedJson('sequences/fpl-storm-ian-2022/0050.json'), fpl);
    expect(storm.counties.find((c) => c.fips === '12009')?.customers_served).toBe(330380); // Brevard accounts
  });
  it('rejects another vendor shape', () => {
    expect(() => normalize({ hello: 1 }, fpl)).toThrow(/neither/);
  });
});
