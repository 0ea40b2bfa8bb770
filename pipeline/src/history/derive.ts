// Derived history in DuckDB: county outage episodes from the 15-minute county series (`history_series`: EAGLE-I, and
// the live archive where EAGLE-I does not reach — state/schema.sql), sized, and rolled up by month and year; the
// archive's finished days grow them day by day (growEpisodes). The episode rule (documented in docs/archive-and-history.md and the OpenAPI document):
//  - an interval counts when customers_out ≥ T = max(50, ⌈0.1 % of the county's customers⌉) (MCC, else the model);
//  - counting intervals at most 60 minutes apart belong to one episode (a missing row — EAGLE-I omits zeros — or a
//    brief dip below T inside a storm does not split it);
//  - start = first counting interval, end = last counting interval + 15 minutes, peak = its largest count,
//    customer-hours = Σ customers_out × 0.25 h over its counting intervals, duration = end − start.
import type { Db } from '../state/db.ts';
import { credited, historySimulated, type HistorySource } from './provenance.ts';

export const EPISODE_MIN = 50;
export const EPISODE_SHARE = 0.001;
export const EPISODE_GAP_MIN = 60;
export const SIZE_CLASSES: Array<[string, number]> = [
  ['major', 100_000],
  ['large', 10_000],
  ['medium', 1_000],
  ['small', 0],
];

/** Where a row's figures come from: EAGLE-I, the live archive, or both (history_series in state/schema.sql). */
export type HistoryOrigin = 'eaglei' | 'archive' | 'both';
export const ORIGIN_OF = (col: string): string =>
  `CASE WHEN bool_and(${col} = 'eaglei') THEN 'eaglei' WHEN bool_and(${col} = 'archive') THEN 'archive' ELSE 'both' END`;

/** The county denominators as a temp table `county_customers(fips, customers)` for the history queries. */
export async function loadCountyCustomers(db: Db, model: Map<string, number>): Promise<void> {
  await db.run('CREATE TEMP TABLE IF NOT EXISTS county_customers (fips VARCHAR, customers BIGINT)');
  await db.run('DELETE FROM county_customers');
  const a = await db.appender('county_customers');
  for (const [fips, customers] of model) {
    a.appendVarchar(fips);
    a.appendBigInt(BigInt(customers));
    a.endRow();
  }
  a.closeSync();
}

/**
 * The episodes of the county series `history_series` (state/schema.sql: EAGLE-I, and the live archive where EAGLE-I
 * does not reach), inserted into `episodes`; `where` narrows the series rows (`o.` is the series, `r.` the join given).
 */
function insertEpisodes(where: string, join = ''): string {
  const thr = `greatest(${EPISODE_MIN}, ceil(coalesce(c.customers, 0) * ${EPISODE_SHARE}))`;
  const sizeCase = `CASE ${SIZE_CLASSES.map(([name, min]) => `WHEN max(n) >= ${min} THEN '${name}'`).join(' ')} END`;
  return `INSERT INTO episodes
    WITH counted AS (
      SELECT o.fips, o.run_start_time AS t, o.customers_out AS n, o.origin, ${thr}::INTEGER AS thr
      FROM history_series o LEFT JOIN county_customers c USING (fips) ${join}
      WHERE o.customers_out >= ${thr} ${where}
    ), breaks AS (
      SELECT *, CASE WHEN t - lag(t) OVER (PARTITION BY fips ORDER BY t) <= INTERVAL ${EPISODE_GAP_MIN} MINUTE THEN 0 ELSE 1 END AS brk FROM counted
    ), numbered AS (
      SELECT *, sum(brk) OVER (PARTITION BY fips ORDER BY t ROWS UNBOUNDED PRECEDING) AS ep FROM breaks
    )
    SELECT fips, min(t), max(t) + INTERVAL 15 MINUTE, max(n), sum(n) * 0.25,
      date_diff('minute', min(t), max(t) + INTERVAL 15 MINUTE) / 60.0, ${sizeCase}, any_value(thr),
      ${ORIGIN_OF('origin')}
    FROM numbered GROUP BY fips, ep`;
}

/** Derives every episode (of the counties in `fipsList` only, when given) from the whole series. */
export async function deriveEpisodes(db: Db, model: Map<string, number>, fipsList?: string[]): Promise<number> {
  await loadCountyCustomers(db, model);
  const only = fipsList ? 'AND o.fips IN (SELECT unnest(?::VARCHAR[]))' : '';
  const params = fipsList ? [`[${fipsList.join(',')}]`] : [];
  const n = await db.transaction(async () => {
    await db.run(`DELETE FROM episodes ${fipsList ? 'WHERE fips IN (SELECT unnest(?::VARCHAR[]))' : ''}`, params);
    await db.run(insertEpisodes(only), params);
    await markArchiveDerived(db);
    const [{ n }] = await db.all<{ n: number }>('SELECT count(*)::INT AS n FROM episodes');
    return n;
  });
  await db.releaseMemory(); // the last step of every import: what it cached is not read by the poll loop
  return n;
}

/** The last archived day the episodes were derived through (`meta`), and the last published one. */
async function archiveDays(db: Db): Promise<{ derived: string | null; published: string | null }> {
  const [r] = await db.all<{ derived: string | null; published: string | null }>(
    `SELECT (SELECT value FROM meta WHERE key = 'history_archive_day') AS derived,
            (SELECT max(day) FROM archive_files) AS published`,
  );
  return r;
}

const markArchiveDerived = async (db: Db) =>
  db.run("INSERT OR REPLACE INTO meta SELECT 'history_archive_day', coalesce(max(day), '') FROM archive_files");

/**
 * History grows from the archive (issue 25 part 3): once the archive publishes a finished day, the episodes that its
 * quarters can extend or begin are derived again, per county from the start of its last episode that ends within the
 * gap of the new days (or from the new days), so every episode is as a full derivation would make it. True when
 * history changed.
 */
export async function growEpisodes(db: Db, model: Map<string, number>): Promise<boolean> {
  const { derived, published } = await archiveDays(db);
  if (!published || (derived && published <= derived)) return false;
  await loadCountyCustomers(db, model);
  // the first day not derived yet (a day is YYYY-MM-DD: archive-read.ts checks it before it is published)
  const since = derived ? `(DATE '${derived}' + INTERVAL 1 DAY)` : "TIMESTAMP '0001-01-01 00:00:00'";
  const reach = `${since} - INTERVAL ${EPISODE_GAP_MIN + 15} MINUTE`;
  await db.transaction(async () => {
    await db.run(`CREATE OR REPLACE TEMP TABLE regrow AS
      SELECT fips, min(start_at) AS s FROM episodes WHERE end_at > ${reach} GROUP BY fips`);
    await db.run(`DELETE FROM episodes WHERE end_at > ${reach}`);
    await db.run(insertEpisodes(`AND o.run_start_time >= coalesce(r.s, ${since})`, 'LEFT JOIN regrow r USING (fips)'));
    await markArchiveDerived(db);
  });
  return true;
}

export interface CountyYear {
  year: number;
  episodes: number;
  customer_hours: number;
  max_out: number;
  longest_h: number;
  by_size: Record<string, number>;
  source: HistorySource;
}
export interface CountyMonth {
  year: number;
  month: number;
  episodes: number;
  customer_hours: number;
  max_out: number;
  source: HistorySource;
}
export interface EpisodeRow {
  start_at: string;
  end_at: string;
  peak: number;
  customer_hours: number;
  duration_h: number;
  size_class: string;
  source: HistorySource;
}

/**
 * Yearly and monthly rollups and the worst episodes of every county with history (one query each), each row's
 * `source` as published (provenance.ts: `simulated` when the history is).
 */
export async function countyHistories(
  db: Db,
): Promise<Map<string, { years: CountyYear[]; months: CountyMonth[]; worst: EpisodeRow[] }>> {
  const out = new Map<string, { years: CountyYear[]; months: CountyMonth[]; worst: EpisodeRow[] }>();
  const of = (f: string) => out.get(f) ?? out.set(f, { years: [], months: [], worst: [] }).get(f)!;
  const r2 = (v: number) => Math.round(v * 100) / 100;
  for (const r of await db.all<
    CountyYear & { fips: string; small: number; medium: number; large: number; major: number }
  >(`
    SELECT fips, year(start_at)::INT AS year, count(*)::INT AS episodes, sum(customer_hours) AS customer_hours, max(peak)::INT AS max_out,
      max(duration_h) AS longest_h, count(*) FILTER (WHERE size_class = 'small')::INT AS small, count(*) FILTER (WHERE size_class = 'medium')::INT AS medium,
      count(*) FILTER (WHERE size_class = 'large')::INT AS large, count(*) FILTER (WHERE size_class = 'major')::INT AS major, ${ORIGIN_OF('origin')} AS source
    FROM episodes GROUP BY ALL ORDER BY fips, year`)) {
    of(r.fips).years.push({
      year: r.year,
      episodes: r.episodes,
      customer_hours: r2(r.customer_hours),
      max_out: r.max_out,
      longest_h: r2(r.longest_h),
      by_size: { small: r.small, medium: r.medium, large: r.large, major: r.major },
      source: r.source,
    });
  }
  for (const r of await db.all<CountyMonth & { fips: string }>(`
    SELECT fips, year(start_at)::INT AS year, month(start_at)::INT AS month, count(*)::INT AS episodes, sum(customer_hours) AS customer_hours, max(peak)::INT AS max_out, ${ORIGIN_OF('origin')} AS source
    FROM episodes GROUP BY ALL ORDER BY fips, year, month`)) {
    of(r.fips).months.push({
      year: r.year,
      month: r.month,
      episodes: r.episodes,
      customer_hours: r2(r.customer_hours),
      max_out: r.max_out,
      source: r.source,
    });
  }
  for (const r of await db.all<EpisodeRow & { fips: string }>(`
    SELECT fips, strftime(start_at, '%Y-%m-%dT%H:%M:%SZ') AS start_at, strftime(end_at, '%Y-%m-%dT%H:%M:%SZ') AS end_at, peak, customer_hours, duration_h, size_class, origin AS source
    FROM (SELECT *, row_number() OVER (PARTITION BY fips ORDER BY customer_hours DESC, start_at) AS k FROM episodes) WHERE k <= 10 ORDER BY fips, k`)) {
    of(r.fips).worst.push({
      start_at: r.start_at,
      end_at: r.end_at,
      peak: r.peak,
      customer_hours: r2(r.customer_hours),
      duration_h: r2(r.duration_h),
      size_class: r.size_class,
      source: r.source,
    });
  }
  const simulated = await historySimulated(db);
  for (const h of out.values()) for (const rows of [h.years, h.months, h.worst]) credited(rows, simulated);
  return out;
}
