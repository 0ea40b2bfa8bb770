// Anaheim ActiveIncidents answer: a GeoJSON FeatureCollection with one Point per affected meter, tagged with the
// incident's ID (and, on some points, its ETR).
import { arrayAt, isObj, misfit, objectAt, optNumOrText, optObj, optText } from '../checks.ts';

/** Only the properties normalize reads; the rest pass through unread. */
export interface AnaheimProperties {
  ID?: number | string | null;
  /** local wall-clock time without a zone, e.g. `2026-06-29T13:00:00` */
  ETR?: string | null;
  [k: string]: unknown;
}

export interface AnaheimFeature {
  properties?: AnaheimProperties | null;
  geometry?: { coordinates?: unknown; [k: string]: unknown } | null;
  [k: string]: unknown;
}

const WHAT = 'Anaheim ActiveIncidents answer';

/** A GeoJSON position: at least [lon, lat] as numbers. */
const isPosition = (v: unknown): boolean =>
  Array.isArray(v) && v.length >= 2 && typeof v[0] === 'number' && typeof v[1] === 'number';

function checkFeature(f: unknown, i: number): void {
  const at = 'features';
  if (!isObj(f)) misfit(WHAT, at, i, '', 'object', f);
  const p = f.properties;
  if (!optObj(p)) misfit(WHAT, at, i, 'properties', 'object', p);
  if (isObj(p)) {
    if (!optNumOrText(p.ID)) misfit(WHAT, at, i, 'properties.ID', 'number or string', p.ID);
    if (!optText(p.ETR)) misfit(WHAT, at, i, 'properties.ETR', 'string', p.ETR);
  }
  const g = f.geometry;
  if (!optObj(g)) misfit(WHAT, at, i, 'geometry', 'object', g);
  const c = isObj(g) ? g.coordinates : null;
  if (c !== null && c !== undefined && !isPosition(c))
    misfit(WHAT, at, i, 'geometry.coordinates', '[lon, lat] numbers', c);
}

/** The answer, checked in place (no copy) for the fields normalize reads. */
export function readRaw(raw: unknown): AnaheimFeature[] {
  const root = objectAt(WHAT, raw, '');
  const features = arrayAt(WHAT, root.features, 'features');
  for (let i = 0; i < features.length; i++) checkFeature(features[i], i);
  return features as AnaheimFeature[];
}
