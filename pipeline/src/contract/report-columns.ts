// The columns of every annual report table, in CSV order (the JSON rows carry the same members); the OpenAPI row
// schemas and the CSV writers both come from here.

/** Rows of the year and state `events` tables: the largest episodes by customer-hours. */
export const EVENTS_TOP = 1000;
const AREA = ['year', 'loaded', 'counties_covered', 'customers', 'episodes', 'major_episodes', 'customer_hours', 'hours_per_customer', 'max_county_out', 'peak_out',
  'disturbances', 'disturbance_customers', 'coverage_customers', 'coverage_min', 'coverage_max', 'coverage_pct', 'yoy_pct'];
const COUNTY = ['year', 'fips', 'name', 'state', 'loaded', 'coverage', 'customers', 'episodes', 'customer_hours', 'hours_per_customer', 'max_out', 'longest_h', 'small', 'medium', 'large', 'major'];
const EVENTS = ['fips', 'name', 'state', 'start_at', 'end_at', 'peak', 'customer_hours', 'duration_h', 'size_class'];
const MONTHS = ['year', 'month', 'loaded', 'episodes', 'customer_hours', 'max_county_out', 'peak_out', 'disturbances'];
const CAUSE = ['cause', 'events', 'customers_affected', 'demand_loss_mw', 'median_duration_h'];

export const REPORT_COLUMNS = {
  national: { national: AREA, states: ['state', ...AREA] },
  causes: ['year', ...CAUSE],
  trend: ['scope', 'year', 'loaded', 'episodes', 'customer_hours', 'hours_per_customer', 'peak_out', 'disturbances', 'yoy_pct'],
  year: {
    counties: [...COUNTY, 'rank_national'], events: EVENTS, states: ['state', ...AREA], months: MONTHS, causes: CAUSE,
    disturbances: ['began_at', 'restored_at', 'restoration', 'area', 'states', 'nerc', 'event_type', 'alert_criteria', 'cause', 'demand_loss_mw', 'customers_affected'],
  },
  state: { counties: [...COUNTY, 'rank_state'], events: EVENTS, months: MONTHS, causes: CAUSE },
  county: {
    years: [...COUNTY, 'yoy_pct'], months: ['year', 'month', 'loaded', 'episodes', 'customer_hours', 'max_county_out'], events: EVENTS,
    causes: ['cause', 'events', 'events_naming_county', 'customers_affected', 'demand_loss_mw', 'median_duration_h'],
    utilities: ['utility_number', 'utility_name', 'state', 'territory_year', 'customers_in_state', 'reliability_year', 'standard', 'saidi_with_med', 'saifi_with_med', 'saidi_without_med', 'saifi_without_med'],
  },
} as const;


const nullableNumber = { type: ['number', 'null'] };
const nullableInteger = { type: ['integer', 'null'] };
const nullableString = { type: ['string', 'null'] };
/** JSON Schema of each column (null where a year is not loaded, a county not covered, or a source is silent). */
export const COLUMN_SCHEMAS: Record<string, Record<string, unknown>> = {
  year: { type: 'integer', minimum: 2000 }, month: { type: 'integer', minimum: 1, maximum: 12 }, loaded: { type: 'boolean' },
  state: { type: ['string', 'null'], pattern: '^[A-Z]{2}$' }, scope: { type: 'string', pattern: '^(US|[A-Z]{2})$' }, fips: { type: 'string', pattern: '^\\d{5}$' },
  name: nullableString, coverage: { enum: ['observed', 'zero', 'not_covered', null] }, start_at: { type: 'string', format: 'date-time' }, end_at: { type: 'string', format: 'date-time' },
  size_class: { enum: ['small', 'medium', 'large', 'major'] }, cause: { type: 'string' }, began_at: { type: 'string' }, restored_at: nullableString,
  restoration: { enum: ['restored', 'ongoing', 'unknown'] }, area: nullableString, states: { type: 'string' }, nerc: nullableString, event_type: nullableString,
  alert_criteria: nullableString, utility_name: { type: 'string' }, standard: { enum: ['ieee', 'other', null] },
  customer_hours: nullableNumber, hours_per_customer: nullableNumber, longest_h: nullableNumber, duration_h: { type: 'number' }, coverage_pct: nullableNumber,
  yoy_pct: nullableNumber, demand_loss_mw: nullableNumber, median_duration_h: nullableNumber,
  saidi_with_med: nullableNumber, saifi_with_med: nullableNumber, saidi_without_med: nullableNumber, saifi_without_med: nullableNumber,
};
export const columnSchema = (c: string) => ({ ...(COLUMN_SCHEMAS[c] ?? nullableInteger), ...(COLUMN_DOCS[c] ? { description: COLUMN_DOCS[c] } : {}) });

/** Every row shape a report table can have (tables → columns), for the OpenAPI document and the contract tests. */
export const ROW_SHAPES: Record<string, readonly string[]> = {
  national: REPORT_COLUMNS.national.national, states: REPORT_COLUMNS.national.states, causes_dataset: REPORT_COLUMNS.causes, trend: REPORT_COLUMNS.trend,
  counties_national: REPORT_COLUMNS.year.counties, counties_state: REPORT_COLUMNS.state.counties, events: REPORT_COLUMNS.year.events, months: REPORT_COLUMNS.year.months,
  causes: REPORT_COLUMNS.year.causes, disturbances: REPORT_COLUMNS.year.disturbances, county_years: REPORT_COLUMNS.county.years, county_months: REPORT_COLUMNS.county.months,
  county_causes: REPORT_COLUMNS.county.causes, utilities: REPORT_COLUMNS.county.utilities,
};

/** What every report column means (the datapackage.json field descriptions and the OpenAPI row schemas). */
export const COLUMN_DOCS: Record<string, string> = {
  year: 'report year (UTC; episodes by the year they started)', month: 'month 1–12', loaded: 'whether EAGLE-I data of the year is loaded (false: the numbers are null)',
  state: 'USPS state code', scope: '`US` or a USPS state code', fips: '5-digit county FIPS code', name: 'county name',
  coverage: 'observed (EAGLE-I rows that year), zero (no rows, state covered), not_covered (values null)',
  customers: 'customers (county: EAGLE-I MCC or the shipped model; area: sum over covered counties)', counties_covered: 'counties observed or zero',
  episodes: 'outage episodes started', major_episodes: 'episodes with a peak of 100,000 or more', customer_hours: 'customer-hours without power in those episodes',
  hours_per_customer: 'customer_hours ÷ customers', max_out: 'largest episode peak in the county', max_county_out: 'largest county episode peak in the area',
  peak_out: 'largest simultaneous customers out (sum over the area\'s counties at one 15-minute time)', longest_h: 'longest episode, hours',
  small: 'episodes peaking under 1,000', medium: 'episodes peaking 1,000–9,999', large: 'episodes peaking 10,000–99,999', major: 'episodes peaking 100,000 or more',
  disturbances: 'DOE OE-417 events naming the area (null when OE-417 of the year is not loaded)', disturbance_customers: 'customers affected by those events, as reported',
  coverage_customers: 'EAGLE-I coverage_history total customers', coverage_min: 'EAGLE-I coverage_history min_covered', coverage_max: 'EAGLE-I coverage_history max_covered',
  coverage_pct: 'coverage_max ÷ coverage_customers × 100', yoy_pct: 'change of customer_hours from the previous year, percent',
  rank_national: 'rank by hours per customer among the nation\'s counties (1 = most)', rank_state: 'rank by hours per customer in the state (1 = most)',
  start_at: 'first 15-minute interval at or above the county threshold (UTC)', end_at: 'last such interval + 15 minutes (UTC)', peak: 'largest customers out in the episode',
  duration_h: 'end_at − start_at, hours', size_class: 'small, medium, large or major by peak',
  cause: 'cause category (rules in the OpenAPI document)', events: 'OE-417 events', events_naming_county: 'of those, events whose Area Affected names the county',
  customers_affected: 'customers affected, as reported (unknown counts as 0)', demand_loss_mw: 'demand loss, MW, as reported (unknown counts as 0)', median_duration_h: 'median began → restored, hours (restored events)',
  began_at: 'event began, local time as reported', restored_at: 'restored, local time as reported (null: ongoing or unknown)', restoration: 'restored, ongoing or unknown',
  area: 'Area Affected as reported', states: 'USPS codes of the states the area names, comma-separated', nerc: 'NERC region', event_type: 'Event Type as reported', alert_criteria: 'Alert Criteria as reported',
  utility_number: 'EIA utility number', utility_name: 'EIA utility name', territory_year: 'EIA-861 Service_Territory year used', customers_in_state: 'the utility\'s customers in the state (Sales_Ult_Cust, all parts but energy-only)',
  reliability_year: 'EIA-861 Reliability year used', standard: 'ieee (IEEE 1366) or other', saidi_with_med: 'SAIDI with major event days, minutes', saifi_with_med: 'SAIFI with major event days, interruptions per customer',
  saidi_without_med: 'SAIDI without major event days, minutes', saifi_without_med: 'SAIFI without major event days, interruptions per customer',
};
