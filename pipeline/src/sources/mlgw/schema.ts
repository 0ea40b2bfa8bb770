// MLGW geojson.php answer: a GeoJSON FeatureCollection, one feature per outage with {OUTAGE_NO, CUR_CUST_AFF,
// EST_REPAIR_TIME, IMPACT}; checked in place for only what normalize reads.
import { arrayAt, fail, isObj, misfit, nullish, objectAt, optNumOrText, optText } from '../checks.ts';

type Text = string | null | undefined;
type NumText = number | string | null | undefined;

/** A position is [lon, lat, …]; normalize reads the first two. */
export type Position = number[];

/** The geometries normalize places; any other type leaves the outage unplaced (README). */
export type MlgwGeometry =
  | { type: 'Point'; coordinates: Position }
  | { type: 'Polygon'; coordinates: Position[][] }
  | { type: 'MultiPolygon'; coordinates: Position[][][] }
  | { type: string; coordinates?: unknown };

/** IMPACT ("A Neighborhood", "A Few Blocks") is the size of the affected area in words: it passes through unread. */
export interface MlgwProperties {
  OUTAGE_NO?: NumText;
  CUR_CUST_AFF?: NumText;
  /** Memphis wall clock, `06/24/2026 08:00:00 PM`, or "" when there is no estimate */
  EST_REPAIR_TIME?: Text;
}

export interface MlgwFeature {
  properties: MlgwProperties;
  geometry?: MlgwGeometry | null;
}

export interface MlgwAnswer {
  features: MlgwFeature[];
}

const WHAT = 'MLGW geojson.php answer';

function checkPosition(p: unknown, at: string): void {
  if (!Array.isArray(p) || typeof p[0] !== 'number' || typeof p[1] !== 'number')
    fail(WHAT, at, '[lon, lat] numbers', p);
}

/** The ring normalize averages: a polygon's first (outer) ring. */
function checkRing(ring: unknown, at: string): void {
  const list = arrayAt(WHAT, ring, at);
  for (let k = 0; k < list.length; k++) checkPosition(list[k], `${at}.${k}`);
}

/** Only the part of each geometry type that normalize reads (the point; the first ring of the first polygon). */
function checkGeometry(g: unknown, at: string): void {
  if (nullish(g)) return;
  if (!isObj(g)) fail(WHAT, at, 'object', g);
  if (typeof g.type !== 'string') fail(WHAT, `${at}.type`, 'string', g.type);
  const c = g.coordinates;
  if (g.type === 'Point') checkPosition(c, `${at}.coordinates`);
  else if (g.type === 'Polygon') checkRing(arrayAt(WHAT, c, `${at}.coordinates`)[0] ?? [], `${at}.coordinates.0`);
  else if (g.type === 'MultiPolygon') {
    const first = arrayAt(WHAT, c, `${at}.coordinates`)[0];
    if (first !== undefined) checkRing(arrayAt(WHAT, first, `${at}.coordinates.0`)[0] ?? [], `${at}.coordinates.0.0`);
  }
}

function checkFeature(v: unknown, i: number): void {
  const f = objectAt(WHAT, v, 'features', i);
  const at = `features.${i}.properties`;
  const p = objectAt(WHAT, f.properties, at);
  if (!optNumOrText(p.OUTAGE_NO)) misfit(WHAT, at, -1, 'OUTAGE_NO', 'number or string', p.OUTAGE_NO);
  if (!optNumOrText(p.CUR_CUST_AFF)) misfit(WHAT, at, -1, 'CUR_CUST_AFF', 'number or string', p.CUR_CUST_AFF);
  if (!optText(p.EST_REPAIR_TIME)) misfit(WHAT, at, -1, 'EST_REPAIR_TIME', 'string', p.EST_REPAIR_TIME);
  checkGeometry(f.geometry, `features.${i}.geometry`);
}

/** The answer, checked in place (no copy): a hand check, as in the sibling connectors. */
export function readRaw(raw: unknown): MlgwAnswer {
  const features = arrayAt(WHAT, objectAt(WHAT, raw, '').features, 'features');
  for (let i = 0; i < features.length; i++) checkFeature(features[i], i);
  return raw as MlgwAnswer;
}
