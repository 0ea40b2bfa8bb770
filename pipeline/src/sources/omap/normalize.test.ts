import { describe, expect, it } from 'vitest';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

interface Tabular {
  nc: string;
  oc: string;
  data: Array<{ nm: string; nc: number; tc: number; mun: Array<{ nm: string; nc: number; tc: number }> }>;
}
const ppl = sourceDef({ connector: 'omap' as never, utility: 'PPL Electric Utilities', states: ['PA'] });
const sample = () => sharedJson('payloads/omap/sample.json') as Tabular;

describe('omap normalize', () => {
  it.skipIf(!hasSharedData)(
    'takes the headline string, county rows and their municipalities (sample: edited values, parsing only)',
    () => {
      const raw = sample();
      const snap = normalize(raw, ppl);
      expect(raw.data.length).toBeGreaterThan(0);
      expect(snap.customers_out).toBe(Number(raw.nc));
      expect(snap.customers_out).toBe(raw.data.reduce((s, c) => s + c.nc, 0)); // the sample's headline equals its rows
      expect(snap.customers_served).toBeNull();
      expect(snap.counties).toEqual([
        { fips: '42043', customers_out: 1, customers_served: 141213 }, // Dauphin
        { fips: '42089', customers_out: 4, customers_served: 74619 }, // Monroe
      ]);
      const muns = raw.data.flatMap((c) => c.mun.map((m) => ({ county: c.nm, ...m })));
      expect(snap.areas.map((a) => [a.path, a.customers_out, a.customers_served])).toEqual(
        muns.map((m) => [[m.county, m.nm], m.nc, m.tc]),
      );
      expect(snap.areas[0].fips).toBe('42089');
      expect(snap.basis).toBe('county');
      expect(snap.unmatched).toEqual([]);
    },
  );

  it.skipIf(!hasSharedData)(
    'keeps names it cannot place out of the counties, and counts an empty table as no county out',
    () => {
      const raw = sample();
      raw.data[0].nm = 'Nowhere';
      const snap = normalize(raw, ppl);
      expect(snap.unmatched).toEqual(['Nowhere']);
      expect(snap.areas[0]).toMatchObject({ fips: null, path: ['Nowhere', 'Barrett Twp'] });
      expect(snap.customers_out).toBe(5);
      const calm = normalize({ nc: '0', oc: '0', data: [] }, ppl);
      expect([calm.customers_out, calm.counties.length, calm.basis]).toEqual([0, 0, 'county']);
    },
  );

  it('matches a county over several states only when the name is unambiguous', () => {
    const raw = { nc: '3', data: [{ nm: 'Washington', nc: 3, tc: 10, mun: [] }] };
    expect(normalize(raw, sourceDef({ connector: 'omap' as never, states: ['RI'] })).counties[0].fips).toBe('44009');
    expect(normalize(raw, sourceDef({ connector: 'omap' as never, states: ['RI', 'PA'] })).unmatched).toEqual([
      'Washington',
    ]);
  });

  it('rejects another shape', () => {
    expect(() => normalize({ data: [{ nc: 1 }] }, ppl)).toThrow(/OMAP Tabular has an unexpected shape: data\.0\.nm/);
  });
});
