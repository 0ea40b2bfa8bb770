// The map's geometry: us-atlas counties and states (Census 2017, pre-projected to Albers USA, 975 × 610) re-snapped
// to a grid and thinned with Douglas–Peucker, in two details (DETAILS): `full` for the maps zoomed to a state, and
// `national` for the whole country, which is never drawn wider than ~1,050 px (11 % fewer bytes raw, 13 % brotli).
// The territories, which the Albers file leaves out, are projected here from us-atlas's longitude/latitude file
// into insets on open sea in the same frame (Puerto Rico and the Virgin Islands east of Florida, the Pacific ones
// beside Hawaii). Built from node_modules at build or first request, never committed.
import atlas from 'us-atlas/counties-albers-10m.json' with { type: 'json' };
import lonLat from 'us-atlas/counties-10m.json' with { type: 'json' };
import { geoMercator } from 'd3-geo';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { stateByFips } from '../../../pipeline/src/geo/states.ts';

/**
 * A detail: the grid step and the Douglas–Peucker tolerance, in map pixels (the map's natural width is 975). Arc end
 * points are kept, so shared borders stay shared at any tolerance.
 */
export interface Detail {
  grid: number;
  tolerance: number;
}

export const DETAILS = {
  /** a quarter pixel: a small state zoomed to a wide screen (Rhode Island, tens of times) still shows its coast */
  full: { grid: 0.25, tolerance: 0.3 },
  /**
   * The national view (`/`): the map is at most ~1,050 CSS px wide (1.1× its natural width; 0.4× on a phone), so a
   * half-pixel grid and a 0.7 px tolerance stay under a CSS pixel, and the file the first paint waits for is smaller
   * (26,000 points instead of 35,000, half the digits).
   */
  national: { grid: 0.5, tolerance: 0.7 },
} as const satisfies Record<string, Detail>;
export type DetailName = keyof typeof DETAILS;

type Point = [number, number];
type Source = Topology<{
  counties: GeometryCollection<{ name: string }>;
  states: GeometryCollection<{ name: string }>;
}>;

/** Absolute map coordinates of one delta-encoded arc. */
function decodeArc(arc: Point[], t: { scale: [number, number]; translate: [number, number] }): Point[] {
  let x = 0;
  let y = 0;
  return arc.map(([dx, dy]) => {
    x += dx;
    y += dy;
    return [x * t.scale[0] + t.translate[0], y * t.scale[1] + t.translate[1]];
  });
}

/** Douglas–Peucker on one arc, iterative (long coastlines would overflow a recursive one). */
function simplify(pts: Point[], tolerance: number): Point[] {
  if (pts.length < 3) return pts;
  const keep = new Uint8Array(pts.length);
  keep[0] = keep[pts.length - 1] = 1;
  const stack: Array<[number, number]> = [[0, pts.length - 1]];
  while (stack.length) {
    const [a, b] = stack.pop()!;
    const [ax, ay] = pts[a];
    const [bx, by] = pts[b];
    const len = Math.hypot(bx - ax, by - ay);
    let far = -1;
    let farDist = tolerance;
    for (let i = a + 1; i < b; i++) {
      const [px, py] = pts[i];
      const d =
        len === 0 ? Math.hypot(px - ax, py - ay) : Math.abs((by - ay) * px - (bx - ax) * py + bx * ay - by * ax) / len;
      if (d > farDist) [far, farDist] = [i, d];
    }
    if (far >= 0) {
      keep[far] = 1;
      stack.push([a, far], [far, b]);
    }
  }
  return pts.filter((_, i) => keep[i]);
}

/** Back to delta-encoded grid integers; repeated points dropped, but an arc keeps two points so rings still close. */
function encodeArc(pts: Point[], grid: number): Point[] {
  const out: Point[] = [];
  let px = 0;
  let py = 0;
  for (const [x, y] of pts) {
    const gx = Math.round(x / grid);
    const gy = Math.round(y / grid);
    if (out.length > 0 && gx === px && gy === py) continue;
    out.push([gx - px, gy - py]);
    [px, py] = [gx, gy];
  }
  if (out.length < 2) out.push([0, 0]);
  return out;
}

type Geometry = { type: string; id?: string | number; arcs?: unknown; properties?: unknown };
type Transform = { scale: [number, number]; translate: [number, number] };

/**
 * Where each territory is drawn: state FIPS codes and the box (map pixels: x0, y0, x1, y1) they are fitted into, on
 * sea (or Mexico) no state reaches. Each is larger than its true scale (Puerto Rico about 2.5×), as Alaska is moved.
 */
export const TERRITORY_INSETS: ReadonlyArray<{ states: string[]; box: [number, number, number, number] }> = [
  { states: ['72', '78'], box: [848, 535, 968, 590] }, // Puerto Rico, US Virgin Islands
  { states: ['69'], box: [340, 515, 362, 602] }, // Northern Mariana Islands: a chain of small islands
  { states: ['66'], box: [368, 572, 394, 604] }, // Guam
  { states: ['60'], box: [400, 576, 430, 604] }, // American Samoa
];

/** An arc reference renumbered (a negative index ~i is arc i reversed). */
function renumber(arcs: unknown, index: (i: number) => number): unknown {
  if (Array.isArray(arcs)) return arcs.map((a) => renumber(a, index));
  const i = arcs as number;
  return i < 0 ? ~index(~i) : index(i);
}

/**
 * The territories' counties and state outlines, projected into their insets: arcs appended after `offset`, in
 * grid units like the rest. Each arc bounds one territory only, so each is projected by its own inset.
 */
function territories(offset: number, detail: Detail) {
  const src = lonLat as unknown as Source;
  const t = src.transform as unknown as Transform;
  const arcs: Point[][] = [];
  const counties: Geometry[] = [];
  const states: Geometry[] = [];
  for (const inset of TERRITORY_INSETS) {
    const mine = (g: Geometry, len: number) =>
      inset.states.includes(String(g.id).slice(0, 2)) && String(g.id).length === len;
    const cs = src.objects.counties.geometries.filter((g) => mine(g as Geometry, 5)) as Geometry[];
    const ss = src.objects.states.geometries.filter((g) => mine(g as Geometry, 2)) as Geometry[];
    const shapes = feature(src as never, { type: 'GeometryCollection', geometries: cs } as never);
    const [x0, y0, x1, y1] = inset.box;
    const project = geoMercator().fitExtent(
      [
        [x0, y0],
        [x1, y1],
      ],
      shapes as never,
    );
    const index = new Map<number, number>();
    const add = (i: number) => {
      if (!index.has(i)) {
        index.set(i, offset + arcs.length);
        const pts = decodeArc(src.arcs[i] as Point[], t).map((p) => project(p) as Point);
        arcs.push(encodeArc(simplify(pts, detail.tolerance), detail.grid));
      }
      return index.get(i)!;
    };
    for (const g of cs) counties.push({ ...g, arcs: renumber(g.arcs, add) });
    for (const g of ss) states.push({ ...g, arcs: renumber(g.arcs, add) });
  }
  return { arcs, counties, states };
}

const built = new Map<DetailName, string>();

/**
 * The site's TopoJSON at a detail: counties (id = FIPS, name) and states (id = FIPS, name, code). A county's state is
 * the state geometry whose id begins its FIPS (browser/geometry.js), so the counties do not repeat it.
 */
export function mapTopologyJson(name: DetailName): string {
  const hit = built.get(name);
  if (hit) return hit;
  const detail = DETAILS[name];
  const src = atlas as unknown as Source;
  const t = src.transform!;
  const arcs = src.arcs.map((arc) =>
    encodeArc(simplify(decodeArc(arc as Point[], t as never), detail.tolerance), detail.grid),
  );
  const extra = territories(arcs.length, detail);
  const counties = [...src.objects.counties.geometries, ...extra.counties].map((g) => ({
    ...g,
    properties: { name: (g.properties as { name: string }).name },
  }));
  const states = [...src.objects.states.geometries, ...extra.states].map((g) => ({
    ...g,
    properties: { name: (g.properties as { name: string }).name, code: stateByFips(String(g.id))?.code ?? '' },
  }));
  const topo = {
    type: 'Topology',
    bbox: src.bbox,
    transform: { scale: [detail.grid, detail.grid], translate: [0, 0] },
    objects: {
      counties: { type: 'GeometryCollection', geometries: counties },
      states: { type: 'GeometryCollection', geometries: states },
    },
    arcs: [...arcs, ...extra.arcs],
  };
  const json = JSON.stringify(topo);
  built.set(name, json);
  return json;
}
