// NISC summaries without a county region set (Mohave Electric's real summary.json and config.json): the outages'
// x/y offsets decoded from the map extent and placed in counties, by this test's own decoding and county lookup.
import { describe, expect, it } from 'vitest';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';
import { countyContaining } from '../../../test/county-lookup.ts';

type Outage = { id: string; nbrOut: number; planned?: boolean; x: number; y: number };
const mohave = () => ({
  summary: sharedJson('payloads/nisc/mohave-summary.json') as { totalServed: number; outages: Outage[] },
  config: sharedJson('payloads/nisc/mohave-config.json') as { mapSettings: { boundaryExtent: number[] } },
});
const source = sourceDef({ connector: 'nisc', utility: 'Mohave Electric Cooperative', states: ['AZ'] });

/** The test's own inverse Web Mercator (EPSG:3857 on the WGS84 semi-major axis), from the extent's corner. */
function lonLat(extent: number[], x: number, y: number): [number, number] {
  const R = 6378137;
  const lon = ((extent[0] + x) / R) * (180 / Math.PI);
  const lat = (Math.atan(Math.sinh((extent[1] + y) / R)) * 180) / Math.PI;
  return [lon, lat];
}

describe.skipIf(!hasSharedData)('nisc: a summary without a county region set (Mohave Electric)', () => {
  it('places every outage in its county from the decoded x/y; planned work counts, flagged (Mohave: 93, not 1)', () => {
    const { summary, config } = mohave();
    const extent = config.mapSettings.boundaryExtent;
    const expected = new Map<string, number>();
    let out = 0;
    for (const o of summary.outages) {
      const [lon, lat] = lonLat(extent, o.x, o.y);
      const fips = countyContaining(lon, lat);
      expect(fips, `outage ${o.id} at ${lon},${lat}`).toBeDefined();
      expected.set(fips!, (expected.get(fips!) ?? 0) + o.nbrOut);
      out += o.nbrOut;
    }
    const snap = normalize({ summary, config }, source);
    expect(snap.counties.map((c) => [c.fips, c.customers_out])).toEqual([...expected]);
    expect(snap.customers_out).toBe(out);
    expect(snap.customers_served).toBe(summary.totalServed);
    expect(snap.basis).toBe('county');
    expect(snap.unmatched).toEqual([]);
    const planned = summary.outages.filter((o) => o.planned === true);
    expect(planned.length).toBeGreaterThan(0);
    expect(snap.incidents.filter((i) => i.planned).map((i) => i.id)).toEqual(planned.map((o) => o.id));
    expect(snap.planned_out).toBe(planned.reduce((s, o) => s + o.nbrOut, 0));
    for (const i of snap.incidents) {
      const o = summary.outages.find((o) => o.id === i.id)!;
      const [lon, lat] = lonLat(extent, o.x, o.y);
      expect(i.lon).toBeCloseTo(lon, 5);
      expect(i.lat).toBeCloseTo(lat, 5);
    }
  });

  it('decodes with fullExtent when the config has no boundaryExtent', () => {
    const { summary, config } = mohave();
    const fallback = { mapSettings: { fullExtent: config.mapSettings.boundaryExtent } };
    expect(normalize({ summary, config: fallback }, source).counties).toEqual(
      normalize({ summary, config }, source).counties,
    );
  });

  it('fails with the reason when the points cannot be decoded (no config, or a config without an extent)', () => {
    const { summary } = mohave();
    expect(() => normalize(summary, source)).toThrow(/no county region set.*boundaryExtent/);
    expect(() => normalize({ summary, config: { mapSettings: {} } }, source)).toThrow(/boundaryExtent/);
  });
});

describe('nisc: county regions and points together', () => {
  it('keeps the county regions as the counts and makes the decoded points incidents', () => {
    const extent = [-12762208, 4084789, -12586187, 4255993];
    const summary = {
      totalServed: 100,
      outages: [{ id: 'a', nbrOut: 7, x: 85852, y: 138987 }],
      regionDataSets: [{ id: 'omscounty', regions: [{ id: 'Mohave', numberOut: 9, numberServed: 100 }] }],
    };
    const snap = normalize({ summary, config: { mapSettings: { boundaryExtent: extent } } }, source);
    expect(snap.counties).toEqual([{ fips: '04015', customers_out: 9, customers_served: 100 }]);
    expect(snap.customers_out).toBe(9);
    const [lon, lat] = lonLat(extent, 85852, 138987);
    expect(snap.incidents).toMatchObject([{ id: 'a', customers_out: 7, fips: countyContaining(lon, lat) }]);
  });

  it('a summary without a county set and without outages is an honest zero, not a failure', () => {
    const snap = normalize({ totalServed: 10, outages: [] }, source);
    expect(snap.customers_out).toBe(0);
    expect(snap.counties).toEqual([]);
  });
});
