// Point → county in microseconds: a 0.5° grid over each county's rings, then an even-odd ray test on the candidates.
// Planar on lon/lat, which agrees with the spherical test at county scale (the atlas is 1:10m, edges are short).
import type { Feature, Geometry, Position } from 'geojson';

const CELL = 0.5;
const cellKey = (x: number, y: number) => Math.floor(y / CELL) * 1000 + Math.floor(x / CELL);

interface Shape {
  fips: string;
  /** flat [lon, lat, lon, lat, …] per ring, outer rings and holes alike (even-odd) */
  rings: Float64Array[];
}

function ringsOf(g: Geometry): Position[][] {
  if (g.type === 'Polygon') return g.coordinates;
  if (g.type === 'MultiPolygon') return g.coordinates.flat();
  return [];
}

function inside(rings: Float64Array[], x: number, y: number): boolean {
  let odd = false;
  for (const r of rings) {
    for (let i = 0, j = r.length - 2; i < r.length; j = i, i += 2) {
      const yi = r[i + 1];
      const yj = r[j + 1];
      if (yi > y !== yj > y && x < ((r[j] - r[i]) * (y - yi)) / (yj - yi) + r[i]) odd = !odd;
    }
  }
  return odd;
}

export function pointIndex(
  features: Array<{ fips: string; feature: Feature<Geometry> }>,
): (lon: number, lat: number) => string | undefined {
  const grid = new Map<number, Shape[]>();
  for (const { fips, feature } of features) {
    const shape: Shape = { fips, rings: ringsOf(feature.geometry).map((ring) => Float64Array.from(ring.flat())) };
    let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const r of shape.rings) {
      for (let i = 0; i < r.length; i += 2) {
        w = Math.min(w, r[i]);
        e = Math.max(e, r[i]);
        s = Math.min(s, r[i + 1]);
        n = Math.max(n, r[i + 1]);
      }
    }
    for (let y = Math.floor(s / CELL); y <= Math.floor(n / CELL); y++) {
      for (let x = Math.floor(w / CELL); x <= Math.floor(e / CELL); x++) {
        const k = y * 1000 + x;
        (grid.get(k) ?? grid.set(k, []).get(k)!).push(shape);
      }
    }
  }
  return (lon, lat) => {
    if (!Number.isFinite(lon) || !Number.isFinite(lat)) return undefined;
    for (const shape of grid.get(cellKey(lon, lat)) ?? []) if (inside(shape.rings, lon, lat)) return shape.fips;
    return undefined;
  };
}
