// WEC Energy Group OutageEventJSON (We Energies, WPS): one event per outage, its customers split into slices
// by city/county/ZIP/region, each slice carrying that area's customers served.
import { z } from 'zod';

const count = z.union([z.number(), z.string()]).nullish();
const text = z.string().nullish();

/** Only the fields normalize reads; Zip, ZipCusts, Region, RegionCusts, CityCusts, LastUpdated pass through. */
export const sliceSchema = z
  .object({
    AffectedCusts: count,
    County: text,
    CountyCusts: count,
    City: text,
  })
  .loose();

export const eventSchema = z
  .object({
    Latitude: z.number().nullish(),
    Longitude: z.number().nullish(),
    OffTime: text,
    ETR: text,
    CrewStatus: text,
    Cause: text,
    Slices: z.array(sliceSchema).nullish(),
  })
  .loose();

/** What fetch returns: the answer's array and its HTTP Date (the year of the local times); a bare array also reads. */
export const rawSchema = z
  .object({
    captured_at: z.string().nullish(),
    events: z.array(eventSchema),
  })
  .loose();

export type WecEvent = z.infer<typeof eventSchema>;
export type WecSlice = z.infer<typeof sliceSchema>;
export interface WecRaw {
  captured_at: string | null;
  events: unknown;
}
