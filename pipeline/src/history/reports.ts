// Annual report tables, computed in DuckDB from the imported history: EAGLE-I episodes and 15-minute series,
// EAGLE-I coverage, OE-417 disturbances and EIA-861 utilities. Definitions (also in docs/archive-and-history.md and OpenAPI):
//  - episodes, customer_hours, max_out, longest: from the county episodes (history/derive.ts), by the year and month
//    the episode started;
//  - peak_out: the largest simultaneous customers out (sum over the area's counties at one 15-minute time);
//  - hours_per_customer: customer_hours ÷ customers (the county denominator: EAGLE-I MCC, else the shipped model) —
//    the average hours without power per customer, comparable to SAIDI (which is in minutes and excludes nothing);
//  - a county-year is `observed` (it has EAGLE-I rows), `zero` (no rows, but its state was covered that year:
//    coverage_history says so, or without coverage data its state has rows) or `not_covered` (values are null);
//  - disturbances: OE-417 events whose Area Affected names the state (a multi-state event counts in each);
//  - yoy_pct: change of customer_hours from the previous year, in percent (null when either year is not loaded);
//  - etr: the ETR record of the live incident history (state/etr-record.ts has the definitions).
import type { Db } from '../state/db.ts';
import { etrRecord, type EtrRecordRow } from '../state/etr-record.ts';
import { loadCountyCustomers } from './derive.ts';
import { reportBasis } from './report-tables/basis.ts';
import { countyTablesOf, type CountyTables } from './report-tables/county.ts';
import { loadReportInputs } from './report-tables/inputs.ts';
import { causeRows, nationalRows, stateRows, trendRows } from './report-tables/national.ts';
import type { Row } from './report-tables/shared.ts';
import { loadUtilities } from './report-tables/utilities.ts';
import {
  observedCountyYears,
  rankings,
  stateTables,
  yearTables,
  type StateTables,
  type YearTables,
} from './report-tables/year.ts';

export { groupBy, MONTHS_IN_YEAR, REPORT_FIRST_YEAR, type Row, type Value } from './report-tables/shared.ts';

export interface Reports {
  /** every report year, REPORT_FIRST_YEAR … the current year */
  range: number[];
  /** years with EAGLE-I rows, years with OE-417 events, years of EIA-861 files */
  loaded: number[];
  oe417: number[];
  eia861: number[];
  national: Row[];
  states: Row[];
  byYear: Map<number, YearTables>;
  /** key `${year}|${state code}` */
  byState: Map<string, StateTables>;
  /** every county-year observed (`${year}|${fips}`): its tables are built on demand by `countyTables` */
  countyYears: string[];
  countyTables(year: number, fips: string): CountyTables | null;
  causes: Row[];
  trend: Row[];
  /** the ETR record of the live incident history, per source and month (state/etr-record.ts) */
  etr: EtrRecordRow[];
}

/** Every report table, one module per table family under report-tables/. */
/** `archivedIncidents`: the archive's incident day files (Parquet paths) the ETR record reads beside the live ones. */
export async function computeReports(
  db: Db,
  model: Map<string, number>,
  now: Date,
  archivedIncidents: readonly string[] = [],
): Promise<Reports> {
  await loadCountyCustomers(db, model);
  const input = await loadReportInputs(db, now);
  const utilities = await loadUtilities(db);
  const b = reportBasis(input, model);
  const national = nationalRows(b);
  const states = stateRows(b);
  const ranks = rankings(b);
  return {
    range: b.range,
    loaded: b.loaded,
    oe417: b.oe417,
    eia861: utilities.years,
    national,
    states,
    byYear: yearTables(b, states, ranks),
    byState: stateTables(b, ranks),
    countyYears: observedCountyYears(b),
    countyTables: countyTablesOf(b, ranks, utilities),
    causes: causeRows(b),
    trend: trendRows(national, states),
    etr: await etrRecord(db, archivedIncidents),
  };
}
