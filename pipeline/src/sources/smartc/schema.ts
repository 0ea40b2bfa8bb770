// SEW SmartCMobile outage answers: the WidgetAPI (MG&E) and the ServiceAPI family (OPPD), each only as far as read.
import { z } from 'zod';

const count = z.union([z.number(), z.string()]).nullish();
const text = z.string().nullish();
const coordinate = z.union([z.number(), z.string()]).nullish();

/** WidgetAPI `PreloginGetOutageData`: outage points and the served total ("TotalCusomerServed" [sic]). */
export const widgetSchema = z
  .object({
    result: z
      .object({
        Data: z
          .object({
            listOutageResultSetTwo: z
              .array(
                z
                  .object({
                    CustomerAffected: count,
                    City: text,
                    Latitude: coordinate,
                    Longitude: coordinate,
                    ETR: text,
                  })
                  .loose(),
              )
              .nullish(),
            listTotalOutage: z.array(z.object({ TotalCusomerServed: count }).loose()).nullish(),
          })
          .loose(),
      })
      .loose(),
  })
  .loose();

/** ServiceAPI answers share one envelope: `{status: {type, code, message, error}, data}`. */
const envelope = <T extends z.ZodType>(data: T) =>
  z
    .object({
      status: z.object({ error: z.boolean().nullish(), message: text }).loose().nullish(),
      data,
    })
    .loose();

export const eventSchema = z
  .object({
    incidentId: z.union([z.string(), z.number()]),
    affectedCount: count,
    location: text,
    lat: coordinate,
    lon: coordinate,
    crewStatus: text,
    restorationTime: text,
    extension: z.object({ OutageAttribute1: text }).loose().nullish(),
  })
  .loose();

/** What fetch returns for the ServiceAPI: the events answer, and the county list and account count when asked. */
export const serviceSchema = z
  .object({
    events: envelope(z.array(eventSchema).nullish()),
    counties: envelope(z.array(z.object({ location: z.string(), affectedCount: count }).loose()).nullish()).nullish(),
    accounts: envelope(z.object({ count }).loose().nullish()).nullish(),
  })
  .loose();

export type WidgetAnswer = z.infer<typeof widgetSchema>;
export type ServiceRaw = z.infer<typeof serviceSchema>;
export type ServiceEvent = z.infer<typeof eventSchema>;
