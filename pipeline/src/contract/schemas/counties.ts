// The schemas of a county's profile and history, and of the charts (PNG).
import { bandS, env, fips, generated, int, levelS, magS, nullableInt, obj, pct, stateCode, time } from './parts.ts';

const historySource = {
  type: 'string',
  enum: ['eaglei', 'archive', 'both', 'simulated'],
  description:
    "Where the figures come from: eaglei (EAGLE-I), archive (this service's live archive) or both. EAGLE-I wins for every quarter hour of a loaded EAGLE-I year up to its last EAGLE-I time; the archive's finished days fill the rest. simulated: the deployment's history is its built-in simulator's, credited to no one.",
};

export const COUNTY_SCHEMAS: Record<string, Record<string, unknown>> = {
  CountyProfile: env(
    obj({
      generated_at: generated,
      fips,
      name: { type: 'string' },
      state: stateCode,
      state_name: { type: ['string', 'null'] },
      customers: {
        ...nullableInt,
        description: 'The modelled half of the denominator: EAGLE-I MCC when imported, else the shipped model.',
      },
      customers_source: { type: ['string', 'null'], enum: ['eaglei_mcc', 'model', null] },
      neighbours: { type: 'array', items: fips },
      live: obj({
        customers_out: int,
        pct_out: pct,
        band: bandS,
        magnitude: magS,
        level: levelS,
        stale: { type: 'boolean' },
        url: { type: 'string' },
      }),
      history_loaded: { type: 'boolean' },
      history_simulated: {
        type: 'boolean',
        description: "True when the deployment's history is the built-in simulator's (SIMULATED, credited to no one).",
      },
      history_credit: {
        type: ['string', 'null'],
        description:
          "Who the years' figures come from, as the county's charts credit it (EAGLE-I, the live archive, or both; SIMULATED history credits no one); null without history.",
      },
      years_loaded: {
        type: 'array',
        items: int,
        description:
          'The years whose history is loaded (EAGLE-I, the live archive or both): a loaded year missing from `years` had no episode here (a real zero); a year not listed is unknown.',
      },
      years: {
        type: 'array',
        items: obj({
          year: int,
          episodes: int,
          customer_hours: { type: 'number' },
          max_out: int,
          longest_h: { type: 'number' },
          by_size: { type: 'object' },
          source: historySource,
        }),
      },
    }),
  ),
  CountyHistory: env(
    obj({
      generated_at: generated,
      fips,
      name: { type: 'string' },
      state: stateCode,
      episode_rule: { type: 'object' },
      months: {
        type: 'array',
        items: obj({
          year: int,
          month: { type: 'integer', minimum: 1, maximum: 12 },
          episodes: int,
          customer_hours: { type: 'number' },
          max_out: int,
          source: historySource,
        }),
      },
      worst_events: {
        type: 'array',
        maxItems: 10,
        items: obj({
          start_at: time,
          end_at: time,
          peak: int,
          customer_hours: { type: 'number' },
          duration_h: { type: 'number' },
          size_class: { type: 'string', enum: ['small', 'medium', 'large', 'major'] },
          source: historySource,
        }),
      },
    }),
  ),
  Png: { type: 'string', contentMediaType: 'image/png', description: 'PNG image, 1200 × 630.' },
};
