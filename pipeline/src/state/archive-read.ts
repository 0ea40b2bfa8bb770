// Reading the archive (issue 25 part 2): the archived days, and one finished day's rows in EAGLE-I's layout. The
// past map and county series are answered from the published day documents (state/archive-day.ts, serve/archive-fn.ts).
import { STATES } from '../geo/states.ts';
import type { Db } from './db.ts';

/**
 * The archived days (UTC), each with its county rows and the quarters the poller reached; `after` (a day) limits it to
 * the days after it, so a cycle does not scan the whole archive for the few days it has not written yet.
 */
export async function archivedDays(
  db: Db,
  after?: string,
): Promise<Array<{ day: string; rows: number; quarters: number }>> {
  const from = after ? nextDay(after) : '';
  return db.all(
    `SELECT q.day, coalesce(c.rows, 0)::INTEGER AS rows, q.quarters::INTEGER AS quarters
       FROM (SELECT substr(quarter_at, 1, 10) AS day, count(*) AS quarters FROM archive_quarters
              WHERE quarter_at >= ? GROUP BY day) q
       LEFT JOIN (SELECT substr(quarter_at, 1, 10) AS day, count(*) AS rows FROM archive_county
              WHERE quarter_at >= ? GROUP BY day) c ON c.day = q.day
      ORDER BY q.day`,
    [from, from],
  );
}

/** The day files' columns, in order: EAGLE-I's five, then ours (documented in /api/v1/archive and data/README.md). */
export const ARCHIVE_COLUMNS = [
  { name: 'fips', type: 'string', description: '5-digit county FIPS code' },
  { name: 'county', type: 'string', description: 'county name' },
  { name: 'state', type: 'string', description: 'state name (as EAGLE-I writes it)' },
  { name: 'customers_out', type: 'integer', description: 'customers out at the quarter hour (the value in force)' },
  {
    name: 'run_start_time',
    type: 'string',
    description:
      'the quarter hour, named by its start as EAGLE-I names it: in the CSV `YYYY-MM-DD HH:MM:SS` UTC, in Parquet a UTC timestamp',
  },
  {
    name: 'customers_tracked',
    type: 'integer',
    description:
      "customers of the county served by the sources fresh at the quarter hour: a feed's own served count, else the registry row's customers spread over its EIA-861 2018 territory; at most the county's customers (empty when no fresh source served it)",
  },
  {
    name: 'customers_served_feed',
    type: 'integer',
    description: 'customers served as the feeds publish it (empty when none does)',
  },
  { name: 'sources', type: 'integer', description: 'how many sources reported the county' },
  {
    name: 'stale',
    type: 'boolean',
    description: 'one of them was stale at the quarter: its last value is carried, not refreshed',
  },
  { name: 'simulated', type: 'boolean', description: "true for the built-in simulator's data, never real" },
] as const;

const STATE_NAMES = `(VALUES ${STATES.map((s) => `('${s.code}', '${s.name.replace(/'/g, "''")}')`).join(', ')}) n(code, name)`;

/** run_start_time in each form: EAGLE-I's text in the CSV; in Parquet a UTC instant (TIMESTAMP, adjusted to UTC). */
const RUN_START_TIME = {
  csv: "strftime(c.quarter_at::TIMESTAMP, '%Y-%m-%d %H:%M:%S')",
  parquet: 'c.quarter_at::TIMESTAMPTZ', // quarter_at is ISO with its `Z`: the instant, whatever the session's zone
} as const;

/**
 * The SQL of one day's rows in EAGLE-I's layout (`fips, county, state, customers_out, run_start_time`, the state by
 * name and the time as `YYYY-MM-DD HH:MM:SS` UTC text, or for Parquet a UTC timestamp), then ours: customers tracked
 * (the denominator), served as the feeds publish it, the sources counted, whether one was stale, and whether the day
 * is simulated.
 */
export function daySql(day: string, form: keyof typeof RUN_START_TIME = 'csv'): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error(`Expected a day as YYYY-MM-DD, got ${day}`);
  return `SELECT c.fips, c.county, n.name AS state, c.customers_out, ${RUN_START_TIME[form]} AS run_start_time,
                 c.customers_tracked, c.customers_served_feed, c.sources, c.stale, q.simulated
            FROM archive_county c JOIN archive_quarters q USING (quarter_at) JOIN ${STATE_NAMES} ON n.code = c.state
           WHERE c.quarter_at >= '${day}' AND c.quarter_at < '${nextDay(day)}'
           ORDER BY c.quarter_at, c.fips`;
}

export const nextDay = (day: string): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
