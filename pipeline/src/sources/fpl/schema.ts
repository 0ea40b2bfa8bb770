// FPL county JSON: the everyday county list (comma-formatted strings), its {main, nw} pair, and storm mode.
import { z } from 'zod';

const countyRow = z
  .object({
    'County Name': z.string(),
    'Customers Out': z.union([z.string(), z.number()]),
    'Customers Served': z.union([z.string(), z.number()]).optional(),
  })
  .loose();

export const countyListSchema = z.object({ outages: z.array(countyRow) }).loose();
export const pairSchema = z.object({ main: countyListSchema, nw: countyListSchema.optional() }).loose();
export const stormSchema = z
  .object({
    counties: z.record(
      z.string(),
      z
        .object({
          name: z.string(),
          numberofoutages: z.number(),
          numberofaccounts: z.number().nullable().optional(),
        })
        .loose(),
    ),
    statewide: z
      .object({ numberofoutages: z.number().optional(), numberofaccounts: z.number().optional() })
      .loose()
      .optional(),
  })
  .loose();
