// The tables of one report year (national scope and per state), the county rankings by hours_per_customer they
// carry, and the list of observed county-years whose county reports are published.
import { EVENTS_TOP } from '../../contract/report-columns.ts';
import type { ReportBasis } from './basis.ts';
import { causesOf, disturbanceRow, episodeRow, inState, monthRows } from './rows.ts';
import { median, type Row } from './shared.ts';

/** One report year's tables at national scope. */
export interface YearTables {
  counties: Row[];
  events: Row[];
  states: Row[];
  months: Row[];
  causes: Row[];
  disturbances: Row[];
}
/** One state's tables of one report year. */
export interface StateTables {
  counties: Row[];
  events: Row[];
  months: Row[];
  causes: Row[];
}

/** Ranks (1 = most hours_per_customer) of the rows that have a value, and their median. */
export interface Ranking {
  rank: Map<string, number>;
  median: number | null;
}
/** national: key the year; state: key `${year}|${code}` */
export interface Rankings {
  national: Map<number, Ranking>;
  state: Map<string, Ranking>;
}

function ranking(rows: Row[]): Ranking {
  const sorted = rows
    .filter((r) => r.hours_per_customer !== null)
    .sort((a, b) => (b.hours_per_customer as number) - (a.hours_per_customer as number));
  const rank = new Map(sorted.map((r, i) => [r.fips as string, i + 1]));
  return {
    rank,
    median: median(rows.filter((r) => r.hours_per_customer !== null).map((r) => r.hours_per_customer as number)),
  };
}

export function rankings(b: ReportBasis): Rankings {
  const out: Rankings = { national: new Map(), state: new Map() };
  for (const y of b.range) {
    const rows = b.countyRowsByYear.get(y)!;
    out.national.set(y, ranking(rows));
    for (const code of b.stateCodes) out.state.set(`${y}|${code}`, ranking(rows.filter((r) => r.state === code)));
  }
  return out;
}

/** counties (covered, with rank_national), events (the EVENTS_TOP largest), states, months, causes, disturbances. */
export function yearTables(b: ReportBasis, states: Row[], ranks: Rankings): Map<number, YearTables> {
  const byYear = new Map<number, YearTables>();
  for (const y of b.range) {
    const eps = b.episodesByYear.get(String(y)) ?? [];
    const ds = b.disturbancesByYear.get(String(y)) ?? [];
    const nationalRank = ranks.national.get(y)!.rank;
    byYear.set(y, {
      counties: b.countyRowsByYear
        .get(y)!
        .filter((r) => r.coverage !== null)
        .map((r) => ({ ...r, rank_national: nationalRank.get(r.fips as string) ?? null })),
      events: eps.slice(0, EVENTS_TOP).map(episodeRow),
      states: states.filter((s) => s.year === y),
      months: monthRows(b, y, eps, (m) => b.natPeakBy.get(`${y}|${m}`) ?? null, ds),
      causes: causesOf(ds),
      disturbances: ds.map(disturbanceRow),
    });
  }
  return byYear;
}

/** Per state-year (key `${year}|${code}`): counties (with rank_state), events, months, causes. */
export function stateTables(b: ReportBasis, ranks: Rankings): Map<string, StateTables> {
  const byState = new Map<string, StateTables>();
  for (const y of b.range) {
    const eps = b.episodesByYear.get(String(y)) ?? [];
    const ds = b.disturbancesByYear.get(String(y)) ?? [];
    for (const code of b.stateCodes) {
      const sRows = b.countyRowsByYear.get(y)!.filter((r) => r.state === code);
      const sRank = ranks.state.get(`${y}|${code}`)!.rank;
      const sEps = eps.filter((e) => b.atlas.byFips.get(e.fips)?.state === code);
      const sDs = ds.filter((d) => inState(d, code));
      byState.set(`${y}|${code}`, {
        counties: sRows
          .filter((r) => r.coverage !== null)
          .map((r) => ({ ...r, rank_state: sRank.get(r.fips as string) ?? null })),
        events: sEps.slice(0, EVENTS_TOP).map(episodeRow),
        months: monthRows(b, y, sEps, (m) => b.statePeakBy.get(`${y}|${m}|${code}`) ?? null, sDs),
        causes: causesOf(sDs),
      });
    }
  }
  return byState;
}

/** Every observed county-year (`${year}|${fips}`), by year, then state, then FIPS. */
export function observedCountyYears(b: ReportBasis): string[] {
  const keys: string[] = [];
  for (const y of b.range) {
    for (const code of b.stateCodes) {
      for (const r of b.countyRowsByYear.get(y)!)
        if (r.state === code && r.coverage === 'observed') keys.push(`${y}|${r.fips}`);
    }
  }
  return keys;
}
