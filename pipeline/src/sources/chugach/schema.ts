// Chugach Electric outage map answers, as fetch combines them: `{grids, incidents}`, each `{Datetime, Items[]}`.
// Grids.js lists the map's sections `{SECTIONMAP, CUST_OUT, CUST_SERVED}`; Incidents.js the outages `{LATITUDE,
// LONGITUDE, CUSTOMERS_AFFECTED, EST_RESTORATION, OUTAGE_STATUS}`. A zod schema of only what normalize reads.
import { z } from 'zod';
import { parseUpstream } from '../parse.ts';

/** A count or a coordinate: a number in the sample; text accepted, read by countOf / decimalOf. */
const numeric = z.union([z.number(), z.string()]).nullish();
const text = z.string().nullish();

export const sectionSchema = z.object({ SECTIONMAP: z.string(), CUST_OUT: numeric, CUST_SERVED: numeric });
export const incidentSchema = z.object({
  LATITUDE: numeric,
  LONGITUDE: numeric,
  CUSTOMERS_AFFECTED: numeric,
  /** `06/24/2026 15:00`, Anchorage wall clock */
  EST_RESTORATION: text,
  OUTAGE_STATUS: text,
});
const listOf = <T extends z.ZodType>(item: T) => z.object({ Datetime: text, Items: z.array(item).nullish() });
export const rawSchema = z.object({ grids: listOf(sectionSchema), incidents: listOf(incidentSchema) });

export type ChugachRaw = z.infer<typeof rawSchema>;
export type ChugachSection = z.infer<typeof sectionSchema>;
export type ChugachIncident = z.infer<typeof incidentSchema>;

/** What fetch returned, checked: anything else is a `schema` failure naming the field. */
export const WHAT = 'Chugach Electric outage answers';
export const readRaw = (raw: unknown): ChugachRaw => parseUpstream(rawSchema, raw, WHAT);
