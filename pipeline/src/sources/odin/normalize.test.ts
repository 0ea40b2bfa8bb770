import { describe, expect, it } from 'vitest';
import { normalize, ODIN_NOTICE } from './normalize.ts';
import { odinUtilities } from './utilities.ts';
import { odinRecords } from './schema.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

interface Rec {
  communitydescriptor: string;
  metersaffected: number;
  utility_id: string;
  name: string;
}
const page = () => sharedJson('payloads/odin/odin-records-sample.json') as { total_count: number; results: Rec[] };
const odin = (options: Record<string, unknown> = {}) =>
  sourceDef({ connector: 'odin', utility: 'ODIN', states: ['OH'], options });

/** Meters per county, added up from the records themselves, sorted by FIPS. */
function perCounty(records: Rec[]): Array<[string, number]> {
  const m = new Map<string, number>();
  for (const r of records) m.set(r.communitydescriptor, (m.get(r.communitydescriptor) ?? 0) + r.metersaffected);
  return [...m].sort(([a], [b]) => a.localeCompare(b));
}

describe('odin normalize', () => {
  it.skipIf(!hasSharedData)('reads the real ODIN records page in meters, with the notice', () => {
    const raw = page();
    const snap = normalize(raw, odin());
    expect(snap.unit).toBe('meters');
    expect(snap.notice).toBe(ODIN_NOTICE);
    expect(raw.results.length).toBe(50);
    expect(snap.unmatched).toEqual([]);
    expect(snap.counties.length).toBeGreaterThan(10);
    expect(snap.counties.map((c) => [c.fips, c.customers_out])).toEqual(perCounty(raw.results));
    expect(snap.customers_out).toBe(raw.results.reduce((s, r) => s + r.metersaffected, 0));
  });
  it.skipIf(!hasSharedData)('reads the export form (a bare array of the same records) to the same snapshot', () => {
    const raw = page();
    expect(normalize(raw.results, odin())).toEqual(normalize(raw, odin()));
    expect(odinRecords(raw.results)).toHaveLength(50);
  });
  it.skipIf(!hasSharedData)('drops the utilities in exclude_utility_ids, and only them', () => {
    const raw = page();
    // CenterPoint Energy (8901, Harris County and around) has a deep row in data/sources.csv; Metropolitan Edison too
    const kept = raw.results.filter((r) => r.utility_id !== '8901' && r.utility_id !== '12390');
    expect(kept.length).toBeLessThan(raw.results.length - 20);
    const snap = normalize(raw.results, odin({ exclude_utility_ids: ['8901', 12390] }));
    expect(snap.counties.map((c) => [c.fips, c.customers_out])).toEqual(perCounty(kept));
    expect(snap.counties.some((c) => c.fips === '48201')).toBe(false);
    expect(snap.customers_out).toBe(kept.reduce((s, r) => s + r.metersaffected, 0));
  });
  it.skipIf(!hasSharedData)('rejects an exclude_utility_ids that is not a list of numbers', () => {
    expect(() => normalize(page(), odin({ exclude_utility_ids: '8901' }))).toThrow(
      /exclude_utility_ids must be a list of utility numbers/,
    );
  });
  it.skipIf(!hasSharedData)('sums the real records per utility', () => {
    const raw = page();
    const utilities = odinUtilities(odinRecords(raw));
    const ids = new Set(raw.results.map((r) => r.utility_id));
    expect(utilities.map((u) => u.utility_id).sort()).toEqual([...ids].sort());
    const centerpoint = utilities.find((u) => u.utility_id === '8901');
    const mine = raw.results.filter((r) => r.utility_id === '8901');
    expect(centerpoint).toMatchObject({
      name: 'CENTERPOINT ENERGY',
      records: mine.length,
      meters: mine.reduce((s, r) => s + r.metersaffected, 0),
      states: ['Texas'],
    });
    expect(utilities.reduce((s, u) => s + u.meters, 0)).toBe(raw.results.reduce((s, r) => s + r.metersaffected, 0));
  });
  it.skipIf(!hasSharedData)(
    'adds utilities in one county and reports a bad FIPS (hand-made sample: parsing only)',
    () => {
      const snap = normalize(sharedJson('payloads/odin/sample.json'), sourceDef({ connector: 'odin', states: ['OH'] }));
      expect(snap.counties).toEqual([
        { fips: '06037', customers_out: 5, customers_served: null },
        { fips: '39035', customers_out: 100, customers_served: null },
      ]);
      expect(snap.unmatched[0]).toMatch(/BADFIPS/);
    },
  );
  it('takes the utility number from the name when utility_id is missing', () => {
    const raw = [
      { communitydescriptor: '39035', metersaffected: 7, name: 'ACME POWER,100' },
      { communitydescriptor: '39035', metersaffected: 3, utility_id: 200, name: 'BETA,200' },
    ];
    expect(normalize(raw, odin({ exclude_utility_ids: ['100'] })).customers_out).toBe(3);
  });
});
