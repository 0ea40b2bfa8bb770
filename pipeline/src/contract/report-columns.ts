// The columns of every annual report table, in CSV order (the JSON rows carry the same members); the OpenAPI row
// schemas and the CSV writers both come from here.
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
export const columnSchema = (c: string) => COLUMN_SCHEMAS[c] ?? nullableInteger;

/** Every row shape a report table can have (tables → columns), for the OpenAPI document and the contract tests. */
export const ROW_SHAPES: Record<string, readonly string[]> = {
  national: REPORT_COLUMNS.national.national, states: REPORT_COLUMNS.national.states, causes_dataset: REPORT_COLUMNS.causes, trend: REPORT_COLUMNS.trend,
  counties_national: REPORT_COLUMNS.year.counties, counties_state: REPORT_COLUMNS.state.counties, events: REPORT_COLUMNS.year.events, months: REPORT_COLUMNS.year.months,
  causes: REPORT_COLUMNS.year.causes, disturbances: REPORT_COLUMNS.year.disturbances, county_years: REPORT_COLUMNS.county.years, county_months: REPORT_COLUMNS.county.months,
  county_causes: REPORT_COLUMNS.county.causes, utilities: REPORT_COLUMNS.county.utilities,
};
