// ORNL ODIN (OpenDataSoft explore v2.1 `/records`) upstream shape.
import { z } from 'zod';

export const recordSchema = z.object({
  communitydescriptor: z.string().nullable().optional(),
  county: z.string().nullable().optional(),
  state: z.string().nullable().optional(),
  utility_id: z.union([z.string(), z.number()]).nullable().optional(),
  name: z.string().nullable().optional(),
  metersaffected: z.number().nullable().optional(),
  estimatedrestorationtime: z.string().nullable().optional(),
}).loose();

export const pageSchema = z.object({ total_count: z.number(), results: z.array(recordSchema) }).loose();
export type OdinRecord = z.infer<typeof recordSchema>;
