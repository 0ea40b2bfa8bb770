// Where the simulator puts a county's incidents and township boxes: spread over the county's land, as real feeds
// report them, rather than stacked on one point. Points are seeded, so a storm replays identically.
import { loadAtlas } from '../geo/counties.ts';
import { unit } from './random.ts';

/** Incidents per county are capped at 40 (formats.ts), so 40 slots cover every incident a county can have. */
export const PLACEMENT_SLOTS = 40;
/** Tries per point before falling back to the county's interior point (tiny or ragged counties). */
const TRIES = 48;

type Point = [number, number];
const cache = new Map<string, Point>();

/**
 * A seeded point on the county's land: uniform over its bounding box, kept only where the county itself contains
 * it (the point-in-county index), so coastal and ragged counties get no points in the sea or next door.
 * @param fallback the county's interior point, used when no try lands inside
 * @param owner the utility placing it: two utilities serving one county place their incidents apart
 */
export function countyPoint(seed: number, fips: string, slot: number, fallback: () => Point, owner = ''): Point {
  const key = `${seed}|${owner}|${fips}|${slot}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const atlas = loadAtlas();
  const c = atlas.byFips.get(fips);
  let point: Point | undefined;
  if (c) {
    const [w, s, e, n] = c.bbox;
    for (let k = 0; k < TRIES && !point; k++) {
      const p: Point = [
        w + (e - w) * unit(seed, 'px', owner, fips, slot, k),
        s + (n - s) * unit(seed, 'py', owner, fips, slot, k),
      ];
      if (atlas.within(p[0], p[1]) === fips) point = p;
    }
  }
  point = (point ?? fallback()).map((v) => Math.round(v * 1e5) / 1e5) as Point;
  cache.set(key, point);
  return point;
}

/**
 * A township's box (Kubra's gotoMap.bbox): centred on a point of the county's land, at most 0.06° across and never
 * wider than a fifth of the county, and, where a try allows it, with all four corners inside the county too.
 */
export function townBox(seed: number, fips: string, town: number, fallback: () => Point): number[] {
  const c = loadAtlas().byFips.get(fips);
  const [w, s, e, n] = c?.bbox ?? [0, 0, 0.3, 0.3];
  const d = Math.min(0.03, (e - w) / 10, (n - s) / 10);
  const box = ([x, y]: Point) => [x - d, y - d, x + d, y + d].map((v) => Math.round(v * 1e5) / 1e5);
  const inside = ([x0, y0, x1, y1]: number[]) =>
    [
      [x0, y0],
      [x0, y1],
      [x1, y0],
      [x1, y1],
    ].every(([x, y]) => loadAtlas().within(x, y) === fips);
  // Township slots follow the incident slots, so a town's box does not sit on the county's first incident.
  for (let k = 0; k < 6; k++) {
    const b = box(countyPoint(seed, fips, PLACEMENT_SLOTS + town * 6 + k, fallback));
    if (inside(b)) return b;
  }
  return box(countyPoint(seed, fips, PLACEMENT_SLOTS + town * 6, fallback));
}
