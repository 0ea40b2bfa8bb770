// The shoreline rule (point-index.ts SHORE_KM): a point in no 1:10m county polygon but close to one's edge is placed
// in the nearest; farther out it stays unplaced. Checked on PSE's real 2024 capture, whose two shore points were lost.
import { describe, expect, it } from 'vitest';
import { geoContains, geoDistance } from 'd3-geo';
import { loadAtlas } from './counties.ts';
import { SHORE_KM } from './point-index.ts';
import { normalize } from '../sources/puget/normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../test/shared-data.ts';
import { countyContaining } from '../../test/county-lookup.ts';
import { createRequire } from 'node:module';
import { feature } from 'topojson-client';
import type { Feature, Geometry, Position } from 'geojson';
import type { GeometryCollection, Topology } from 'topojson-specification';

const KM = 6371.0088;
const shapes = (() => {
  const topo = createRequire(import.meta.url)('us-atlas/counties-10m.json') as Topology<{
    counties: GeometryCollection;
  }>;
  return (feature(topo, topo.objects.counties) as unknown as { features: Feature<Geometry>[] }).features;
})();

/** The test's own nearest county: the smallest great-circle distance to any vertex of the county's rings. */
function nearestByVertex(lon: number, lat: number): { fips: string; km: number } {
  let best = { fips: '', km: Infinity };
  for (const f of shapes) {
    const g = f.geometry;
    const rings: Position[][] =
      g.type === 'Polygon' ? g.coordinates : g.type === 'MultiPolygon' ? g.coordinates.flat() : [];
    for (const ring of rings)
      for (const p of ring) {
        if (Math.abs(p[1] - lat) > 0.5 || Math.abs(p[0] - lon) > 0.7) continue;
        const km = geoDistance([lon, lat], p as [number, number]) * KM;
        if (km < best.km) best = { fips: String(f.id), km };
      }
  }
  return best;
}

describe('shoreline placement', () => {
  it('places a point just off the coarse coast in the nearest county, and leaves one far at sea unplaced', () => {
    const { locate } = loadAtlas();
    // Off Miami Beach, ~1–2 km east of the 1:10m shore; and 100 km out in the Atlantic.
    const [lon, lat] = [-80.115, 25.79];
    if (!shapes.some((f) => geoContains(f, [lon, lat]))) {
      const near = nearestByVertex(lon, lat);
      expect(near.km).toBeLessThan(SHORE_KM);
      expect(locate(lon, lat)).toBe(near.fips);
    } else expect(locate(lon, lat)).toBeDefined();
    expect(locate(-79.0, 25.79)).toBeUndefined();
    expect(locate(-150, 30)).toBeUndefined();
  });

  it.skipIf(!hasSharedData)("places PSE's real 2024 shore points, which fall outside every county polygon", () => {
    const raw = sharedJson('payloads/puget/pse-outages-2024-11-19T2334Z.json') as {
      PseMap: Array<{ DataProvider: { PointOfInterest: { Latitude: string; Longitude: string; Id: string } } }>;
    };
    const points = raw.PseMap.map((m) => m.DataProvider.PointOfInterest);
    const offShore = points.filter((p) => !countyContaining(Number(p.Longitude), Number(p.Latitude)));
    expect(offShore.length).toBeGreaterThan(0); // the capture has them: the test would prove nothing otherwise
    const snap = normalize(raw, sourceDef({ connector: 'puget', utility: 'PSE', states: ['WA'] }));
    for (const p of offShore) {
      const near = nearestByVertex(Number(p.Longitude), Number(p.Latitude));
      expect(near.km).toBeLessThan(SHORE_KM);
      const incident = snap.incidents.find((i) => i.id === p.Id);
      expect(incident?.fips, p.Id).toBe(near.fips);
    }
    expect(snap.unmatched.filter((u) => /not placed/.test(u))).toEqual([]);
  });
});
