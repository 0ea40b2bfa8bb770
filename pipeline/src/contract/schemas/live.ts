// The schemas of the national live documents: summary, map, leaders, timeline and sources.
import { CONNECTORS } from '../../sources/source-def.ts';
import { TRANSPORTS } from '../../sources/transport.ts';
import {
  TRACKED_RULE,
  bandS,
  env,
  fips,
  generated,
  int,
  levelS,
  magS,
  nullableInt,
  nullableTime,
  obj,
  pct,
  stateCode,
  time,
} from './parts.ts';

const HEALTH_WINDOW = obj({
  polls: int,
  success_rate: { type: ['number', 'null'], minimum: 0, maximum: 1 },
  median_fetch_ms: nullableInt,
  minutes_stale: int,
});

const trackedSum = (scope: string) => ({
  ...nullableInt,
  description: `Customers served by the sources polled and fresh in ${scope} now: the sum of its counties' customers_tracked (${TRACKED_RULE}). Null when no fresh source serves any of its counties. Not the denominator of pct_out, which is the share of all its customers.`,
});
const stateLive = obj({
  state: stateCode,
  fips: { type: 'string', pattern: '^\\d{2}$' },
  name: { type: 'string' },
  customers_out: int,
  customers_tracked: trackedSum('the state'),
  pct_out: pct,
  band: bandS,
  magnitude: magS,
  level: levelS,
  counties_out: int,
});

export const mapEntry = {
  type: 'array',
  prefixItems: [int, pct, levelS, bandS, magS],
  minItems: 5,
  maxItems: 5,
  description: '[customers_out, pct_out, level, band, magnitude]',
};

export const LIVE_SCHEMAS: Record<string, Record<string, unknown>> = {
  LiveSummary: env(
    obj({
      generated_at: generated,
      simulated: { type: 'boolean' },
      reports_building: {
        type: 'boolean',
        description:
          'True while this process builds the report tables (`outage start` importing history after its first map): /api/v1/reports answers 404 until they are published, and the reports page says so and waits.',
      },
      national: obj({
        customers_out: int,
        customers_tracked: trackedSum('the nation (every state in `states`)'),
        pct_out: pct,
        band: bandS,
        counties_out: int,
        states_out: int,
      }),
      states: { type: 'array', items: stateLive },
    }),
  ),
  LiveMap: env({
    type: 'object',
    patternProperties: {
      '^\\d{5}$': { $ref: '#/components/schemas/MapEntry' },
      '^[A-Z]{2}$': { $ref: '#/components/schemas/MapEntry' },
    },
    additionalProperties: false,
    description:
      'Counties currently out under their 5-digit FIPS; every state under its USPS code. Nothing else: every member is an entry, so `Object.entries(data)` meets only five-value arrays. The generation time is in `Last-Modified`, the `ETag` and `/api/v1/live/summary`.',
  }),
  LiveTop: env(
    obj({
      generated_at: generated,
      states: {
        type: 'array',
        maxItems: 10,
        items: obj({ state: stateCode, name: { type: 'string' }, customers_out: int, pct_out: pct, band: bandS }),
      },
      counties: {
        type: 'array',
        maxItems: 10,
        items: obj({ fips, name: { type: 'string' }, state: stateCode, customers_out: int, pct_out: pct, band: bandS }),
      },
      providers: {
        type: 'array',
        maxItems: 10,
        items: obj({
          utility: { type: 'string' },
          customers_out: int,
          customers_served: nullableInt,
          pct_out: pct,
          states: { type: 'array', items: stateCode },
          sources: { type: 'array', items: { type: 'string' } },
        }),
      },
    }),
  ),
  LiveTimeline: env(
    obj({
      generated_at: generated,
      hours: { type: 'integer', minimum: 1, maximum: 168 },
      interval_min: { const: 15 },
      entry: { type: 'array', items: { type: 'string' } },
      frames: {
        type: 'array',
        items: obj({
          at: time,
          states: {
            type: 'object',
            patternProperties: {
              '^[A-Z]{2}$': { type: 'array', prefixItems: [int, pct, bandS], minItems: 3, maxItems: 3 },
            },
            additionalProperties: false,
          },
        }),
      },
    }),
  ),
  LiveSources: env(
    obj({
      generated_at: generated,
      simulated: { type: 'boolean' },
      sources: {
        type: 'array',
        items: obj({
          id: { type: 'string' },
          utility: { type: 'string' },
          states: { type: 'array', items: stateCode },
          connector: { type: 'string', enum: [...CONNECTORS] },
          transport: {
            type: 'string',
            enum: [...TRANSPORTS],
            description:
              "How the feed is fetched: `https`, or `plain_http` where the utility serves its feed only over http (the registry row's `options.plain_http` says why, with its public source). Nothing authenticates a plain-http answer: it could be altered on the way. Its answer is read with the same limits and checks as every other.",
          },
          tier: {
            type: 'integer',
            enum: [1, 2, 3],
            description:
              'Polling tier: 1 = largest utilities and aggregators (polled first), 2 = regional, 3 = small/cooperative.',
          },
          interval_min: {
            type: 'integer',
            minimum: 1,
            description: 'Effective polling interval in minutes (hardened when the utility has ≥ 1 % out).',
          },
          base_interval_min: { type: 'integer', minimum: 1 },
          evidence: {
            type: ['string', 'null'],
            enum: ['own', 'platform', 'none', null],
            description:
              "What proves the registry row is read right: `own` (a real capture of this source's own feed is a test fixture), `platform` (only another utility's real capture of the same platform, with a public source showing this URL in use), `none` (only a hand-made sample). Null for a registry without the column (the simulator's).",
          },
          hardened: { type: 'boolean' },
          next_due_at: time,
          updated_at: { ...nullableTime, description: 'Last fetch of this source (successful or not).' },
          last_success_at: nullableTime,
          freshness: { type: 'string', enum: ['fresh', 'stale'] },
          stale_after_min: {
            type: 'integer',
            description:
              'Minutes after last_success_at at which the source is stale: max(20, 2 × interval_min + 5), on the published (effective) interval_min.',
          },
          stale_after: {
            ...nullableTime,
            description:
              'When the source becomes (or became) stale: last_success_at + stale_after_min; null before its first success. A client can compare it with the current time.',
          },
          odin_delta_pct: {
            type: ['number', 'null'],
            minimum: -100,
            maximum: 100,
            description:
              "Reconciliation with ODIN: (this feed's customers out − the meters ODIN reports out for the same EIA-861 utility numbers) / the larger of the two × 100. Null when the row has no eia_id, ODIN has not been read, or neither reports anyone out. ODIN counts meters, the feed customers: a consistency signal, not a correction.",
          },
          odin_flagged: {
            type: 'boolean',
            description:
              'True when the feed has disagreed with ODIN beyond its tolerance (15 % by default, registry option tolerance_pct; only counted when either side has ≥ 200 out) for 3 reconciled cycles in a row. Flagged, never dropped.',
          },
          health: {
            type: ['object', 'null'],
            description:
              'Source health over time, from the poll log: the share of polls that succeeded, the median poll time (fetch + normalise) and the minutes the source was stale (by the stale rule on its published interval), over the last 24 hours and 7 days. Recomputed at most every 15 minutes; null before the first computation.',
            properties: { last_24h: HEALTH_WINDOW, last_7d: HEALTH_WINDOW },
            required: ['last_24h', 'last_7d'],
          },
          last_error: {
            type: ['object', 'null'],
            properties: { reason: { type: 'string' }, message: { type: 'string' } },
          },
          consecutive_failures: int,
          late_since: {
            ...nullableTime,
            description:
              "When the poll still in flight started: it outlived a cycle's budget (60 s by default, OUTAGE_CYCLE_BUDGET_MS), so the cycle stored and published the sources that had answered without it. The poll goes on until the source's own deadline and lands in a later cycle; meanwhile the source keeps its last good figures (under the stale rule) and is late, not failed. Null when no poll is carried.",
          },
          coverage: { type: ['string', 'null'], enum: ['county', 'utility_total', 'outage_only', null] },
          unit: { type: ['string', 'null'], enum: ['customers', 'meters', null] },
          notice: { type: ['string', 'null'] },
          customers_out: nullableInt,
          customers_served: nullableInt,
          pct_out: pct,
          unmatched_names: int,
          unreadable_records: {
            ...int,
            description:
              'Records of the last good poll whose count could not be read (missing, empty, "unknown", negative): left out of every figure, never read as 0. A feed none of whose records can be read fails its poll instead (last_error reason schema).',
          },
          planned_out: {
            ...nullableInt,
            description:
              'Of customers_out, those out for planned (scheduled) work in progress, counted as the utility counts them; null where the feed does not tell planned from unplanned.',
          },
        }),
      },
      connector_coverage: obj({
        total_customers: int,
        method: { type: 'string' },
        county: obj({ customers: int, utilities: int, pct: pct }),
        utility_total: obj({ customers: int, utilities: int, pct: pct }),
        outage_only: obj({ customers: int, utilities: int, pct: pct }),
        no_feed: obj({ customers: int, utilities: { type: 'null' }, pct: pct }),
      }),
    }),
  ),
};
