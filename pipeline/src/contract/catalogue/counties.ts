// The county endpoints: a county's profile, its history and its charts. spec: Endpoints — County.
import type { Endpoint, Format } from './types.ts';

export const COUNTY_ENDPOINTS: readonly Endpoint[] = [
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
];
