// Where an ArcGIS feature is, as longitude/latitude: an Esri point (x/y), an Esri polygon's first ring (rings), or a
// GeoJSON Point/Polygon/MultiPolygon (an `f=geojson` answer: DTE's outage areas are polygons). A polygon stands at its
// first ring's vertex mean, which lies inside the small, compact outage areas utilities draw. Web Mercator answers
// (wkid 102100/3857, a saved page queried without outSR=4326) are converted.
import type { ArcgisFeature } from './schema.ts';

const R = 6378137;
const MERCATOR = new Set([102100, 102113, 3857, 900913]);

/** Whether a spatial reference is Web Mercator (its x/y are metres, not degrees). */
export const isMercator = (sr: { wkid?: number; latestWkid?: number } | null | undefined): boolean =>
  !!sr && (MERCATOR.has(sr.wkid ?? 0) || MERCATOR.has(sr.latestWkid ?? 0));

const fromMercator = (x: number, y: number): [number, number] => [
  (x / R) * (180 / Math.PI),
  (2 * Math.atan(Math.exp(y / R)) - Math.PI / 2) * (180 / Math.PI),
];

function ringMean(ring: unknown): [number, number] | null {
  if (!Array.isArray(ring) || ring.length === 0) return null;
  let x = 0;
  let y = 0;
  let n = 0;
  for (const p of ring) {
    if (!Array.isArray(p) || typeof p[0] !== 'number' || typeof p[1] !== 'number') continue;
    x += p[0];
    y += p[1];
    n += 1;
  }
  return n ? [x / n, y / n] : null;
}

/** The feature's [x, y] in its answer's units (degrees, or metres when Web Mercator), or null without geometry. */
function rawPoint(g: NonNullable<ArcgisFeature['geometry']>): [number, number] | null {
  if (typeof g.x === 'number' && typeof g.y === 'number') return [g.x, g.y];
  if (Array.isArray(g.rings)) return ringMean(g.rings[0]);
  const c = g.coordinates as unknown;
  if (g.type === 'Point' && Array.isArray(c) && typeof c[0] === 'number' && typeof c[1] === 'number')
    return [c[0], c[1]];
  if (g.type === 'Polygon' && Array.isArray(c)) return ringMean(c[0]);
  if (g.type === 'MultiPolygon' && Array.isArray(c) && Array.isArray(c[0])) return ringMean(c[0][0]);
  return null;
}

/** [lon, lat] of the feature, or null when it has none a county can be found from. */
export function pointOf(f: ArcgisFeature, mercator: boolean): [number, number] | null {
  const p = f.geometry ? rawPoint(f.geometry) : null;
  if (!p) return null;
  const [lon, lat] = mercator || Math.abs(p[0]) > 180 ? fromMercator(p[0], p[1]) : p;
  return Number.isFinite(lon) && Number.isFinite(lat) && Math.abs(lon) <= 180 && Math.abs(lat) <= 90
    ? [lon, lat]
    : null;
}
