// The schemas of the annual report tables: a row shape per table, the county summary and the table document.
import { ROW_SHAPES, columnSchema } from '../report-columns.ts';
import { env, fips, generated, int, nullableInt, obj, stateCode } from './parts.ts';

export const REPORT_SCHEMAS: Record<string, Record<string, unknown>> = {
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
};
