// The live endpoints: national and state totals, the map, leaders, the timeline, sources, and each county's
// status, areas, incidents and alerts. spec: Endpoints — Live.
import type { Endpoint, QueryParam } from './types.ts';

export const TIMELINE_DEFAULT_HOURS = 24;
export const TIMELINE_MAX_HOURS = 168;

/** Paging of the function layer's county areas and incidents (contract/county-detail.ts parsePage). */
const DETAIL_PAGE_PARAMS: QueryParam[] = [
  {
    name: 'limit',
    description:
      'Page size of a function-layer answer (any query parameter makes one): default 1,000, at most 5,000. `data.total` counts every match and `data.next` links the next page (CSV and GeoJSON: a `Link: <…>; rel="next"` header).',
    schema: { type: 'integer', minimum: 1, maximum: 5000, default: 1000 },
  },
  {
    name: 'offset',
    description: 'Position of the page in the matches (default 0).',
    schema: { type: 'integer', minimum: 0, default: 0 },
  },
];

export const LIVE_ENDPOINTS: readonly Endpoint[] = [
  {
    id: 'live.summary',
    path: '/api/v1/live/summary',
    formats: ['json'],
    cache: 'live',
    schema: 'LiveSummary',
    summary: 'National and per-state live totals',
    description:
      'Customers out, customers tracked (served by the sources polled and fresh now, null where none is), pct_out (of all customers), band, magnitude and level nationally and for every state.',
  },
  {
    id: 'live.map',
    path: '/api/v1/live/map',
    formats: ['json'],
    cache: 'live',
    schema: 'LiveMap',
    summary: 'Live map entries for every county out and every state',
    description:
      'Keys of five digits are counties currently out (customers_out > 0); keys of two capital letters are states (USPS code), present for every state. Each value is [customers_out, pct_out, level, band, magnitude]. The member `generated_at` is the time this content was generated.',
  },
  {
    id: 'live.top',
    path: '/api/v1/live/top',
    formats: ['json'],
    cache: 'live',
    schema: 'LiveTop',
    summary: 'Live leaders: states, counties and providers',
    description: 'The ten states, counties and providers (utilities) with the most customers out, largest first.',
  },
  {
    id: 'live.timeline',
    path: '/api/v1/live/timeline',
    formats: ['json'],
    cache: 'live',
    schema: 'LiveTimeline',
    summary: 'State-level severity frames (24-hour map animation)',
    description: `One frame per 15 minutes, oldest first, each with every state's [customers_out, pct_out, band]. The last ${TIMELINE_DEFAULT_HOURS} hours are prebuilt; other \`hours\` values (1–${TIMELINE_MAX_HOURS}) are answered by the function layer.`,
    functionParams: [
      {
        name: 'hours',
        description: `Hours of frames to return, 1–${TIMELINE_MAX_HOURS} (default ${TIMELINE_DEFAULT_HOURS}).`,
        schema: { type: 'integer', minimum: 1, maximum: TIMELINE_MAX_HOURS, default: TIMELINE_DEFAULT_HOURS },
      },
    ],
  },
  {
    id: 'live.sources',
    path: '/api/v1/live/sources',
    formats: ['json'],
    cache: 'live',
    schema: 'LiveSources',
    summary: 'Live data sources and connector coverage',
    description:
      'Every polled source with tier, interval_min (effective, hardened when the utility has ≥ 1 % out), next_due_at, updated_at (last fetch), freshness and last error; plus connector_coverage.',
  },
  {
    id: 'live.county',
    path: '/api/v1/live/counties/{fips}',
    formats: ['json', 'csv'],
    cache: 'live',
    key: 'fips',
    schema: 'LiveCounty',
    summary: 'Live status of one county',
    description:
      'Customers out, denominators, pct_out, band, magnitude, level and each covering source. Every county has a file, also when nothing is out.',
  },
  {
    id: 'live.county.areas',
    path: '/api/v1/live/counties/{fips}/areas',
    formats: ['json', 'csv', 'geojson'],
    cache: 'live',
    key: 'fips',
    schema: 'CountyAreas',
    summary: 'Municipalities and townships of one county, as each utility reports them',
    description:
      "Every area the county's utilities report, with masked outages in their published `<N` form (`out_display`) and numeric bounds (`out_lower`, `out_upper`). Prebuilt for every county with customers out; an empty list for the rest. GeoJSON areas are the extent the utility publishes (a bounding box) or a null geometry.",
    functionParams: [
      {
        name: 'utility',
        description: "Only this utility's areas (exact name, as in /api/v1/live/sources).",
        schema: { type: 'string' },
      },
      {
        name: 'active',
        description: '`true`: only areas with customers out (masked ones included); `false`: only areas without.',
        schema: { type: 'string', enum: ['true', 'false'] },
      },
      {
        name: 'min_customers',
        description: 'Only areas with at least this many customers out (a masked count is its lower bound, 1).',
        schema: { type: 'integer', minimum: 0 },
      },
      ...DETAIL_PAGE_PARAMS,
    ],
  },
  {
    id: 'live.county.incidents',
    path: '/api/v1/live/counties/{fips}/incidents',
    formats: ['json', 'csv', 'geojson'],
    cache: 'live',
    key: 'fips',
    schema: 'CountyIncidents',
    summary: 'Individual outages in one county, with ETR, crew status and cause',
    description:
      'Each outage as the utility publishes it: customers out, estimated restoration (ETR), crew status, cause, start time and location where the source gives them. GeoJSON: RFC 7946 points (null geometry without a location) with a `metadata` block.',
    functionParams: [
      { name: 'utility', description: "Only this utility's incidents.", schema: { type: 'string' } },
      {
        name: 'min_customers',
        description: 'Only incidents with at least this many customers out.',
        schema: { type: 'integer', minimum: 0 },
      },
      ...DETAIL_PAGE_PARAMS,
    ],
  },
  {
    id: 'live.county.alerts',
    path: '/api/v1/live/counties/{fips}/alerts',
    formats: ['json'],
    cache: 'live',
    key: 'fips',
    schema: 'CountyAlerts',
    summary: 'Threshold evaluation for the county, each utility and each municipality',
    description:
      'An entry alerts when customers_out ≥ min_customers and pct_out ≥ min_pct (when pct_out is null — no trusted denominator — min_customers alone decides). Defaults: min_customers 100, min_pct 1. Each utility also says whether it is, utility-wide, on the major-event line (≥ 10 % of its customers out).',
    functionParams: [
      {
        name: 'min_customers',
        description: 'Customers-out threshold (default 100).',
        schema: { type: 'integer', minimum: 0, default: 100 },
      },
      {
        name: 'min_pct',
        description: 'Percent-out threshold, 0–100 (default 1).',
        schema: { type: 'number', minimum: 0, maximum: 100, default: 1 },
      },
      { name: 'utility', description: 'Only this utility and its municipalities.', schema: { type: 'string' } },
    ],
  },
];
