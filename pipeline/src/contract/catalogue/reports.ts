// The annual report endpoints: the national, year, state and county tables and the decade charts.
// spec: Endpoints — Reports.
import { EVENTS_TOP } from '../report-columns.ts';
import type { Endpoint } from './types.ts';

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

export const REPORT_ENDPOINTS: readonly Endpoint[] = [
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
