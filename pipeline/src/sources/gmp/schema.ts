// Green Mountain Power town list (api.greenmountainpower.com/api/v2/outages/incidents/towns?all=true): a bare array,
// one row per town, {town_name, customers_affected, total_customers}, as the peer's adapter reads it (field names not
// yet confirmed by a real capture). A zod schema of only what normalize reads: the list is a few hundred short rows.
import { z } from 'zod';
import { parseUpstream } from '../parse.ts';

/** A count as GMP sends it: a number in the sample; text (`"1,234"`) accepted, read by countOf. */
const count = z.union([z.number(), z.string()]).nullish();

export const townSchema = z.object({
  town_name: z.string(),
  customers_affected: count,
  total_customers: count,
});
export const answerSchema = z.array(townSchema);

export type GmpTown = z.infer<typeof townSchema>;

export const WHAT = 'Green Mountain Power town list';

/** The answer checked: anything but a list of towns with text names is a `schema` failure naming the field. */
export const readRaw = (raw: unknown): GmpTown[] => parseUpstream(answerSchema, raw, WHAT);
