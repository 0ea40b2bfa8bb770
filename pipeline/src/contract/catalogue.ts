// The catalogue: every public URL, declared once. The file writer, the local server, the host config, the
// OpenAPI document and the docs all derive from this list. spec: Endpoints.
import { EVENTS_TOP } from './report-columns.ts';
import type { Deprecation } from './v1-headers.ts';
import { FIRST_YEAR, YEARS_AHEAD } from './dates.ts';
import { INCIDENT_EMISSION } from './events.ts';

/** The years a date in a query may name (contract/dates.ts), as the parameters' descriptions say it. */
const DATE_WINDOW = `from ${FIRST_YEAR} to the current year + ${YEARS_AHEAD}`;

export type Format = 'json' | 'csv' | 'geojson' | 'txt' | 'rss' | 'atom' | 'feedjson' | 'png' | 'parquet';
export type CacheClass = 'live' | 'history' | 'static' | 'immutable';

export interface QueryParam {
  name: string;
  description: string;
  schema: Record<string, unknown>;
}

export interface Endpoint {
  id: string;
  /** path template, OpenAPI style: /api/v1/live/counties/{fips} */
  path: string;
  /** prebuilt formats (answered formats when `servedBy` is `function`); the first is served when `format` is absent */
  formats: Format[];
  cache: CacheClass;
  /** the path parameter the writer enumerates, if any */
  key?: 'fips';
  summary: string;
  description: string;
  /** name of the response schema in components.schemas */
  schema: string;
  /** query parameters answered by the function layer (not prebuilt) */
  functionParams?: QueryParam[];
  /** values of the `table` query parameter: a prebuilt file each; the first is served when `table` is absent */
  tables?: readonly string[];
  /**
   * `function`: nothing is prebuilt, the function layer answers every request (from internal `_` files), and the
   * host configs route the path there; the public URL, formats, tables and cache class are unchanged
   */
  servedBy?: 'function';
  /** still answered, with Deprecation/Sunset headers and `deprecated: true` in OpenAPI, until the sunset */
  deprecated?: Deprecation;
}

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

const EVENT_FILTER_PARAMS = (defaultLimit: number, maxLimit: number): QueryParam[] => [
  {
    name: 'scope',
    description: `Only events of these scopes (comma-separated): county, municipality, utility, incident. Default county,municipality,utility: incident events (one outage as its utility lists it) come only when asked for. ${INCIDENT_EMISSION}`,
    schema: { type: 'string' },
  },
  {
    name: 'after',
    description:
      "Opaque cursor from a page: its next_cursor continues in the page's order (older events after a newest-first page, newer ones after an oldest-first page); first_cursor reads from the oldest retained event and latest_cursor from the newest, both oldest first.",
    schema: { type: 'string' },
  },
  {
    name: 'fips',
    description: 'Only events of this county (5-digit FIPS), including its municipalities.',
    schema: { type: 'string', pattern: '^\\d{5}$' },
  },
  {
    name: 'state',
    description: 'Only events in this state (USPS code, e.g. FL).',
    schema: { type: 'string', pattern: '^[A-Za-z]{2}$' },
  },
  {
    name: 'utility',
    description: 'Only events of this utility (exact name, as listed in /api/v1/live/sources).',
    schema: { type: 'string' },
  },
  { name: 'kind', description: 'Only these kinds (comma-separated).', schema: { type: 'string' } },
  {
    name: 'min_customers',
    description: 'Only events with at least this many customers out.',
    schema: { type: 'integer', minimum: 0 },
  },
  {
    name: 'since',
    description: 'Only events at or after this ISO-8601 date or instant (with its zone; a real calendar date).',
    schema: { type: 'string', format: 'date-time' },
  },
  {
    name: 'limit',
    description: `Events per page, 1–${maxLimit} (default ${defaultLimit}).`,
    schema: { type: 'integer', minimum: 1, maximum: maxLimit, default: defaultLimit },
  },
];

/** The tables of /api/v1/places (geo/places.ts): the browser loads `counties` with `places` or `zips`. */
export const PLACE_TABLES = ['counties', 'places', 'zips'] as const;

export const REPORT_TABLES = {
  national: ['national', 'states', 'etr'],
  year: ['counties', 'events', 'states', 'months', 'causes', 'disturbances'],
  state: ['counties', 'events', 'months', 'causes'],
  county: ['summary', 'years', 'months', 'events', 'causes', 'utilities'],
} as const;

const REPORT_PATH_NOTE =
  'Path formats: `{year}` four digits (2014 to the current year); `{state}` the lower-case USPS code (`fl`; upper case is redirected); `{county}` the 5-digit FIPS code, which must lie in `{state}`.';
const CHART_NOTE =
  'Branded with the service name, the data source, the generation time and the citation line; 1200 × 630 pixels, readable when shown at 600 × 315.';

const REPORT_ENDPOINTS: Endpoint[] = [
  {
    id: 'reports.data',
    path: '/api/v1/reports/data',
    formats: ['json', 'csv'],
    cache: 'history',
    schema: 'ReportTable',
    tables: REPORT_TABLES.national,
    summary: 'Annual report tables: national and per-state, every year',
    description:
      "One row per year (`national`) or per year and state (`states`) from 2014 to the current year; years whose EAGLE-I data is not loaded appear with `loaded: false` and null values. `etr`: the ETR record, per source and month of the live incident history (how far to trust a utility's restoration estimates), each row with its coverage (the incidents that had an ETR at all). Columns and rules: see the ReportTable schema.",
  },
  {
    id: 'reports.causes',
    path: '/api/v1/reports/causes',
    formats: ['json', 'csv'],
    cache: 'history',
    schema: 'ReportTable',
    summary: 'Causes data set: OE-417 disturbances by year and cause category',
    description:
      'Every loaded OE-417 year × cause category: events, customers affected, demand loss and median duration. Cause categories are assigned from Event Type (then Alert Criteria) by the documented rules.',
  },
  {
    id: 'reports.trend',
    path: '/api/v1/reports/trend',
    formats: ['json', 'csv'],
    cache: 'history',
    schema: 'ReportTable',
    summary: 'Trend data set: yearly customer-hours, episodes and disturbances, nationally and per state',
    description:
      'One row per scope (`US` or a state code) and year with customer-hours, hours per customer, episodes, the simultaneous peak, OE-417 disturbances and the year-over-year change.',
  },
  {
    id: 'reports.year',
    path: '/api/v1/reports/{year}/data',
    formats: ['json', 'csv'],
    cache: 'history',
    schema: 'ReportTable',
    tables: REPORT_TABLES.year,
    summary: 'Annual report of one year, national',
    description: `Tables: counties (every county with its coverage status and national rank), events (the year's ${EVENTS_TOP.toLocaleString('en-US')} largest episodes by customer-hours), states, months, causes (OE-417), disturbances (the OE-417 events). ${REPORT_PATH_NOTE}`,
  },
  {
    id: 'reports.state',
    path: '/api/v1/reports/{year}/{state}/data',
    formats: ['json', 'csv'],
    cache: 'history',
    schema: 'ReportTable',
    tables: REPORT_TABLES.state,
    summary: 'Annual report of one state',
    description: `Tables: counties (with rank in the state), events (the state's largest episodes), months, causes (OE-417 events naming the state). ${REPORT_PATH_NOTE}`,
  },
  {
    id: 'reports.county',
    path: '/api/v1/reports/{year}/{state}/{county}/data',
    formats: ['json'],
    cache: 'history',
    schema: 'ReportTable',
    tables: REPORT_TABLES.county,
    servedBy: 'function',
    summary: 'County annual report',
    description: `Tables: summary (episodes by size, longest episode, state and national comparisons, serving utilities with SAIDI/SAIFI from EIA-861), years, months, events (every episode of the year), causes (OE-417 events of the state; events_naming_county counts those whose area names the county), utilities. Answered by the function layer (nothing is prebuilt), with the same Cache-Control, ETag and If-None-Match (304) as a file: for a county with EAGLE-I rows that year from the tables published with the history, for any other county of the state from its row of the state's table. ${REPORT_PATH_NOTE}`,
  },
  {
    id: 'reports.year.chart',
    path: '/api/v1/reports/{year}/chart',
    formats: ['png'],
    cache: 'history',
    schema: 'Png',
    summary: 'National decade trend chart (PNG, 1200 × 630)',
    description: `Customer-hours without power by year for the ten years ending in {year}. ${CHART_NOTE} Embed: <img src="/api/v1/reports/2024/chart" width="600" height="315" alt="…">.`,
  },
  {
    id: 'reports.state.chart',
    path: '/api/v1/reports/{year}/{state}/chart',
    formats: ['png'],
    cache: 'history',
    schema: 'Png',
    summary: 'State decade trend chart (PNG, 1200 × 630)',
    description: `The state's customer-hours without power by year for the ten years ending in {year}. ${CHART_NOTE} Embed: <img src="/api/v1/reports/2024/tx/chart" width="600" height="315" alt="…">.`,
  },
];

export const CATALOGUE: readonly Endpoint[] = [
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
  {
    id: 'county',
    path: '/api/v1/counties/{fips}',
    formats: ['json', 'csv'],
    cache: 'live',
    key: 'fips',
    schema: 'CountyProfile',
    summary: 'County profile: metadata, live status and yearly history',
    description:
      'Name, state, the customer count the percentages use and where it comes from (EAGLE-I MCC when imported, else the shipped model), adjacent counties, the live status, and one row per year of imported EAGLE-I history (episodes by size, customer-hours, largest and longest). CSV: the yearly rows.',
  },
  {
    id: 'county.history',
    path: '/api/v1/counties/{fips}/history',
    formats: ['json', 'csv'],
    cache: 'history',
    key: 'fips',
    schema: 'CountyHistory',
    summary: 'County history: monthly series and the worst recorded episodes',
    description:
      'Outage episodes derived from the EAGLE-I 15-minute series (rule in `episode_rule`), rolled up by month, and the ten worst by customer-hours. CSV: the monthly rows.',
  },
  ...(
    [
      ['decade', 'history', 'Customer-hours without power by year (the last ten years of imported EAGLE-I history).'],
      ['monthly', 'history', 'Customer-hours without power by month (the last 24 months of imported history).'],
      ['live', 'live', 'Customers out over the last 24 hours (hourly maximum of the 15-minute readings).'],
    ] as const
  ).map(([kind, cache, what]) => ({
    id: `county.chart.${kind}`,
    path: `/api/v1/counties/{fips}/chart/${kind}`,
    formats: ['png'] as Format[],
    cache,
    key: 'fips' as const,
    schema: 'Png',
    summary: `County ${kind} chart (PNG, 1200 × 630)`,
    description: `${what} Branded with the service name, the data source, the generation time and the citation line; 1200 × 630 pixels, readable when shown at 600 × 315. Hotlink or download: <img src="/api/v1/counties/12086/chart/${kind}" width="600" height="315" alt="…">. A county without data gets a chart that says so.`,
  })),
  ...REPORT_ENDPOINTS,
  {
    id: 'events',
    path: '/api/v1/events',
    formats: ['json'],
    cache: 'live',
    schema: 'EventsPage',
    summary: 'The outage event stream, paged by cursor',
    description:
      'Without `after`: the newest `limit` matching events, newest first (`order`: `newest_first`); `has_more` says whether older matching events are retained, and `next_cursor` (as `after`) gives the next older page. From `first_cursor` (the oldest retained event) or `latest_cursor` (events published after this page) pages read oldest first (`order`: `oldest_first`): `next_cursor` gives the newer events, and when `has_more` is false you are caught up (poll `next_cursor` again later). Following cursors from first_cursor yields every event exactly once, in id order, even while new events arrive; an older page never changes either. The unfiltered latest page is prebuilt; filtered pages come from the function layer.',
    functionParams: EVENT_FILTER_PARAMS(100, 500),
  },
  ...(['', 'api.'] as const).flatMap((p) => {
    const base = p ? '/api/v1/feeds/events' : '/feeds/events';
    const alias = p ? ' (alias of /feeds/events.*, under the API prefix)' : '';
    return [
      {
        id: `${p}feeds.rss`,
        path: `${base}.rss`,
        formats: ['rss'] as Format[],
        cache: 'live' as const,
        schema: 'Text',
        summary: `RSS 2.0 feed of events${alias}`,
        description:
          "The newest 50 events (same filters as /api/v1/events, limit up to 200), newest first. Each item links to a page of the site: its county's page, for a utility's outage its state's page, for a feed going stale or recovering the sources page.",
        functionParams: EVENT_FILTER_PARAMS(50, 200),
      },
      {
        id: `${p}feeds.atom`,
        path: `${base}.atom`,
        formats: ['atom'] as Format[],
        cache: 'live' as const,
        schema: 'Text',
        summary: `Atom 1.0 feed of events${alias}`,
        description: 'As the RSS feed, in Atom 1.0.',
        functionParams: EVENT_FILTER_PARAMS(50, 200),
      },
      {
        id: `${p}feeds.json`,
        path: `${base}.json`,
        formats: ['feedjson'] as Format[],
        cache: 'live' as const,
        schema: 'JsonFeed',
        summary: `JSON Feed 1.1 of events${alias}`,
        description: 'As the RSS feed, in JSON Feed 1.1; each item also carries the full event as `_outage`.',
        functionParams: EVENT_FILTER_PARAMS(50, 200),
      },
    ];
  }),
  {
    id: 'coverage',
    path: '/api/v1/coverage',
    formats: ['json', 'csv'],
    cache: 'static',
    schema: 'Coverage',
    summary: "Coverage: how much of the US the registry's feeds cover, nationally and per state",
    description:
      "EIA-861 2018 customers of the nation (the 50 states and DC) and of each state and territory, split into customers covered by a utility's own feed (without credentials: gated rows count as not covered), covered only by the ODIN baseline (an estimate from a recorded ODIN capture, see `odin_estimate`; ODIN counts meters) and not covered, with percentages (2 decimals); the own-feed figure again with every credential the registry names (`customers_own_feed_with_credentials`: also the gated rows that only want the credential their options.credential_env names, listed in `credentials`); and the largest utilities not covered, with the reason: `gated` (needs credentials), `not_yet_wired` (no connector yet), `disabled`, `state_not_in_feed` (its feed covers other states) or `no_public_feed`. CSV: one row per scope with its largest uncovered utility; the full lists are in the JSON.",
  },
  {
    id: 'sources.verification',
    path: '/api/v1/sources/verification',
    formats: ['json'],
    cache: 'static',
    schema: 'SourcesVerification',
    summary: 'The last verification of every active source (`outage sources verify`)',
    description:
      "Every active registry row probed once, politely (polling's per-host limits and deadlines, a total deadline): per row whether it answered (HTTP status) and parsed, customers out and served, counties, counties outside the utility's EIA-861 service territory, customers served against EIA-861's, the time taken, and on failure its kind, message and what to do. `report` is null until a verification has run; the deployment's operator runs it weekly.",
  },
  {
    id: 'places',
    path: '/api/v1/places',
    formats: ['json'],
    cache: 'static',
    schema: 'PlaceIndex',
    tables: PLACE_TABLES,
    summary: 'Search by place: every county, town and ZIP code with the counties it lies in',
    description:
      "The index the site's search box reads, one table each: `counties` (default: FIPS, name, state, population), `places` (towns and cities, as the USPS names the city of each ZIP code, with the share of their population in each county) and `zips` (every ZIP code tabulation area with its counties and the share of its population in each; null where the source gives none). Only counties with a county page (the 50 states and DC). Sources and licences are in `credit` and data/reference/README.md; the tables behind it are `data/reference/places.csv` and `data/reference/zcta-county.csv`.",
  },
  {
    id: 'openapi',
    path: '/api/v1/openapi.json',
    formats: ['json'],
    cache: 'static',
    schema: 'OpenApiDocument',
    summary: 'This OpenAPI 3.1 document',
    description: 'Generated from the catalogue the service itself is built from.',
  },
  {
    id: 'archive',
    path: '/api/v1/archive',
    formats: ['json'],
    cache: 'live',
    schema: 'Archive',
    summary: 'The archive: every observation at 15-minute resolution, one file per finished UTC day',
    description:
      "Every cycle's observations are kept at a fixed 15-minute resolution, never pruned: each quarter hour is named by its start, as EAGLE-I's `run_start_time` names a collection, and holds the latest cycle made within it (a cycle at 10:07 is the 10:00 quarter), so no quarter is later than the document's `generated_at`. Each finished UTC day is published once, as Parquet (zstd) and CSV in EAGLE-I's layout (`fips, county, state, customers_out, run_start_time`) plus `customers_tracked`, `customers_served_feed`, `sources`, `stale` and `simulated`. This document lists the days with their rows, quarters reached, bytes and sha256, and the day in progress.",
  },
  {
    id: 'archive.day',
    path: '/api/v1/archive/days/{date}',
    formats: ['parquet', 'csv'],
    cache: 'immutable',
    schema: 'ArchiveDay',
    summary: 'One archived UTC day (Parquet or CSV)',
    description:
      "The day's county rows in EAGLE-I's layout: `fips`, `county`, `state` (name), `customers_out`, `run_start_time` (the quarter hour's start, UTC: `YYYY-MM-DD HH:MM:SS` text in the CSV as EAGLE-I writes it, a UTC TIMESTAMP column in Parquet), then `customers_tracked` (the county's customers served by the sources fresh at the quarter: a feed's own served count, else its registry customers spread over its EIA-861 territory; empty where no fresh source served the county), `customers_served_feed` (as the feeds publish it), `sources` (how many reported the county), `stale` (one of them was stale: its last value is carried, not refreshed) and `simulated`. A county absent at a quarter had no one out; a quarter absent from the day was not reached by the poller (see /api/v1/archive). Written once when the day ends; never rewritten, except once when a state database from before quarter hours were named by their start is re-stamped on open.",
  },
  {
    id: 'archive.incidents',
    path: '/api/v1/archive/incidents/{date}',
    formats: ['parquet', 'csv'],
    cache: 'immutable',
    schema: 'ArchiveIncidents',
    summary: "One archived UTC day's finished incidents (Parquet or CSV)",
    description:
      "One row per incident that had left its feed when the day was archived and was last seen on or before it (nearly always on the day itself; one a stale feed still listed goes into the first day written after it left): `source_id`, `incident_id` (the feed's), `first_seen_at` and `last_seen_at` (UTC, the polls that first and last listed it), `peak` (its largest customers out), `etr_count` and `etrs` (every ETR given, oldest first, with the poll that first showed it: JSON text in the CSV, a list in Parquet). These rows leave the live database once published: this file is the incident's record, and /api/v1/reports/data?table=etr reads it. Written once when the day ends; never rewritten.",
  },
  {
    id: 'archive.datapackage',
    path: '/api/v1/archive/datapackage.json',
    formats: ['json'],
    cache: 'live',
    schema: 'ArchiveDataPackage',
    summary: 'The archive as a Frictionless Data Package',
    description:
      "A Frictionless tabular Data Package (not in the `data` envelope) listing every finished day's CSV as a resource: its path relative to this document (`days/{date}.csv`), bytes, `sha256:` hash and Table Schema (the archive's columns, `run_start_time` as a datetime in `%Y-%m-%d %H:%M:%S`, UTC), so `frictionless validate` or any Data Package reader loads the archive as published. Licence CC BY 4.0: cite as the data notice says.",
  },
  {
    id: 'archive.map',
    path: '/api/v1/archive/map',
    formats: ['json'],
    cache: 'history',
    schema: 'ArchiveMap',
    servedBy: 'function',
    summary: 'The map at a past quarter hour, from the archive',
    description:
      'The /api/v1/live/map shape (`[customers_out, pct_out, level, band, magnitude]` per county out and per state) as it was in the quarter hour containing `at` (named by its start: `at=10:20` answers the 10:15 quarter, the latest cycle made in it), with the coverage then (sources polled and fresh, customers tracked). A quarter the poller did not reach is a 404 naming the nearest archived ones.',
    functionParams: [
      {
        name: 'at',
        description: `An ISO-8601 time with its zone (e.g. \`2026-09-01T10:15:00Z\`), a real calendar date ${DATE_WINDOW}; the quarter hour containing it is answered.`,
        schema: { type: 'string', format: 'date-time' },
      },
    ],
  },
  {
    id: 'archive.county',
    path: '/api/v1/archive/counties/{fips}',
    formats: ['json', 'csv'],
    cache: 'history',
    key: 'fips',
    schema: 'ArchiveSeries',
    servedBy: 'function',
    summary: "One county's 15-minute series over a range, from the archive",
    description:
      'Customers out at every archived quarter hour from `from` (inclusive) to `to` (exclusive), at most 366 days (a year): 0 at a quarter the poller reached with no one out in the county, no entry at a quarter it did not reach (a gap, not a zero); `stale` marks a value carried from a stale source.',
    functionParams: [
      {
        name: 'from',
        description: `Start, ISO-8601 with its zone, ${DATE_WINDOW} (default: 24 hours before \`to\`).`,
        schema: { type: 'string', format: 'date-time' },
      },
      {
        name: 'to',
        description: `End, ISO-8601 with its zone, exclusive, ${DATE_WINDOW} (default: now).`,
        schema: { type: 'string', format: 'date-time' },
      },
    ],
  },
  {
    id: 'llms',
    path: '/llms.txt',
    formats: ['txt'],
    cache: 'static',
    schema: 'Text',
    summary: 'Machine-readable overview for language models',
    description: 'Plain-text overview of the service and its endpoints.',
  },
];

export const FORMAT_EXT: Record<Format, string> = {
  json: 'json',
  csv: 'csv',
  geojson: 'geojson',
  txt: 'txt',
  rss: 'rss',
  atom: 'atom',
  feedjson: 'json',
  png: 'png',
  parquet: 'parquet',
};
export const CONTENT_TYPE: Record<Format, string> = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  geojson: 'application/geo+json; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  rss: 'application/rss+xml; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
  feedjson: 'application/feed+json; charset=utf-8',
  png: 'image/png',
  parquet: 'application/vnd.apache.parquet',
};

export const CACHE_CONTROL: Record<CacheClass, string> = {
  live: 'public, max-age=60, stale-while-revalidate=60',
  history: 'public, max-age=86400, stale-while-revalidate=604800',
  static: 'public, max-age=3600',
  /** a finished archive day: written once, never rewritten */
  immutable: 'public, max-age=31536000, immutable',
};

export function endpoint(id: string): Endpoint {
  const e = CATALOGUE.find((x) => x.id === id);
  if (!e) throw new Error(`No catalogue entry \`${id}\``);
  return e;
}

/** Routes only the function layer answers (nothing prebuilt): the 410, accounts, keys and alert rules. */
export interface FunctionEndpoint {
  id: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** OpenAPI-style template: /api/v1/rules/{id} */
  path: string;
  summary: string;
  description: string;
  /** the success status */
  status: number;
  /** response schema (components.schemas), null for an empty body */
  schema: string | null;
  /** request body schema (components.schemas) */
  body?: string;
  /** needs `Authorization: Bearer <API key>` */
  auth?: boolean;
  query?: QueryParam[];
  /** as on Endpoint: Deprecation/Sunset headers and `deprecated: true` until the sunset */
  deprecated?: Deprecation;
  /** not an account endpoint: `retired` (the 410) or `ops` (/healthz) — no account rate limit, no input errors */
  kind?: 'retired' | 'ops';
}

const RULE_NOTE = "Another account's rule answers 404, as an unknown one does.";

export const FUNCTION_ENDPOINTS: readonly FunctionEndpoint[] = [
  {
    id: 'healthz',
    method: 'GET',
    path: '/healthz',
    status: 200,
    schema: 'Health',
    kind: 'ops',
    summary: 'Liveness and readiness of the deployment (for load balancers, systemd watchdogs and status pages)',
    description:
      "200 while the service is ready: `status` is `ok`, or `degraded` when sources are stale or failed in the last cycle (named in `problems`). 503 with `status: unavailable` when nothing is published, the poll loop has not finished a cycle within OUTAGE_HEALTH_MAX_CYCLE_AGE_S (default 900 s), or the served generation lags the poll loop's by more than OUTAGE_HEALTH_MAX_PUBLISH_LAG_S (default 300 s). Read from the poll loop's heartbeat in the state directory; a function layer without one reports the served generation only. Never cached.",
  },
  {
    id: 'alerts.subscribe',
    method: 'POST',
    path: '/api/v1/alerts/subscribe',
    status: 410,
    schema: 'Gone',
    kind: 'retired',
    summary: 'Retired: email alert subscription',
    description:
      'Always answers 410 Gone. Email alerts are now account alert rules: create an account (POST /api/v1/accounts), then a rule (POST /api/v1/rules) with an email, chat or webhook channel.',
  },
  {
    id: 'accounts.create',
    method: 'POST',
    path: '/api/v1/accounts',
    status: 202,
    schema: 'VerificationSent',
    body: 'AccountRequest',
    summary: 'Create an account (or sign in again): sends a verification code and link by email',
    description:
      'Body `{"email": "…"}`. Creates the account when the address is new and emails an eight-digit code and a one-time link, valid 30 minutes; asking again never cancels a code already sent. Verifying returns an API key. For an existing account this is how you get a new key. One email a minute per address and 4 per 30 minutes (429 `rate_limited`); past 4 codes a day the email carries only the link (`code_sent: false`). Limits on guessing: see Signing in.',
  },
  {
    id: 'accounts.verify',
    method: 'POST',
    path: '/api/v1/accounts/verify',
    status: 200,
    schema: 'Verified',
    body: 'VerifyRequest',
    summary: 'Verify the email address with the code; returns an API key (shown once)',
    description:
      'Body `{"email": "…", "code": "12345678"}` or `{"token": "…"}` (the link\'s token). The key is shown only in this response: store it; the service keeps only its hash. The code is checked against every open code of the address; past a sign-in limit (see Signing in) 429 `rate_limited`, and the link still works.',
  },
  {
    id: 'accounts.verify.link',
    method: 'GET',
    path: '/api/v1/accounts/verify',
    status: 200,
    schema: 'Verified',
    summary: 'Verify by the emailed link; returns an API key (shown once)',
    description: 'The link in the verification email: `?token=…`.',
    query: [{ name: 'token', description: 'The one-time token from the email link.', schema: { type: 'string' } }],
  },
  {
    id: 'email.confirm',
    method: 'GET',
    path: '/api/v1/email-channels/confirm',
    status: 200,
    schema: 'EmailConfirmed',
    summary: "Confirm an email channel to an address other than the account's own",
    description:
      'The link emailed to the address (`?token=…`, valid 7 days): until it is opened, email channels of that account to that address are `pending` and deliver nothing. Opened once, they become `active`.',
    query: [{ name: 'token', description: 'The token from the confirmation email.', schema: { type: 'string' } }],
  },
  {
    id: 'account.get',
    method: 'GET',
    path: '/api/v1/account',
    status: 200,
    schema: 'AccountDoc',
    auth: true,
    summary: 'The account, its keys (without secrets) and its notices',
    description: 'Notices tell, for example, that a delivery channel was disabled after sustained failure.',
  },
  {
    id: 'keys.list',
    method: 'GET',
    path: '/api/v1/keys',
    status: 200,
    schema: 'KeyList',
    auth: true,
    summary: 'API keys of the account',
    description: 'Prefix, name, created, last used and revoked times; never the key itself.',
  },
  {
    id: 'keys.create',
    method: 'POST',
    path: '/api/v1/keys',
    status: 201,
    schema: 'NewKey',
    body: 'KeyRequest',
    auth: true,
    summary: 'Create another API key (shown once)',
    description: 'Body `{"name": "…"}` (optional).',
  },
  {
    id: 'keys.revoke',
    method: 'DELETE',
    path: '/api/v1/keys/{id}',
    status: 204,
    schema: null,
    auth: true,
    summary: 'Revoke an API key',
    description: 'Requests with a revoked key answer 401 from then on.',
  },
  {
    id: 'rules.list',
    method: 'GET',
    path: '/api/v1/rules',
    status: 200,
    schema: 'RuleList',
    auth: true,
    summary: 'Alert rules of the account',
    description: 'Each rule with its definition and the status of each channel.',
  },
  {
    id: 'rules.create',
    method: 'POST',
    path: '/api/v1/rules',
    status: 201,
    schema: 'RuleDoc',
    body: 'RuleInput',
    auth: true,
    summary: 'Create an alert rule',
    description:
      "A scope (county, state, utility or municipality), event kinds, thresholds, optional quiet hours, `watch` (harden the polling of the county's sources), an optional sync push interval and one to ten channels (webhook, slack, discord, teams, email). Webhook and chat URLs must be https and may not point at private, loopback, link-local or metadata addresses, in any IPv6 form that carries one (400 `unsafe_url`). An account has at most 100 rules and 20 distinct channel targets (URLs and email addresses) across them (403 `account_limit`). An email channel to an address other than the account's own is `pending` until that address opens the confirmation link sent to it (GET /api/v1/email-channels/confirm). The response shows each webhook channel's signing secret, once.",
  },
  {
    id: 'rules.get',
    method: 'GET',
    path: '/api/v1/rules/{id}',
    status: 200,
    schema: 'RuleDoc',
    auth: true,
    summary: 'One alert rule',
    description: RULE_NOTE,
  },
  {
    id: 'rules.update',
    method: 'PATCH',
    path: '/api/v1/rules/{id}',
    status: 200,
    schema: 'RuleDoc',
    body: 'RulePatch',
    auth: true,
    summary: 'Change an alert rule',
    description: `Any subset of the rule's fields; \`channels\`, when given, replace the channels (a webhook URL that stays keeps its secret). ${RULE_NOTE}`,
  },
  {
    id: 'rules.delete',
    method: 'DELETE',
    path: '/api/v1/rules/{id}',
    status: 204,
    schema: null,
    auth: true,
    summary: 'Delete an alert rule',
    description: `Its pending deliveries are dropped. ${RULE_NOTE}`,
  },
  {
    id: 'rules.deliveries',
    method: 'GET',
    path: '/api/v1/rules/{id}/deliveries',
    status: 200,
    schema: 'DeliveryLog',
    auth: true,
    summary: 'Delivery log of a rule: every delivery with every attempt',
    description: `Newest first; each attempt with its time, outcome, HTTP status and latency. Finished deliveries are kept 30 days. ${RULE_NOTE}`,
    query: [
      {
        name: 'limit',
        description: 'Deliveries to return, 1–200 (default 50).',
        schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
      },
    ],
  },
  {
    id: 'rules.rotate',
    method: 'POST',
    path: '/api/v1/rules/{id}/channels/{channel_id}/rotate-secret',
    status: 200,
    schema: 'RotatedSecret',
    body: 'RotateRequest',
    auth: true,
    summary: "Rotate a webhook channel's signing secret",
    description:
      'Returns the new secret (once). Until `previous_secret_expires_at` (default 24 hours, `grace_hours` 0–168) every request is signed with both secrets; a secret rotated out before keeps the rest of its own grace (a second rotation inside the grace keeps the original valid). A channel signs with at most 4 secrets at once: a rotation that would keep more in their grace is 403 `account_limit`.',
  },
  {
    id: 'rules.enable',
    method: 'POST',
    path: '/api/v1/rules/{id}/channels/{channel_id}/enable',
    status: 200,
    schema: 'RuleDoc',
    auth: true,
    summary: 'Re-enable a channel disabled after sustained failure',
    description: 'Its held deliveries are sent again.',
  },
];
