// A county's outline for its page's small map (us-atlas, longitude/latitude), drawn in a local equirectangular
// frame whose parameters go to the browser, so it places incidents and area boxes with the same few lines of maths.
import { createRequire } from 'node:module';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { Feature, MultiPolygon, Polygon } from 'geojson';

/** The frame: x = pad + (lon − west) · cos(lat0) · k, y = pad + (north − lat) · k. */
export interface OutlineFrame {
  west: number;
  north: number;
  cos: number;
  k: number;
  pad: number;
  width: number;
  height: number;
}

export interface CountyOutline {
  frame: OutlineFrame;
  /** SVG path data of the county in the frame */
  d: string;
}

const WIDTH = 420;
const HEIGHT = 300;
const PAD = 10;

let shapes: Map<string, Feature<Polygon | MultiPolygon>> | undefined;

function shapeOf(fips: string): Feature<Polygon | MultiPolygon> | undefined {
  if (!shapes) {
    const topo = createRequire(import.meta.url)('us-atlas/counties-10m.json') as Topology<{
      counties: GeometryCollection;
    }>;
    const all = feature(topo, topo.objects.counties) as unknown as { features: Feature<Polygon | MultiPolygon>[] };
    shapes = new Map(all.features.map((f) => [String(f.id), f]));
  }
  return shapes.get(fips);
}

/** The outline of one county, or null when us-atlas has no shape for it. */
export function countyOutline(fips: string): CountyOutline | null {
  const f = shapeOf(fips);
  if (!f) return null;
  const polys = f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates;
  let [west, south, east, north] = [180, 90, -180, -90];
  for (const ring of polys.flat())
    for (const [lon, lat] of ring) {
      west = Math.min(west, lon);
      east = Math.max(east, lon);
      south = Math.min(south, lat);
      north = Math.max(north, lat);
    }
  const cos = Math.cos((((south + north) / 2) * Math.PI) / 180);
  const k = Math.min(
    (WIDTH - 2 * PAD) / Math.max(1e-6, (east - west) * cos),
    (HEIGHT - 2 * PAD) / Math.max(1e-6, north - south),
  );
  const width = Math.round(2 * PAD + (east - west) * cos * k);
  const height = Math.round(2 * PAD + (north - south) * k);
  const frame = { west, north, cos, k, pad: PAD, width, height };
  const pt = ([lon, lat]: number[]) =>
    `${(PAD + (lon - west) * cos * k).toFixed(1)},${(PAD + (north - lat) * k).toFixed(1)}`;
  const d = polys.map((poly) => poly.map((ring) => `M${ring.map(pt).join('L')}Z`).join('')).join('');
  return { frame, d };
}
