// Milsoft Web Outage Viewer upstream shapes: data/outageSummary.json, data/boundaries.json, data/outages.json.
import { z } from 'zod';

/** Counts are numbers in every capture seen; comma strings are tolerated and read with toCount. */
const count = z.union([z.number(), z.string()]).nullable().optional();

/** The headline the viewer's banner shows; read only when the site serves it. */
export const summarySchema = z
  .object({
    customersOutNow: count,
    customersServed: count,
  })
  .loose();

/** boundaries.json: one group per boundary layer (counties, substations, districts …). */
export const boundaryGroupsSchema = z.array(
  z
    .object({
      name: z.string().nullable().optional(),
      nameField: z.string().nullable().optional(),
      boundaries: z.array(
        z
          .object({
            name: z.union([z.string(), z.number()]),
            customersOutNow: count,
            customersAffected: count,
            customersServed: count,
          })
          .loose(),
      ),
    })
    .loose(),
);

/**
 * outages.json: one record per device outage, placed by its point. Records are plain (stripping) objects, not
 * `.loose()`: unknown keys are still accepted, but loose copies all of them for every record, which made validation
 * cost about 2.5× JSON.parse of a storm-sized list against about 1.5× stripped. normalize reads only these fields.
 */
export const outagesSchema = z.array(
  z.object({
    outageRecID: z.union([z.string(), z.number()]).nullable().optional(),
    outageName: z.string().nullable().optional(),
    outagePoint: z.object({ lat: z.number(), lng: z.number() }).loose().nullable().optional(),
    outageStartTime: z.string().nullable().optional(),
    estimatedTimeOfRestoral: z.string().nullable().optional(),
    cause: z.string().nullable().optional(),
    crewAssigned: z.boolean().nullable().optional(),
    outageWorkStatus: z.string().nullable().optional(),
    isPlanned: z.boolean().nullable().optional(),
    customersOutNow: count,
  }),
);

export type BoundaryGroup = z.infer<typeof boundaryGroupsSchema>[number];
export type MilsoftOutage = z.infer<typeof outagesSchema>[number];

/** What fetch returns: the data file under its own name, plus the summary (null when the site has none). */
export type MilsoftRaw = { summary: unknown } & ({ boundaries: unknown } | { outages: unknown });
