// Point → county in microseconds: a 0.5° grid over each county's rings, then an even-odd ray test on the candidates.
// Planar on lon/lat, which agrees with the spherical test at county scale (the atlas is 1:10m, edges are short).
// The 1:10m shapes cut the coastline (a shore, a pier, a barrier island): a point in no county but within SHORE_KM of
// one's edge is placed in the nearest such county; only points farther out stay unplaced.
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

/**
 * How far outside every county polygon a point may lie and still be placed in the nearest: the generalised 1:10m
 * coastline is within a few km of the real one almost everywhere (measured on the real point captures: see
 * scripts/measure-unplaced.ts); a point farther out is more likely a bad coordinate than a shore outage.
 */
export const SHORE_KM = 5;
const KM_PER_DEG = 111.195;

/** Squared distance in km² from (x, y) to segment a–b, on a local equirectangular plane scaled by cos(lat). */
function segmentKm2(x: number, y: number, ax: number, ay: number, bx: number, by: number, kx: number): number {
  const px = (x - ax) * kx;
  const py = y - ay;
  const dx = (bx - ax) * kx;
  const dy = by - ay;
  const len = dx * dx + dy * dy;
  const t = len === 0 ? 0 : Math.max(0, Math.min(1, (px * dx + py * dy) / len));
  const ex = px - t * dx;
  const ey = py - t * dy;
  return (ex * ex + ey * ey) * KM_PER_DEG * KM_PER_DEG;
}

/** The county whose edge is nearest the point, when within SHORE_KM (grid cells around the point only). */
function nearest(grid: Map<number, Shape[]>, x: number, y: number): string | undefined {
  const kx = Math.cos((y * Math.PI) / 180);
  const reach = SHORE_KM / KM_PER_DEG;
  const seen = new Set<Shape>();
  let best: string | undefined;
  let bestKm2 = SHORE_KM * SHORE_KM;
  for (let cy = Math.floor((y - reach) / CELL); cy <= Math.floor((y + reach) / CELL); cy++) {
    for (let cx = Math.floor((x - reach / kx) / CELL); cx <= Math.floor((x + reach / kx) / CELL); cx++) {
      for (const shape of grid.get(cy * 1000 + cx) ?? []) {
        if (seen.has(shape)) continue;
        seen.add(shape);
        for (const r of shape.rings) {
          for (let i = 2; i < r.length; i += 2) {
            const d = segmentKm2(x, y, r[i - 2], r[i - 1], r[i], r[i + 1], kx);
            if (d <= bestKm2) [bestKm2, best] = [d, shape.fips];
          }
        }
      }
    }
  }
  return best;
}

/** A point's county; `shore` false keeps to the polygons (what a drawing of the county contains). */
export type Locate = (lon: number, lat: number, shore?: boolean) => string | undefined;

export function pointIndex(features: Array<{ fips: string; feature: Feature<Geometry> }>): Locate {
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
  return (lon, lat, shore = true) => {
    if (!Number.isFinite(lon) || !Number.isFinite(lat)) return undefined;
    for (const shape of grid.get(cellKey(lon, lat)) ?? []) if (inside(shape.rings, lon, lat)) return shape.fips;
    return shore ? nearest(grid, lon, lat) : undefined;
  };
}
