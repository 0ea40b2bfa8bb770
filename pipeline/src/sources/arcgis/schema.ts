// Esri ArcGIS FeatureServer/MapServer `query?f=json` answer, and the error object ArcGIS sends with HTTP 200.
import { z } from 'zod';

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
