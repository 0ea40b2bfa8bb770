// PacifiCorp outage map files: map{ST}.json (state headline + outage points) and list{ST}.json (county/ZIP split).
import { z } from 'zod';

const count = z.union([z.number(), z.string()]).nullish();
const text = z.string().nullish();

/** One map point: an outage, or a cluster of nearby outages when outCount > 1. Only the fields normalize reads. */
export const pointSchema = z
  .object({
    icon: text,
    latitude: z.number().nullish(),
    longitude: z.number().nullish(),
    custOut: count,
    etr: text,
    reported: text,
    cause: text,
    crewStatus: text,
  })
  .loose();

/** map{ST}.json: `totalState` is the state's headline (planned points included), `count` the number of outages. */
export const mapSchema = z
  .object({
    totalState: count,
    outages: z.array(pointSchema).nullish(),
  })
  .loose();

/** list{ST}.json: the same outages by county (and by ZIP, not read), split into planned and unplanned. */
export const listSchema = z
  .object({
    counties: z.array(z.object({ countyName: z.string(), custOutUnplan: count }).loose()).nullish(),
  })
  .loose();

/** What fetch returns: one entry per state file, and the HTTP Date of the answers (the year of the local times). */
export const rawSchema = z
  .object({
    captured_at: z.string().nullish(),
    states: z.array(z.object({ state: z.string(), map: mapSchema, list: listSchema.nullish() }).loose()),
  })
  .loose();

export type PacifiCorpPoint = z.infer<typeof pointSchema>;
export type PacifiCorpList = z.infer<typeof listSchema>;

export interface PacifiCorpRaw {
  captured_at: string | null;
  states: Array<{ state: string; map: unknown; list: unknown }>;
}
