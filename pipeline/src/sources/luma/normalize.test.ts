// LUMA normalize against the peer's sample and small made-up answers. Tested on the peer's hand-made sample only:
// values made up; field names as the peer's adapter reads them (no real LUMA answer was recorded). Parsing only.
import { describe, expect, it } from 'vitest';
import { normalize } from './normalize.ts';
import { normalizeReadable } from '../unreadable.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

interface Counts {
  totalClientsWithoutService: number;
  totalClients: number;
}
const sample = () =>
  sharedJson('payloads/luma/sample.json') as { totals: Counts; regions: Array<Counts & { name: string }> };
const luma = sourceDef({ connector: 'luma' as never, utility: 'LUMA Energy', states: ['PR'] });

describe.skipIf(!hasSharedData)('luma normalize, the peer sample', () => {
  it('takes customers out and served from totals, which the regions add up to (out only)', () => {
    const raw = sample();
    expect(raw.regions.length).toBeGreaterThan(1);
    const regionsOut = raw.regions.reduce((s, r) => s + r.totalClientsWithoutService, 0);
    // the feed's own numbers: the regions with customers out add up to the island's total
    expect(regionsOut).toBe(raw.totals.totalClientsWithoutService);
    const snap = normalize(raw, luma);
    expect(snap).toMatchObject({
      customers_out: raw.totals.totalClientsWithoutService,
      customers_served: raw.totals.totalClients,
      basis: 'utility_total',
      unit: 'customers',
      counties: [],
      incidents: [],
      unmatched: [],
    });
    // the sample's values, as a second, literal check
    expect([snap.customers_out, snap.customers_served]).toEqual([4412, 1468223]);
  });

  it('makes each region an area in no county, named and pathed by its name', () => {
    const raw = sample();
    const snap = normalize(raw, luma);
    expect(snap.areas).toHaveLength(raw.regions.length);
    expect(snap.areas.map((a) => [a.name, a.path, a.customers_out, a.customers_served])).toEqual(
      raw.regions.map((r) => [r.name, [r.name], r.totalClientsWithoutService, r.totalClients]),
    );
    expect(snap.areas[0]).toEqual({
      fips: null,
      name: 'Mayaguez',
      path: ['Mayaguez'],
      customers_out: 2748,
      out_display: '2748',
      out_lower: 2748,
      out_upper: 2748,
      masked: false,
      customers_served: 200000,
      etr: null,
      bbox: null,
    });
    expect(snap.areas.every((a) => a.fips === null)).toBe(true);
  });
});

describe('luma normalize, made-up answers', () => {
  const region = (name: string, out: unknown, served?: unknown) => ({
    name,
    totalClientsWithoutService: out,
    totalClients: served,
  });

  it('reads counts sent as text, keeps repeated names apart and notes unreadable counts beside the total', () => {
    const snap = normalize(
      {
        totals: { totalClientsWithoutService: '1,210', totalClients: '1,468,000' },
        regions: [
          region(' Bayamón ', '1,200', '250,000'),
          region('Ponce', 0, 180000),
          region('Ponce', 10),
          region('Caguas', 'n/a', 1),
          region('Arecibo', null, 5),
        ],
      },
      luma,
    );
    expect(snap).toMatchObject({ customers_out: 1210, customers_served: 1468000, counties: [], incidents: [] });
    expect(snap.areas.map((a) => [a.name, a.path, a.customers_out, a.customers_served])).toEqual([
      ['Bayamón', ['Bayamón'], 1200, 250000],
      ['Ponce', ['Ponce'], 0, 180000],
      ['Ponce', ['Ponce #2'], 10, null],
    ]);
    expect(snap.unmatched).toEqual([]);
    expect(snap.unreadable).toEqual([
      'Caguas: totalClientsWithoutService "n/a"',
      'Arecibo: totalClientsWithoutService null',
    ]);
  });

  it('without a total, a region that cannot be read is noted and left out of the sum; none readable, or an unreadable total, fails the poll', () => {
    const regions = [region('Carolina', 7, 100), region('San Juan', 'unknown', 200)];
    const snap = normalizeReadable({ normalize }, { totals: {}, regions }, luma);
    expect(snap.customers_out).toBe(regions[0].totalClientsWithoutService);
    expect(snap.areas.map((a) => [a.name, a.customers_out])).toEqual([['Carolina', 7]]);
    expect(snap.unreadable).toEqual(['San Juan: totalClientsWithoutService "unknown"']);
    const none = [region('Carolina', null, 100), region('San Juan', 'unknown', 200)];
    expect(() => normalizeReadable({ normalize }, { totals: {}, regions: none }, luma)).toThrow(
      /no record's totalClientsWithoutService can be read.*Carolina: totalClientsWithoutService null/,
    );
    expect(() => normalize({ totals: { totalClientsWithoutService: 'N/A' }, regions: [] }, luma)).toThrow(
      /headline total totals\.totalClientsWithoutService/,
    );
  });

  it('sums the regions for customers out without a readable total, but never for customers served', () => {
    const snap = normalize({ totals: {}, regions: [region('Carolina', 7, 100), region('San Juan', 5, 200)] }, luma);
    expect(snap).toMatchObject({ customers_out: 12, customers_served: null, basis: 'utility_total' });
    const empty = normalize({ totals: { totalClients: 1468223 }, regions: [] }, luma);
    expect(empty).toMatchObject({ customers_out: null, customers_served: 1468223, areas: [] });
    const calm = normalize({ totals: { totalClientsWithoutService: 0, totalClients: 9 }, regions: [] }, luma);
    expect(calm).toMatchObject({ customers_out: 0, basis: 'utility_total' });
  });

  it('names the field when the answer has an unexpected shape', () => {
    expect(() => normalize({ totals: {}, regions: [region('Ponce', {})] }, luma)).toThrow(
      /regions\.0\.totalClientsWithoutService: expected number or string, got object/,
    );
    expect(() => normalize({ totals: {}, regions: [{ totalClients: 3 }] }, luma)).toThrow(/regions\.0\.name/);
    expect(() => normalize({ totals: { totalClients: [1] }, regions: [] }, luma)).toThrow(/totals\.totalClients/);
    expect(() => normalize({ regions: [] }, luma)).toThrow(/totals: expected object, got undefined/);
    expect(() => normalize({ totals: {} }, luma)).toThrow(/regions: expected array, got undefined/);
    expect(() => normalize([], luma)).toThrow(/\(root\): expected object, got array/);
  });
});
