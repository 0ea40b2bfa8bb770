// Esri ArcGIS FeatureServer/MapServer `query?f=json` answer, and the error object ArcGIS sends with HTTP 200.
import { z } from 'zod';
import { SourceError } from '../../errors.ts';

export const featureSchema = z
  .object({
    attributes: z.record(z.string(), z.unknown()),
    geometry: z
      .object({ x: z.number().nullable().optional(), y: z.number().nullable().optional() })
      .loose()
      .nullable()
      .optional(),
  })
  .loose();

export const querySchema = z
  .object({
    features: z.array(featureSchema),
    exceededTransferLimit: z.boolean().optional(),
  })
  .loose();

export const errorSchema = z.object({
  error: z.object({ code: z.number().optional(), message: z.string().optional() }).loose(),
});

/** fetch hands normalize every page's features in order */
export interface ArcgisRaw {
  features: z.infer<typeof featureSchema>[];
}

export interface ArcgisFeature {
  attributes: Record<string, unknown>;
  geometry?: { x?: number | null; y?: number | null; [k: string]: unknown } | null;
  [k: string]: unknown;
}

const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const coord = (v: unknown) => v === null || v === undefined || typeof v === 'number';
function fail(what: string, path: string, want: string, v: unknown): never {
  throw new SourceError('schema', `${what} has an unexpected shape: ${path}: expected ${want}, got ${kind(v)}`);
}

/**
 * The features, checked in place for what normalize reads (attributes an object, geometry x/y numbers). normalize's
 * check: querySchema's z.record copied every attribute of every feature, which cost more than JSON.parse.
 */
export function readFeatures(raw: unknown, what: string): ArcgisFeature[] {
  if (!isObj(raw)) fail(what, '(root)', 'object', raw);
  const features = raw.features;
  if (!Array.isArray(features)) fail(what, 'features', 'array', features);
  for (let i = 0; i < features.length; i++) {
    const f: unknown = features[i];
    if (!isObj(f)) fail(what, `features.${i}`, 'object', f);
    if (!isObj(f.attributes)) fail(what, `features.${i}.attributes`, 'object', f.attributes);
    const g = f.geometry;
    if (g === null || g === undefined) continue;
    if (!isObj(g)) fail(what, `features.${i}.geometry`, 'object', g);
    if (!coord(g.x)) fail(what, `features.${i}.geometry.x`, 'number', g.x);
    if (!coord(g.y)) fail(what, `features.${i}.geometry.y`, 'number', g.y);
  }
  return features as ArcgisFeature[];
}
