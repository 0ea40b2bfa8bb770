// Issue #13 part 6: the simulator spreads a county's incidents and township boxes over the county's land (they all
// sat on one point before), every point inside the county, and the Kubra root tiles still cover every incident.
import { describe, expect, it } from 'vitest';
import { manualClock } from '../src/clock.ts';
import { loadAtlas } from '../src/geo/counties.ts';
import { Simulator } from '../src/simulator/server.ts';
import { incidents, kubraReport, rootQuadkeys } from '../src/simulator/formats.ts';
import { quadkeyFor } from '../src/sources/kubra/clusters.ts';

type Town = { areaId: string; gotoMap: { bbox: number[] } };
const T = new Date('2026-09-01T06:00:00Z');
const sim = new Simulator({ clock: manualClock(T), seed: 1, epoch: new Date('2026-09-01T00:00:00Z'), sources: 10 });

describe('simulated incident placement', () => {
  it('spreads incidents over the county, every one inside it, and the root tiles cover them', () => {
    const atlas = loadAtlas();
    const all = sim.utilities.flatMap((u) => incidents(sim.scenario, u, T).map((i) => ({ u, i })));
    const byCounty = new Map<string, typeof all>();
    for (const x of all) byCounty.set(x.i.fips, [...(byCounty.get(x.i.fips) ?? []), x]);
    const busy = [...byCounty.entries()].filter(([, list]) => list.length >= 5);
    expect(busy.length).toBeGreaterThan(3); // a storm with several counties of many incidents
    for (const [fips, list] of busy) {
      const points = new Set(list.map(({ i }) => `${i.lon},${i.lat}`));
      expect(points.size, fips).toBeGreaterThan(list.length / 2); // spread, not stacked
      const lons = list.map(({ i }) => i.lon);
      const [w, , e] = atlas.byFips.get(fips)!.bbox;
      expect(Math.max(...lons) - Math.min(...lons), fips).toBeGreaterThan((e - w) / 10);
    }
    for (const { u, i } of all) {
      expect(atlas.locate(i.lon, i.lat), i.id).toBe(i.fips);
      if (u.connector === 'kubra') expect(rootQuadkeys(sim.scenario, u)).toContain(quadkeyFor(i.lon, i.lat, 7));
    }
  });

  it('places township boxes on the county, at different points for different towns', () => {
    const u = sim.utilities.find((x) => x.connector === 'kubra' && x.counties.size > 5)!;
    expect(u).toBeDefined();
    const report = kubraReport(sim.scenario, u, T, { areasPerCounty: 3 }) as unknown as {
      file_data: { areas: Array<{ areas: Array<{ name: string; areas: Town[] }> }> };
    };
    const counties = report.file_data.areas[0].areas;
    expect(counties.length).toBe(u.counties.size);
    const atlas = loadAtlas();
    for (const c of counties) {
      const centres = c.areas.map(
        ({
          areaId,
          gotoMap: {
            bbox: [x0, y0, x1, y1],
          },
        }) => ({
          fips: areaId.split('|')[1],
          at: [(x0 + x1) / 2, (y0 + y1) / 2],
        }),
      );
      expect(centres.length).toBe(3);
      for (const { fips, at } of centres) expect(atlas.locate(at[0], at[1]), c.name).toBe(fips);
      expect(new Set(centres.map((p) => p.at.join())).size, c.name).toBe(3);
    }
  });
});
