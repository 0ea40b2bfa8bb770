// DataCapable/UtiliSocial v2 map answers: `map/events` (a flat list) and `map/events/count?types=COUNTY`.
import { z } from 'zod';

const count = z.union([z.number(), z.string()]).nullish();
const text = z.string().nullish();

/**
 * Only the fields normalize reads. Per-record objects use zod's default mode (unknown keys accepted, then dropped)
 * rather than `.loose()`: copying every unknown key made validation cost more than JSON.parse on storm-size lists.
 */
export const eventSchema = z.object({
  id: z.union([z.number(), z.string()]),
  numPeople: count,
  /** epoch ms (a digit string in some answers, as `stats.lastUpdatedTime` is) */
  etrTime: count,
  startTime: count,
  latitude: z.number().nullish(),
  longitude: z.number().nullish(),
  status: text,
  type: text,
  title: text,
  cause: text,
  city: text,
  additionalProperties: z.array(z.object({ property: z.string(), value: z.unknown() })).nullish(),
});

/** One row of the count answer; `type` is COUNTY, or ZIP/MUNICIPALITY when several types were asked for. */
export const countRowSchema = z.object({
  name: z.string(),
  type: text,
  customersAffected: count,
  customersServed: count,
});

/** What fetch returns: the events list, and the county count answer when options.county_counts asks for it. */
export const rawSchema = z
  .object({
    events: z.array(eventSchema),
    counties: z.array(countRowSchema).nullish(),
  })
  .loose();

export type DataCapableEvent = z.infer<typeof eventSchema>;
export type CountRow = z.infer<typeof countRowSchema>;
export interface DataCapableRaw {
  events: unknown;
  counties?: unknown;
}
