import { describe, expect, it } from 'vitest';
import { normalize, ODIN_NOTICE } from './normalize.ts';
import { sharedJson, sourceDef } from '../../../test/shared-data.ts';

describe('odin normalize', () => {
  it('reads the real ODIN records page in meters, with the notice', () => {
    const raw = sharedJson('payloads/odin/odin-records-sample.json') as { results: Array<{ communitydescriptor: string; metersaffected: number }> };
    const snap = normalize(raw, sourceDef({ connector: 'odin', utility: 'ODIN', states: ['OH'] }));
    expect(snap.unit).toBe('meters');
    expect(snap.notice).toBe(ODIN_NOTICE);
    // every record of this page names a real county: the meters per county are the records' own, added up
    const perCounty = new Map<string, number>();
    for (const r of raw.results) perCounty.set(r.communitydescriptor, (perCounty.get(r.communitydescriptor) ?? 0) + r.metersaffected);
    expect(perCounty.size).toBeGreaterThan(10);
    expect(snap.unmatched).toEqual([]);
    expect(snap.counties.map((c) => [c.fips, c.customers_out])).toEqual([...perCounty].sort(([a], [b]) => a.localeCompare(b)));
    expect(snap.customers_out).toBe(raw.results.reduce((s, r) => s + r.metersaffected, 0));
  });
  it('adds utilities in one county and reports a bad FIPS', () => {
    const snap = normalize(sharedJson('payloads/odin/sample.json'), sourceDef({ connector: 'odin', states: ['OH'] }));
    expect(snap.counties).toEqual([
      { fips: '06037', customers_out: 5, customers_served: null },
      { fips: '39035', customers_out: 100, customers_served: null },
    ]);
    expect(snap.unmatched[0]).toMatch(/BADFIPS/);
  });
});
