// NISC hosted outage map (`…/data/summary.json`) upstream shape.
import { z } from 'zod';

export const summarySchema = z
  .object({
    totalServed: z.number().nullable().optional(),
    outages: z
      .array(
        z
          .object({
            id: z.union([z.string(), z.number()]),
            nbrOut: z.number().nullable().optional(),
            estimateTime: z.number().nullable().optional(),
            outagePoint: z.object({ lat: z.number(), lng: z.number() }).loose().nullable().optional(),
            cause: z.string().nullable().optional(),
            crewStatus: z.string().nullable().optional(),
            startTime: z.number().nullable().optional(),
          })
          .loose(),
      )
      .optional(),
    regionDataSets: z
      .array(
        z
          .object({
            id: z.string(),
            description: z.string().optional(),
            regions: z.array(
              z
                .object({
                  id: z.string(),
                  numberOut: z.number().nullable().optional(),
                  numberServed: z.number().nullable().optional(),
                })
                .loose(),
            ),
          })
          .loose(),
      )
      .optional(),
  })
  .loose()
  .refine(
    (d) => d.outages !== undefined || d.regionDataSets !== undefined,
    'neither `outages` nor `regionDataSets` is present',
  );
