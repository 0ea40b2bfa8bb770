// OutageEntry `cfa_device_markers` answer: {result, "0": {markers: [...]}}; numbers arrive as strings.
import { z } from 'zod';

const text = z.string().nullish();
const numberOrText = z.union([z.string(), z.number()]).nullish();

/**
 * Only the fields normalize reads; the rest (substation, feeder, poly, duration …) are accepted and dropped. zod's
 * default mode, not `.loose()`: copying every unknown key per marker cost more than JSON.parse itself.
 */
export const markerSchema = z.object({
  incident_id: numberOrText,
  consumers_affected: numberOrText,
  lat: numberOrText,
  lon: numberOrText,
  estimated_restore_time: text,
  formatted_ert: text,
  start_date: text,
});

/** A quiet day may come back as `"0": {}`, `"0": []` (an empty PHP array) or without "0" at all. */
export const markersAnswerSchema = z
  .object({
    '0': z.preprocess(
      (v) => (Array.isArray(v) && v.length === 0 ? null : v),
      z
        .object({ markers: z.array(markerSchema).nullish() })
        .loose()
        .nullish(),
    ),
  })
  .loose();

export type OutageEntryMarker = z.infer<typeof markerSchema>;
