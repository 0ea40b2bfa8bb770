// Response schemas (JSON Schema 2020-12, as OpenAPI 3.1 uses): the OpenAPI document and the contract tests share them.
import { CONNECTORS } from '../sources/source-def.ts';
import { BAND_THRESHOLDS_PCT, MAGNITUDE_THRESHOLDS } from '../state/rules.ts';
import { ROW_SHAPES, columnSchema } from './report-columns.ts';
import { ERROR_CODES } from './errors.ts';
import { PLACE_TABLES } from './catalogue.ts';
import { SOURCES_VERIFICATION } from './verification-schema.ts';
import { TRANSPORTS } from '../sources/transport.ts';

const int = { type: 'integer', minimum: 0 };
const nullableInt = { type: ['integer', 'null'], minimum: 0 };
const historySource = {
  type: 'string',
  enum: ['eaglei', 'archive', 'both', 'simulated'],
  description:
    "Where the figures come from: eaglei (EAGLE-I), archive (this service's live archive) or both. EAGLE-I wins for every quarter hour of a loaded EAGLE-I year up to its last EAGLE-I time; the archive's finished days fill the rest. simulated: the deployment's history is its built-in simulator's, credited to no one.",
};
const pct = {
  type: ['number', 'null'],
  minimum: 0,
  maximum: 100,
  description:
    'Percent of customers out (0–100). Null when the denominator is smaller than the outage or missing; never clamped.',
};
const bandS = {
  type: 'integer',
  minimum: -1,
  maximum: 5,
  description: `Share ramp: 0–5 at ${BAND_THRESHOLDS_PCT.join(', ')} % out; −1 where no denominator can be trusted (pct_out is null).`,
};
const magS = {
  type: 'integer',
  minimum: 0,
  maximum: 5,
  description: `Headcount ramp: 0–5 at ${MAGNITUDE_THRESHOLDS.map((n) => n.toLocaleString('en-US')).join(', ')} customers out.`,
};
const levelS = {
  type: 'number',
  minimum: 0,
  maximum: 5,
  description:
    'Legacy score (superseded by band): 0.5 × magnitude + 0.3 × min(pct_out, 100)/20 + 0.2 × mean magnitude of adjacent counties (for a state: of its counties out), 2 decimals.',
};
const time = { type: 'string', format: 'date-time' };
const nullableTime = { type: ['string', 'null'], format: 'date-time' };
const fips = { type: 'string', pattern: '^\\d{5}$' };
const stateCode = { type: 'string', pattern: '^[A-Z]{2}$' };
const generated = { ...time, description: 'When this content was generated; unchanged content keeps its time.' };

const envMeta = (inner: Record<string, unknown>) => ({
  type: 'object',
  required: ['data', 'meta'],
  additionalProperties: false,
  properties: {
    data: inner,
    meta: {
      type: 'object',
      required: ['notice', 'filters'],
      properties: {
        notice: { type: 'string' },
        filters: { type: 'object', description: 'The filters applied, as parsed (thresholds for alerts).' },
      },
    },
  },
});
const env = (inner: Record<string, unknown>) => ({
  type: 'object',
  required: ['data'],
  additionalProperties: false,
  properties: { data: inner },
});
/** The page members of a function-layer county areas or incidents answer (the prebuilt answer lists them all). */
const PAGE_PROPS = {
  total: {
    ...int,
    description:
      'Function-layer answers: every area or incident matching the filters; `count` is this page. Absent from the prebuilt answer, which lists them all.',
  },
  offset: { ...int, description: 'Function-layer answers: the position of this page in the matches.' },
  limit: { ...int, description: 'Function-layer answers: the page size asked for (default 1,000, at most 5,000).' },
  next: {
    type: ['string', 'null'],
    description: 'Function-layer answers: the URL of the next page, or null on the last.',
  },
};
/** An incident's fields every answer has (its history fields are added where kept). */
const INCIDENT_REQUIRED = [
  ...['incident_id', 'utility', 'source_id', 'fips', 'customers_out', 'etr', 'crew_status', 'cause', 'started_at'],
  ...['lat', 'lon', 'city'],
];
const obj = (props: Record<string, unknown>, required = Object.keys(props)) => ({
  type: 'object',
  required,
  properties: props,
});
const HEALTH_WINDOW = obj({
  polls: int,
  success_rate: { type: ['number', 'null'], minimum: 0, maximum: 1 },
  median_fetch_ms: nullableInt,
  minutes_stale: int,
});

/** issue 36 part 5: coverage we have, not the customers there are (state/tracked.ts). */
const TRACKED_RULE =
  "a fresh source counts, in each county it serves, the feed's own served count where it gives one, else the registry row's customers spread over the utility's EIA-861 2018 service territory (data/reference/eia861-territory.csv) in proportion to the counties' modelled customers; a stale or unpolled source counts nothing";
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

const coverageShare = { type: 'number', description: "Percent of the scope's customers (EIA-861 2018), 2 decimals." };
const uncoveredUtility = obj({
  eia_id: int,
  utility: { type: 'string' },
  states: { type: 'array', items: stateCode },
  customers: int,
  reason: { type: 'string', enum: ['gated', 'not_yet_wired', 'disabled', 'state_not_in_feed', 'no_public_feed'] },
  source_id: { type: ['string', 'null'], description: 'The registry row that names the utility, if any.' },
  detail: { type: 'string' },
});
const coverageScope = obj({
  scope: { ...stateCode, description: '`US` (the 50 states and DC) or a postal code.' },
  name: { type: 'string' },
  territory: { type: 'boolean', description: 'A territory: listed, not counted in US.' },
  customers: int,
  customers_own_feed: {
    ...int,
    description:
      "Customers covered by a utility's own feed without any credential: a registry row active with no credential set lists the utility and the state; gated rows count as not covered.",
  },
  customers_own_feed_with_credentials: {
    ...int,
    description:
      'Customers covered by an own feed once every credential the registry names is set: also the gated rows that only want the credential in their options.credential_env (listed in `credentials`).',
  },
  customers_odin_only: int,
  customers_not_covered: int,
  pct_own_feed: { ...coverageShare, description: `${coverageShare.description} Own feed without credentials.` },
  pct_own_feed_with_credentials: {
    ...coverageShare,
    description: `${coverageShare.description} Own feed with every credential the registry names.`,
  },
  pct_odin_only: coverageShare,
  pct_covered: coverageShare,
  pct_not_covered: coverageShare,
  largest_uncovered: { type: 'array', items: uncoveredUtility },
});

export const mapEntry = {
  type: 'array',
  prefixItems: [int, pct, levelS, bandS, magS],
  minItems: 5,
  maxItems: 5,
  description: '[customers_out, pct_out, level, band, magnitude]',
};

/** [fips, share]: the share (0–1) of the population of a ZIP code or town in the county; null where unknown. */
const countyShares = {
  type: 'array',
  minItems: 1,
  items: {
    type: 'array',
    prefixItems: [fips, { type: ['number', 'null'], minimum: 0, maximum: 1 }],
    items: false,
    minItems: 2,
  },
};

export const SCHEMAS: Record<string, Record<string, unknown>> = {
  MapEntry: mapEntry,
  ErrorBody: env(
    obj({
      error: obj(
        {
          status: { type: 'integer' },
          code: { type: 'string', enum: [...ERROR_CODES] },
          message: { type: 'string' },
          param: { type: 'string' },
          allowed: { type: 'array', items: { type: 'string' } },
          see: { type: 'string' },
        },
        ['status', 'code', 'message'],
      ),
    }),
  ),
  PlaceIndex: env({
    type: 'object',
    required: ['generated_at', 'table', 'credit'],
    additionalProperties: false,
    description:
      'One table of the place index (`?table=`): exactly one of `counties`, `places`, `zips`. Match names after folding case, accents and punctuation; a county name may carry its kind ("Harris County") and a state ("Harris, TX").',
    properties: {
      generated_at: generated,
      table: { type: 'string', enum: [...PLACE_TABLES] },
      credit: { type: 'string', description: 'Where the tables come from and their licences (cite them).' },
      counties: {
        type: 'array',
        description: 'Every county with a county page, by FIPS.',
        items: {
          type: 'array',
          prefixItems: [
            fips,
            { type: 'string', description: 'name as the county page titles it (independent cities end in "city")' },
            stateCode,
            { ...int, description: 'population (this service’s ZIP-based model, data/reference); 0 when unknown' },
          ],
          items: false,
          minItems: 4,
        },
      },
      places: {
        type: 'array',
        description:
          'Towns and cities: the USPS city of every ZIP code, by state. Sorted by state, then name; a name may repeat in other states.',
        items: {
          type: 'array',
          prefixItems: [
            { type: 'string', description: 'name' },
            stateCode,
            { ...int, description: 'population of its ZIP codes' },
            { ...countyShares, description: 'its counties, the largest share first' },
          ],
          items: false,
          minItems: 4,
        },
      },
      zips: {
        type: 'object',
        description: 'ZIP code tabulation area (5 digits) → its counties, the largest share first.',
        patternProperties: { '^\\d{5}$': countyShares },
        additionalProperties: false,
      },
    },
  }),
  Coverage: env(
    obj({
      generated_at: generated,
      simulated: { type: 'boolean' },
      registry: { type: 'string' },
      method: { type: 'string' },
      credentials: obj({
        env: {
          type: 'array',
          items: { type: 'string' },
          description: 'The environment variables the registry names (options.credential_env of its gated rows).',
        },
        sources: {
          type: 'array',
          items: { type: 'string' },
          description: 'The gated rows those variables make active: counted in the `_with_credentials` figures only.',
        },
      }),
      odin_estimate: obj({ method: { type: 'string' }, utilities: int }),
      national: coverageScope,
      states: { type: 'array', items: coverageScope },
    }),
  ),
  SourcesVerification: env(SOURCES_VERIFICATION),
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
  LiveCounty: env(
    obj({
      generated_at: generated,
      fips,
      name: { type: 'string' },
      state: stateCode,
      state_name: { type: ['string', 'null'] },
      customers_out: int,
      pct_out: pct,
      band: bandS,
      magnitude: magS,
      level: levelS,
      denominator: { ...nullableInt, description: 'max(customers_served_feed, customers_modelled)' },
      customers_tracked: {
        ...nullableInt,
        description: `Customers of the county served by the sources polled and fresh now (${TRACKED_RULE}), at most the denominator. Null when no fresh source serves the county.`,
      },
      planned_out: {
        ...nullableInt,
        description:
          'Of customers_out, those out for planned (scheduled) work in progress, counted in customers_out as the utilities count them. Null unless every source with customers out here tells planned from unplanned and places its planned outages in counties (a feed that gives planned work only as a total leaves it unknown here: see /live/sources planned_out).',
      },
      customers_served_feed: nullableInt,
      customers_modelled: nullableInt,
      stale: { type: 'boolean' },
      includes_meters: { type: 'boolean' },
      notice: { type: ['string', 'null'], description: 'SIMULATED label, and a note when meters (ODIN) are included.' },
      sources: {
        type: 'array',
        items: obj({
          source_id: { type: 'string' },
          utility: { type: 'string' },
          customers_out: int,
          customers_served: nullableInt,
          planned_out: {
            ...nullableInt,
            description:
              "Of this source's customers_out here, those out for planned work; null where the source does not say per county.",
          },
          stale: { type: 'boolean' },
          unit: { type: 'string' },
        }),
      },
    }),
  ),
  CountyAreas: envMeta(
    obj(
      {
        generated_at: generated,
        fips,
        count: int,
        ...PAGE_PROPS,
        areas: {
          type: 'array',
          items: obj({
            area_id: { type: 'string' },
            name: { type: 'string' },
            path: { type: 'array', items: { type: 'string' } },
            utility: { type: 'string' },
            source_id: { type: 'string' },
            fips,
            customers_out: { ...int, description: 'Customers out; a masked count is its lower bound (1).' },
            out_display: { type: 'string', description: 'As the utility shows it: "12", or "<5" when masked.' },
            out_lower: int,
            out_upper: nullableInt,
            masked: { type: 'boolean' },
            customers_served: nullableInt,
            pct_out: pct,
            etr: nullableTime,
            active: { type: 'boolean' },
            bbox: { type: ['array', 'null'], items: { type: 'number' }, minItems: 4, maxItems: 4 },
          }),
        },
      },
      ['generated_at', 'fips', 'count', 'areas'],
    ),
  ),
  CountyIncidents: envMeta(
    obj(
      {
        generated_at: generated,
        fips,
        count: int,
        ...PAGE_PROPS,
        incidents: {
          type: 'array',
          items: obj(
            {
              incident_id: { type: 'string' },
              utility: { type: 'string' },
              source_id: { type: 'string' },
              fips,
              customers_out: int,
              etr: nullableTime,
              crew_status: { type: ['string', 'null'] },
              cause: { type: ['string', 'null'] },
              started_at: nullableTime,
              lat: { type: ['number', 'null'] },
              lon: { type: ['number', 'null'] },
              city: { type: ['string', 'null'] },
              planned: {
                type: 'boolean',
                description:
                  'Planned (scheduled) work the utility flags. Counted in customers_out while in progress, as the utility and EAGLE-I count it; false where the feed does not tell planned from unplanned.',
              },
              first_seen_at: {
                ...nullableTime,
                description: 'When this service first saw the incident listed (null before its history was kept).',
              },
              etr_changes: {
                ...int,
                description: 'How many times its ETR changed: the ETRs it was given, less the first.',
              },
              etr_history: {
                type: 'array',
                description: 'Every ETR the incident was given, with the poll that first showed it, oldest first.',
                items: obj({ etr: time, seen_at: time }),
              },
            },
            INCIDENT_REQUIRED,
          ),
        },
      },
      ['generated_at', 'fips', 'count', 'incidents'],
    ),
  ),
  AlertEntry: obj(
    {
      scope: { type: 'string', enum: ['county', 'utility', 'municipality'] },
      name: { type: 'string' },
      utility: { type: ['string', 'null'] },
      customers_out: int,
      customers: nullableInt,
      pct_out: pct,
      meets_min_customers: { type: 'boolean' },
      meets_min_pct: {
        type: ['boolean', 'null'],
        description: 'Null when pct_out is null: min_customers alone decides.',
      },
      alert: { type: 'boolean' },
      major_event_line: { type: 'boolean', description: 'Utilities: at or above 10 % of all its customers out.' },
      utility_pct_out: pct,
    },
    ['scope', 'name', 'customers_out', 'pct_out', 'meets_min_customers', 'meets_min_pct', 'alert'],
  ),
  CountyAlerts: envMeta(
    obj({
      generated_at: generated,
      fips,
      thresholds: obj({ min_customers: int, min_pct: { type: 'number' } }),
      alert: { type: 'boolean' },
      county: { $ref: '#/components/schemas/AlertEntry' },
      utilities: { type: 'array', items: { $ref: '#/components/schemas/AlertEntry' } },
      municipalities: { type: 'array', items: { $ref: '#/components/schemas/AlertEntry' } },
    }),
  ),
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
  ArchiveDataPackage: {
    type: 'object',
    required: ['profile', 'name', 'licenses', 'resources'],
    properties: {
      profile: { const: 'tabular-data-package' },
      name: { type: 'string' },
      title: { type: 'string' },
      description: { type: 'string' },
      created: { type: 'string', format: 'date-time' },
      licenses: { type: 'array', items: { type: 'object' } },
      sources: { type: 'array', items: { type: 'object' } },
      resources: {
        type: 'array',
        description: 'Every finished day, oldest first.',
        items: {
          type: 'object',
          required: ['name', 'path', 'bytes', 'hash', 'schema'],
          properties: {
            name: { type: 'string', pattern: '^archive-\\d{4}-\\d{2}-\\d{2}$' },
            profile: { const: 'tabular-data-resource' },
            path: { type: 'string', pattern: '^days/\\d{4}-\\d{2}-\\d{2}\\.csv$' },
            format: { const: 'csv' },
            mediatype: { const: 'text/csv' },
            encoding: { const: 'utf-8' },
            bytes: int,
            hash: { type: 'string', pattern: '^sha256:[0-9a-f]{64}$' },
            schema: { type: 'object' },
          },
        },
      },
    },
  },
  Archive: env(
    obj({
      generated_at: generated,
      simulated: { type: 'boolean' },
      first_quarter: { ...nullableTime, description: 'The first quarter hour archived; null before any.' },
      last_quarter: {
        ...nullableTime,
        description:
          'The latest quarter hour archived (named by its start, as every quarter: never after `generated_at`); null before any.',
      },
      columns: {
        type: 'array',
        items: obj({ name: { type: 'string' }, type: { type: 'string' }, description: { type: 'string' } }),
        description: "The day files' columns, in order (EAGLE-I's five first).",
      },
      days: {
        type: 'array',
        description: 'Every finished UTC day, oldest first.',
        items: obj({
          day: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
          rows: int,
          quarters: { ...int, maximum: 96, description: 'Quarter hours the poller reached (96 in a full day).' },
          csv: obj({ url: { type: 'string' }, bytes: int, sha256: { type: 'string' } }),
          parquet: obj({ url: { type: 'string' }, bytes: int, sha256: { type: 'string' } }),
        }),
      },
      today: {
        type: ['object', 'null'],
        description: 'The day in progress (its files are written when it ends); null before any quarter.',
        properties: { day: { type: 'string' }, rows: int, quarters: int },
      },
    }),
  ),
  ArchiveDay: {
    type: 'string',
    description: 'A Parquet (zstd) or CSV file of one UTC day; its columns are listed in /api/v1/archive.',
  },
  ArchiveIncidents: {
    type: 'string',
    description:
      "A Parquet (zstd) or CSV file of one UTC day's finished incidents; its columns are in the endpoint's description.",
  },
  ArchiveMap: env(
    obj({
      generated_at: generated,
      quarter_at: {
        ...time,
        description:
          "The quarter hour containing `at`, named by its start as EAGLE-I's run_start_time (10:07 is in the 10:00 quarter).",
      },
      simulated: { type: 'boolean' },
      coverage: obj({
        cycle_at: { ...time, description: "The quarter's latest cycle: its values are the quarter's." },
        sources_total: int,
        sources_fresh: int,
        customers_tracked: {
          ...nullableInt,
          description: `Customers served nationally by the sources fresh at the quarter (${TRACKED_RULE}). Null when none was fresh.`,
        },
      }),
      map: {
        type: 'object',
        description: 'As /api/v1/live/map: counties out under their FIPS, every state under its code.',
        additionalProperties: { $ref: '#/components/schemas/MapEntry' },
      },
    }),
  ),
  ArchiveSeries: env(
    obj({
      generated_at: generated,
      fips,
      from: time,
      to: time,
      series: {
        type: 'array',
        items: obj({
          at: time,
          customers_out: int,
          customers_tracked: {
            ...nullableInt,
            description: `The county's customers served by the sources fresh at the quarter (${TRACKED_RULE}); null when none was, or no value was archived.`,
          },
          stale: { type: 'boolean' },
        }),
      },
    }),
  ),
  ...Object.fromEntries(
    Object.entries(ROW_SHAPES).map(([name, cols]) => [
      `ReportRow_${name}`,
      {
        type: 'object',
        required: [...cols],
        additionalProperties: false,
        properties: Object.fromEntries(cols.map((c) => [c, columnSchema(c)])),
      },
    ]),
  ),
  CountyReportSummary: {
    type: 'object',
    required: [
      'year',
      'fips',
      'name',
      'state',
      'loaded',
      'coverage',
      'episodes_by_size',
      'longest_episode',
      'state_comparison',
      'national_comparison',
      'utilities',
    ],
    description:
      'County annual report: the county row of the year, episodes by size class, the longest episode, its rank and the median hours per customer in its state and nationally (rank 1 = most hours without power per customer), and the serving utilities with SAIDI/SAIFI from EIA-861.',
    properties: {
      year: { type: 'integer' },
      fips,
      name: { type: ['string', 'null'] },
      state: stateCode,
      loaded: { type: 'boolean' },
      coverage: { enum: ['observed', 'zero', 'not_covered', null] },
      episodes_by_size: { type: ['object', 'null'] },
      longest_episode: { oneOf: [{ $ref: '#/components/schemas/ReportRow_events' }, { type: 'null' }] },
      state_comparison: {
        type: ['object', 'null'],
        properties: {
          counties_ranked: int,
          rank: nullableInt,
          median_hours_per_customer: { type: ['number', 'null'] },
        },
      },
      national_comparison: {
        type: ['object', 'null'],
        properties: {
          counties_ranked: int,
          rank: nullableInt,
          median_hours_per_customer: { type: ['number', 'null'] },
          percentile: { type: ['number', 'null'] },
        },
      },
      utilities: { type: 'array', items: { $ref: '#/components/schemas/ReportRow_utilities' } },
    },
  },
  ReportTable: env({
    type: 'object',
    required: ['generated_at', 'table', 'tables', 'loaded', 'simulated'],
    description:
      'One annual report table. `loaded` is false (and values null) for years whose EAGLE-I data is not loaded; null on the multi-year documents. National, year and state documents carry `sources` (loaded years per data set), `source_credit`, `citation` and `notice`; `rows` holds the table (or `summary`, the county summary).',
    properties: {
      generated_at: generated,
      year: { type: 'integer' },
      state: stateCode,
      fips,
      name: { type: ['string', 'null'] },
      table: { type: 'string' },
      tables: { type: 'array', items: { type: 'string' } },
      loaded: { type: ['boolean', 'null'] },
      simulated: { type: 'boolean' },
      notice: { type: 'string' },
      source_credit: {
        type: 'string',
        description:
          "Who to credit: EAGLE-I (ORNL, CC BY 4.0), DOE OE-417 and EIA-861; for simulated history (`simulated` true) a SIMULATED credit that names no one, as the figures are the built-in simulator's.",
      },
      citation: { type: 'string' },
      note: { type: 'string' },
      sources: obj({
        eaglei_years: { type: 'array', items: { type: 'integer' } },
        oe417_years: { type: 'array', items: { type: 'integer' } },
        eia861_years: { type: 'array', items: { type: 'integer' } },
      }),
      rules: { type: 'object' },
      rows: {
        type: 'array',
        items: { anyOf: Object.keys(ROW_SHAPES).map((n) => ({ $ref: `#/components/schemas/ReportRow_${n}` })) },
      },
      summary: { $ref: '#/components/schemas/CountyReportSummary' },
    },
  }),
  Event: obj({
    id: { type: 'integer', minimum: 1, description: 'Grows with every event; never reused or reordered.' },
    at: time,
    kind: {
      type: 'string',
      enum: [
        'outage_began',
        'outage_grew',
        'etr_changed',
        'outage_improving',
        'outage_restored',
        'major_event',
        'feed_stale',
        'feed_recovered',
        'crew_changed',
      ],
    },
    scope: {
      type: 'string',
      enum: ['county', 'municipality', 'utility', 'incident'],
      description:
        'What the event concerns. `incident` (one outage as its utility lists it) only when asked for with the `scope` parameter; an answer without it holds county, municipality and utility events, as before incident events.',
    },
    fips: { type: ['string', 'null'], pattern: '^\\d{5}$' },
    state: {
      type: ['string', 'null'],
      description:
        "USPS code: the county's state for county and municipality events; for utility events the state with the most customers out (see `states`).",
    },
    states: {
      type: 'array',
      items: { type: 'string' },
      description:
        "Every state the event concerns: the county's state, or for a utility event each state in which it has customers out (feed events: the states its feed covers). The `state` filter and state-scoped alert rules match any of them.",
    },
    utility: { type: ['string', 'null'] },
    area: { type: ['string', 'null'] },
    source_id: { type: ['string', 'null'] },
    outage_id: { type: ['string', 'null'] },
    customers_out: nullableInt,
    pct_out: pct,
    threshold: { ...nullableInt, description: 'The opening threshold (customers out) of the outage.' },
    previous_customers_out: {
      ...nullableInt,
      description:
        'grew: the count at the previous began/grew event; improving: the peak it fell from; restored: the peak.',
    },
    etr: nullableTime,
    previous_etr: nullableTime,
    etr_slip_min: {
      ...nullableInt,
      minimum: -1_000_000,
      description:
        'etr_changed: minutes the estimated restoration time moved (positive: later) from previous_etr to etr; null when either is unknown, and for other kinds.',
    },
    incident_id: {
      type: ['string', 'null'],
      description: "Incident events: the outage's id in its utility's feed (unique within the source); null otherwise.",
    },
    cause: { type: ['string', 'null'], description: 'Incident events: the cause as the feed gives it, when it does.' },
    crew_status: {
      type: ['string', 'null'],
      description: 'Incident events: the crew status as the feed gives it (e.g. "Crew assigned"), when it does.',
    },
    previous_crew_status: {
      type: ['string', 'null'],
      description: 'crew_changed: the crew status before (null when the feed gave none).',
    },
    county_name: {
      type: ['string', 'null'],
      description:
        "The county's name for county and municipality events (as `name` in /api/v1/live/counties/{fips}); null for utility events.",
    },
    title: { type: 'string' },
    link: {
      type: 'string',
      description:
        "Path of the site page about what the event concerns: the county's page (/counties/{fips}); for a utility's outage its state's page; for a feed going stale or recovering the sources page (/sources).",
    },
  }),
  EventsPage: env(
    obj({
      generated_at: generated,
      order: {
        enum: ['newest_first', 'oldest_first'],
        description:
          'newest_first: the latest page (no `after`) and the pages its next_cursor leads to, towards older events; oldest_first: pages read from first_cursor or latest_cursor, towards newer events.',
      },
      events: { type: 'array', items: { $ref: '#/components/schemas/Event' }, description: "In the page's `order`." },
      next_cursor: {
        type: 'string',
        description:
          'Pass as `after` for the next page in the same order: older events after a newest_first page, newer ones after an oldest_first page.',
      },
      has_more: {
        type: 'boolean',
        description:
          "More matching events follow in the page's order: older retained events (newest_first), or newer events already published (oldest_first; false: you are caught up, poll next_cursor later).",
      },
      first_cursor: {
        type: 'string',
        description: 'Pass as `after` to read from the oldest retained event, oldest first.',
      },
      latest_cursor: {
        type: 'string',
        description:
          'Pass as `after` to read, oldest first, only the events published after this page: what a client polls to keep up.',
      },
      limit: { type: 'integer' },
      filters: { type: 'object', description: 'The filters applied, as parsed.' },
    }),
  ),
  JsonFeed: {
    type: 'object',
    required: ['version', 'title', 'items'],
    properties: {
      version: { const: 'https://jsonfeed.org/version/1.1' },
      title: { type: 'string' },
      items: { type: 'array' },
    },
    description: 'JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/).',
  },
  Health: env(
    obj({
      status: { enum: ['ok', 'degraded', 'unavailable'] },
      ready: { type: 'boolean', description: 'false exactly when the answer is 503' },
      checked_at: { type: 'string', format: 'date-time' },
      problems: { type: 'array', items: { type: 'string' }, description: 'What makes it degraded or unavailable.' },
      last_cycle_at: { type: ['string', 'null'], format: 'date-time', description: "The last cycle's time." },
      last_cycle_age_s: {
        type: ['integer', 'null'],
        description: 'Seconds since the poll loop last finished a cycle.',
      },
      last_cycle_ms: { type: ['integer', 'null'] },
      sources: { type: ['integer', 'null'], description: 'Sources in the registry being polled.' },
      stale_sources: { type: 'array', items: { type: 'string' }, description: 'Ids of the stale sources.' },
      failed_last_cycle: { type: ['integer', 'null'] },
      generation: { type: ['string', 'null'], description: 'The live generation being served.' },
      published_at: { type: ['string', 'null'], format: 'date-time' },
      publish_lag_s: {
        type: ['integer', 'null'],
        description: 'Seconds the served generation is behind the one the poll loop last published (0 in step).',
      },
    }),
  ),
  Gone: env(
    obj({
      error: obj(
        { status: { const: 410 }, code: { const: 'gone' }, message: { type: 'string' }, see: { type: 'string' } },
        ['status', 'code', 'message'],
      ),
    }),
  ),
};
