// What every report table module shares: the row type, rounding, grouping, and the records read from DuckDB.
export const REPORT_FIRST_YEAR = 2014;
export const MONTHS_IN_YEAR = 12;

export type Value = string | number | boolean | null;
export type Row = Record<string, Value>;

/** One county-year of episodes, summed in SQL. */
export interface CountyYearAgg {
  fips: string;
  y: number;
  episodes: number;
  ch: number;
  max_out: number;
  longest_h: number;
  small: number;
  medium: number;
  large: number;
  major: number;
  /** eaglei, archive or both: where the county-year's episodes come from */
  source: string;
}
export interface EpisodeRec {
  fips: string;
  y: number;
  m: number;
  start_at: string;
  end_at: string;
  peak: number;
  customer_hours: number;
  duration_h: number;
  size_class: string;
  source: string;
}
/** Where a report year's figures come from (history_series in state/schema.sql) and the period the history has. */
export interface YearSource {
  y: number;
  source: string;
  period_start: string;
  period_end: string;
}
export interface Disturbance {
  year: number;
  m: number;
  began_at: string;
  restored_at: string | null;
  restoration: string;
  area: string | null;
  states: string;
  nerc: string | null;
  event_type: string | null;
  alert_criteria: string | null;
  cause: string;
  demand_loss_mw: number | null;
  customers_affected: number | null;
}
/** One state-year of eaglei_coverage, or for a year only the live archive covers, the archive's customers tracked. */
export interface Coverage {
  year: number;
  state: string;
  total_customers: number;
  min_covered: number;
  max_covered: number;
}

export const r2 = (v: number | null | undefined): number | null =>
  v === null || v === undefined || !Number.isFinite(v) ? null : Math.round(v * 100) / 100;
export const pct = (a: number | null, b: number | null): number | null =>
  a === null || b === null || b === 0 ? null : r2(((a - b) / b) * 100);
export const median = (xs: number[]): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
export const groupBy = <T>(xs: T[], key: (x: T) => string): Map<string, T[]> => {
  const m = new Map<string, T[]>();
  for (const x of xs) (m.get(key(x)) ?? m.set(key(x), []).get(key(x))!).push(x);
  return m;
};
