// Test helper: a county lookup of the tests' own, independent of the connectors' (geo/point-index.ts): d3-geo's
// spherical geoContains over the us-atlas 1:10m county shapes, with a bounding-box prefilter. Slow (a few hundred
// microseconds a point), which is fine for the hundreds of points a test places.
import { createRequire } from 'node:module';
import { expect } from 'vitest';
import { geoBounds, geoContains, geoDistance } from 'd3-geo';
import { feature } from 'topojson-client';
import type { Feature, Geometry } from 'geojson';
import type { GeometryCollection, Topology } from 'topojson-specification';

interface Shape {
  fips: string;
  name: string;
  feature: Feature<Geometry>;
  box: [[number, number], [number, number]];
}

let shapes: Shape[] | undefined;

function load(): Shape[] {
  if (shapes) return shapes;
  const require = createRequire(import.meta.url);
  const topo = require('us-atlas/counties-10m.json') as Topology<{ counties: GeometryCollection<{ name: string }> }>;
  const fc = feature(topo, topo.objects.counties);
  shapes = fc.features.map((f) => ({
    fips: String(f.id).padStart(5, '0'),
    name: f.properties?.name ?? '',
    feature: f as Feature<Geometry>,
    box: geoBounds(f) as [[number, number], [number, number]],
  }));
  return shapes;
}

const inBox = (s: Shape, lon: number, lat: number) =>
  lat >= s.box[0][1] && lat <= s.box[1][1] && lon >= s.box[0][0] && lon <= s.box[1][0];

/** FIPS of the county containing the point, by d3-geo (spherical), or undefined. */
export function countyContaining(lon: number, lat: number): string | undefined {
  return load().find((s) => inBox(s, lon, lat) && geoContains(s.feature, [lon, lat]))?.fips;
}

/** The county's name in the atlas (e.g. "Mohave"), for tests that compare names. */
export function atlasName(fips: string): string | undefined {
  return load().find((s) => s.fips === fips)?.name;
}

/** The FIPS of the county the atlas names `name` (e.g. "York") in the state of FIPS `state` (e.g. "45"). */
export function countyNamed(state: string, name: string): string | undefined {
  return load().find((s) => s.fips.startsWith(state) && s.name === name)?.fips;
}

/** Great-circle distance in km between two points, for shoreline tolerances. */
export const distanceKm = (a: [number, number], b: [number, number]): number => geoDistance(a, b) * 6371.0088;

/** Sums customers per county over points, by this lookup; points it places nowhere are summed under ''. */
export function tallyByCounty(points: Array<{ lon: number; lat: number; out: number }>): Map<string, number> {
  const by = new Map<string, number>();
  for (const p of points) {
    const fips = countyContaining(p.lon, p.lat) ?? '';
    by.set(fips, (by.get(fips) ?? 0) + p.out);
  }
  return by;
}

/**
 * Asserts a snapshot's county sums against the points' own (this lookup's) county sums: each county this lookup
 * places is published with at least its sum, and whatever more the connector placed (the shoreline rule puts points
 * just off the 1:10m coast in the nearest county) is no more than the customers this lookup left unplaced.
 */
export function expectCountySums(
  snap: { counties: Array<{ fips: string; customers_out: number }> },
  points: Array<{ lon: number; lat: number; out: number }>,
): { placed: Map<string, number>; unplaced: number } {
  const placed = new Map<string, number>();
  let unplaced = 0;
  for (const p of points) {
    const fips = countyContaining(p.lon, p.lat);
    if (fips) placed.set(fips, (placed.get(fips) ?? 0) + p.out);
    else unplaced += p.out;
  }
  const ours = new Map(snap.counties.map((c) => [c.fips, c.customers_out]));
  let extra = 0;
  for (const [fips, n] of placed) {
    expect(ours.get(fips) ?? 0, `county ${fips}`).toBeGreaterThanOrEqual(n);
    extra += (ours.get(fips) ?? 0) - n;
  }
  for (const [fips, n] of ours) if (!placed.has(fips)) extra += n;
  expect(extra, 'customers placed beyond this lookup').toBeLessThanOrEqual(unplaced);
  return { placed, unplaced };
}
