// Esri ArcGIS FeatureServer/MapServer `query` answers, `f=json` (attributes, x/y or rings) or `f=geojson` (properties,
// GeoJSON geometry), and the error object ArcGIS sends with HTTP 200. Checked by hand in place: a z.record of every
// feature's attributes copied them all and cost more than JSON.parse.
import { arrayAt, fail, isObj, misfit, objectAt, optBoolean, optNumber, optText } from '../checks.ts';

export interface ArcgisFeature {
  /** `f=json`; an `f=geojson` feature has `properties` instead */
  attributes?: Record<string, unknown>;
  properties?: Record<string, unknown>;
  /** `f=json`: {x, y} or {rings}; `f=geojson`: {type, coordinates} */
  geometry?: { x?: number | null; y?: number | null; [k: string]: unknown } | null;
  [k: string]: unknown;
}

/** fetch hands normalize every page's features in order (and the answer's spatial reference, when not WGS84) */
export interface ArcgisRaw {
  features: ArcgisFeature[];
  spatialReference?: { wkid?: number; latestWkid?: number } | null;
}

/** One page of a query answer. */
export interface ArcgisPage {
  features: ArcgisFeature[];
  exceededTransferLimit?: boolean | null;
}

/** The features (attributes or properties an object, x/y numbers), checked in place for what normalize reads. */
export function readFeatures(raw: unknown, what: string): ArcgisFeature[] {
  const features = arrayAt(what, objectAt(what, raw, '').features, 'features');
  for (let i = 0; i < features.length; i++) {
    const f = objectAt(what, features[i], 'features', i);
    if (!isObj(f.attributes) && !isObj(f.properties))
      misfit(what, 'features', i, 'attributes', 'object (or GeoJSON properties)', f.attributes);
    const g = f.geometry;
    if (g === null || g === undefined) continue;
    if (!isObj(g)) misfit(what, 'features', i, 'geometry', 'object', g);
    if (!optNumber(g.x)) misfit(what, 'features', i, 'geometry.x', 'number', g.x);
    if (!optNumber(g.y)) misfit(what, 'features', i, 'geometry.y', 'number', g.y);
  }
  return features as ArcgisFeature[];
}

/** One page as fetch reads it: its features and whether the server holds more. */
export function readPage(raw: unknown, what: string): ArcgisPage {
  const features = readFeatures(raw, what);
  const more = (raw as { exceededTransferLimit?: unknown }).exceededTransferLimit;
  if (!optBoolean(more)) fail(what, 'exceededTransferLimit', 'boolean', more);
  return { features, exceededTransferLimit: more as boolean | null | undefined };
}

/** The error ArcGIS answers with HTTP 200 (`{error: {code, message}}`), or null when `raw` is not one. */
export function arcgisError(raw: unknown): { code?: number | null; message?: string | null } | null {
  const e = isObj(raw) ? raw.error : null;
  return isObj(e) && optNumber(e.code) && optText(e.message) ? e : null;
}
