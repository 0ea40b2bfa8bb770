// Reads what the report tables are computed from out of DuckDB: the 15-minute series' simultaneous peaks, the
// county-years with rows, where each year comes from, the coverage, the county episodes and the OE-417 disturbances.
// The series is `history_series` (state/schema.sql): EAGLE-I, and the live archive where EAGLE-I does not reach.
import type { Db } from '../../state/db.ts';
import { STATES } from '../../geo/states.ts';
import { ORIGIN_OF } from '../derive.ts';
import { credited, historySimulated } from '../provenance.ts';
import {
  REPORT_FIRST_YEAR,
  type Coverage,
  type CountyYearAgg,
  type Disturbance,
  type EpisodeRec,
  type YearSource,
} from './shared.ts';

export interface StatePeak {
  st: string;
  y: number;
  m: number;
  peak: number;
}
export interface NationalPeak {
  y: number;
  m: number;
  peak: number;
}

export interface ReportInputs {
  /** every report year, REPORT_FIRST_YEAR … the current year */
  range: number[];
  /** report years the history has (EAGLE-I, the live archive, or both) */
  loaded: number[];
  /** where each loaded year comes from, and the period the history has of it */
  yearSources: YearSource[];
  /** years with OE-417 events */
  oe417: number[];
  statePeaks: StatePeak[];
  natPeaks: NationalPeak[];
  /** county-years with rows in the series */
  observed: Array<{ fips: string; y: number }>;
  coverage: Coverage[];
  countyYears: CountyYearAgg[];
  /** largest customer_hours first */
  episodes: EpisodeRec[];
  disturbances: Disturbance[];
}

export async function loadReportInputs(db: Db, now: Date): Promise<ReportInputs> {
  const range: number[] = [];
  for (let y = REPORT_FIRST_YEAR; y <= now.getUTCFullYear(); y++) range.push(y);
  const { statePeaks, natPeaks, observed } = await loadSeries(db);
  const yearSources = await loadYearSources(db);
  const loaded = yearSources.map((r) => r.y).filter((y) => range.includes(y));
  const coverage = await loadCoverage(db, yearSources); // by each year's origin: an archive-only year has its own
  const { countyYears, episodes } = await loadEpisodes(db);
  const simulated = await historySimulated(db);
  for (const rows of [yearSources, countyYears, episodes]) credited(rows, simulated);
  const disturbances = await loadDisturbances(db);
  const oe417 = [...new Set(disturbances.map((d) => d.year))].sort();
  return {
    ...{ range, loaded, yearSources, oe417, statePeaks, natPeaks, observed, coverage },
    ...{ countyYears, episodes, disturbances },
  };
}

/** Each year the series has: EAGLE-I's span of it, the archive's quarters of it, or both. */
async function loadYearSources(db: Db): Promise<YearSource[]> {
  return db.all<YearSource>(`
    WITH parts AS (
      SELECT year AS y, 'eaglei' AS origin, first_at AS s, last_at AS e FROM eaglei_span
      UNION ALL
      SELECT year(run_start_time)::INT, 'archive', min(run_start_time), max(run_start_time)
        FROM history_archive_quarters GROUP BY ALL)
    SELECT y, CASE WHEN count(DISTINCT origin) > 1 THEN 'both' ELSE any_value(origin) END AS source,
           strftime(min(s), '%Y-%m-%dT%H:%M:%SZ') AS period_start,
           strftime(max(e) + INTERVAL 15 MINUTE, '%Y-%m-%dT%H:%M:%SZ') AS period_end
      FROM parts GROUP BY y ORDER BY y`);
}

/**
 * EAGLE-I's coverage_history, and for a state-year only the archive covers, the archive's own: the state's modelled
 * customers, and the least and most customers its fresh sources served (customers_tracked) at the archived quarters.
 */
async function loadCoverage(db: Db, years: YearSource[]): Promise<Coverage[]> {
  const eaglei = await db.all<Coverage>('SELECT * FROM eaglei_coverage');
  const archiveOnly = years.filter((y) => y.source === 'archive').map((y) => y.y);
  if (archiveOnly.length === 0) return eaglei;
  const fipsOf = new Map(STATES.map((s) => [s.code, s.fips]));
  const totals = new Map(
    (
      await db.all<{ st: string; n: number }>(
        'SELECT substr(fips, 1, 2) AS st, sum(customers)::DOUBLE AS n FROM county_customers GROUP BY ALL',
      )
    ).map((r) => [r.st, r.n]),
  );
  const tracked = await db.all<{ year: number; state: string; lo: number; hi: number }>(
    // A quarter no fresh source served the state (customers_tracked null) covered no one: it is the year's fewest, 0.
    `SELECT year(h.run_start_time)::INT AS year, a.state, min(coalesce(a.customers_tracked, 0))::DOUBLE AS lo,
            max(coalesce(a.customers_tracked, 0))::DOUBLE AS hi
       FROM archive_state a JOIN history_archive_quarters h USING (quarter_at)
      WHERE year(h.run_start_time) IN (SELECT unnest(?::INTEGER[])) GROUP BY ALL`,
    [`[${archiveOnly.join(',')}]`],
  );
  const archived = tracked.map((t) => ({
    year: t.year,
    state: t.state,
    total_customers: totals.get(fipsOf.get(t.state) ?? '') ?? 0,
    min_covered: t.lo,
    max_covered: t.hi,
  }));
  return [...eaglei, ...archived];
}

/** The 15-minute series summed by state and time: simultaneous peaks, and which states/years have rows. */
async function loadSeries(db: Db): Promise<Pick<ReportInputs, 'statePeaks' | 'natPeaks' | 'observed'>> {
  await db.run(`CREATE OR REPLACE TEMP TABLE state_ts AS
    SELECT substr(fips, 1, 2) AS st, run_start_time AS t, sum(customers_out)::BIGINT AS out FROM history_series GROUP BY ALL`);
  const statePeaks = await db.all<StatePeak>(
    'SELECT st, year(t)::INT AS y, month(t)::INT AS m, max(out)::BIGINT AS peak FROM state_ts GROUP BY ALL',
  );
  const natPeaks = await db.all<NationalPeak>(
    'SELECT year(t)::INT AS y, month(t)::INT AS m, max(out)::BIGINT AS peak FROM (SELECT t, sum(out) AS out FROM state_ts GROUP BY t) GROUP BY ALL',
  );
  const observed = await db.all<{ fips: string; y: number }>(
    'SELECT DISTINCT fips, year(run_start_time)::INT AS y FROM history_series',
  );
  return { statePeaks, natPeaks, observed };
}

/** The county episodes (history/derive.ts), summed by county-year and listed one by one, by the year they started. */
async function loadEpisodes(db: Db): Promise<Pick<ReportInputs, 'countyYears' | 'episodes'>> {
  const countyYears =
    await db.all<CountyYearAgg>(`SELECT fips, year(start_at)::INT AS y, count(*)::INT AS episodes, sum(customer_hours) AS ch, max(peak)::INT AS max_out, max(duration_h) AS longest_h,
      count(*) FILTER (WHERE size_class = 'small')::INT AS small, count(*) FILTER (WHERE size_class = 'medium')::INT AS medium,
      count(*) FILTER (WHERE size_class = 'large')::INT AS large, count(*) FILTER (WHERE size_class = 'major')::INT AS major,
      ${ORIGIN_OF('origin')} AS source
    FROM episodes GROUP BY ALL`);
  const episodes =
    await db.all<EpisodeRec>(`SELECT fips, year(start_at)::INT AS y, month(start_at)::INT AS m, strftime(start_at, '%Y-%m-%dT%H:%M:%SZ') AS start_at,
      strftime(end_at, '%Y-%m-%dT%H:%M:%SZ') AS end_at, peak, customer_hours, duration_h, size_class, origin AS source FROM episodes ORDER BY customer_hours DESC, start_at, fips`);
  return { countyYears, episodes };
}

async function loadDisturbances(db: Db): Promise<Disturbance[]> {
  return db.all<Disturbance>(`SELECT year, month(began_at)::INT AS m, strftime(began_at, '%Y-%m-%dT%H:%M:%S') AS began_at, strftime(restored_at, '%Y-%m-%dT%H:%M:%S') AS restored_at,
      restoration, area, states, nerc, event_type, alert_criteria, cause, demand_loss_mw, customers_affected FROM oe417_events ORDER BY began_at, area`);
}
