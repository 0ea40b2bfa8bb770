// The schemas of one county's live documents: its status, areas, incidents and alert evaluation.
import {
  TRACKED_RULE,
  bandS,
  env,
  envMeta,
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

export const LIVE_COUNTY_SCHEMAS: Record<string, Record<string, unknown>> = {
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
};
