// Reads what the report tables are computed from out of DuckDB: the 15-minute series' simultaneous peaks, the
// county-years with rows, EAGLE-I coverage, the county episodes and the OE-417 disturbances.
import type { Db } from '../../state/db.ts';
import { REPORT_FIRST_YEAR, type Coverage, type CountyYearAgg, type Disturbance, type EpisodeRec } from './shared.ts';

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
  /** report years with EAGLE-I rows */
  loaded: number[];
  /** years with OE-417 events */
  oe417: number[];
  statePeaks: StatePeak[];
  natPeaks: NationalPeak[];
  /** county-years with EAGLE-I rows */
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
  const loaded = [...new Set(natPeaks.map((r) => r.y))].filter((y) => range.includes(y)).sort();
  const coverage = await db.all<Coverage>('SELECT * FROM eaglei_coverage');
  const { countyYears, episodes } = await loadEpisodes(db);
  const disturbances = await loadDisturbances(db);
  const oe417 = [...new Set(disturbances.map((d) => d.year))].sort();
  return { range, loaded, oe417, statePeaks, natPeaks, observed, coverage, countyYears, episodes, disturbances };
}

/** The 15-minute series summed by state and time: simultaneous peaks, and which states/years have rows. */
async function loadSeries(db: Db): Promise<Pick<ReportInputs, 'statePeaks' | 'natPeaks' | 'observed'>> {
  await db.run(`CREATE OR REPLACE TEMP TABLE state_ts AS
    SELECT substr(fips, 1, 2) AS st, run_start_time AS t, sum(customers_out)::BIGINT AS out FROM eaglei_outages GROUP BY ALL`);
  const statePeaks = await db.all<StatePeak>(
    'SELECT st, year(t)::INT AS y, month(t)::INT AS m, max(out)::BIGINT AS peak FROM state_ts GROUP BY ALL',
  );
  const natPeaks = await db.all<NationalPeak>(
    'SELECT year(t)::INT AS y, month(t)::INT AS m, max(out)::BIGINT AS peak FROM (SELECT t, sum(out) AS out FROM state_ts GROUP BY t) GROUP BY ALL',
  );
  const observed = await db.all<{ fips: string; y: number }>(
    'SELECT DISTINCT fips, year(run_start_time)::INT AS y FROM eaglei_outages',
  );
  return { statePeaks, natPeaks, observed };
}

/** The county episodes (history/derive.ts), summed by county-year and listed one by one, by the year they started. */
async function loadEpisodes(db: Db): Promise<Pick<ReportInputs, 'countyYears' | 'episodes'>> {
  const countyYears =
    await db.all<CountyYearAgg>(`SELECT fips, year(start_at)::INT AS y, count(*)::INT AS episodes, sum(customer_hours) AS ch, max(peak)::INT AS max_out, max(duration_h) AS longest_h,
      count(*) FILTER (WHERE size_class = 'small')::INT AS small, count(*) FILTER (WHERE size_class = 'medium')::INT AS medium,
      count(*) FILTER (WHERE size_class = 'large')::INT AS large, count(*) FILTER (WHERE size_class = 'major')::INT AS major
    FROM episodes GROUP BY ALL`);
  const episodes =
    await db.all<EpisodeRec>(`SELECT fips, year(start_at)::INT AS y, month(start_at)::INT AS m, strftime(start_at, '%Y-%m-%dT%H:%M:%SZ') AS start_at,
      strftime(end_at, '%Y-%m-%dT%H:%M:%SZ') AS end_at, peak, customer_hours, duration_h, size_class FROM episodes ORDER BY customer_hours DESC, start_at, fips`);
  return { countyYears, episodes };
}

async function loadDisturbances(db: Db): Promise<Disturbance[]> {
  return db.all<Disturbance>(`SELECT year, month(began_at)::INT AS m, strftime(began_at, '%Y-%m-%dT%H:%M:%S') AS began_at, strftime(restored_at, '%Y-%m-%dT%H:%M:%S') AS restored_at,
      restoration, area, states, nerc, event_type, alert_criteria, cause, demand_loss_mw, customers_affected FROM oe417_events ORDER BY began_at, area`);
}
