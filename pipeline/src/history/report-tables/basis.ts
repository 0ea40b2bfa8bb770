// The lookups every report table reads, built once from the inputs: a county-year's coverage status and numbers,
// every county's row per year, episodes and disturbances by year, and the simultaneous peaks by area and month.
import { loadAtlas, type CountyAtlas } from '../../geo/counties.ts';
import { STATES, stateByFips } from '../../geo/states.ts';
import type { ReportInputs } from './inputs.ts';
import { groupBy, r2, type Coverage, type Disturbance, type EpisodeRec, type Row, type YearSource } from './shared.ts';

export type CoverageStatus = 'observed' | 'zero' | 'not_covered';

export interface ReportBasis extends ReportInputs {
  atlas: CountyAtlas;
  /** the codes of the states with counties in the atlas, in STATES order */
  stateCodes: string[];
  /** key `${year}|${state code}` */
  coverageOf: Map<string, Coverage>;
  /** One county-year's numbers (null when not covered or not loaded). */
  countyRow(y: number, c: { fips: string; name: string; state: string }): Row;
  /** every county's row (atlas order) per report year */
  countyRowsByYear: Map<number, Row[]>;
  /** keys: the year; `${year}|${fips}` */
  episodesByYear: Map<string, EpisodeRec[]>;
  episodesByCounty: Map<string, EpisodeRec[]>;
  /** key: the year */
  disturbancesByYear: Map<string, Disturbance[]>;
  /** keys `${year}|${code}` (the year's peak) and `${year}|${month}|${code}` */
  statePeakBy: Map<string, number>;
  /** keys `${year}` and `${year}|${month}` */
  natPeakBy: Map<string, number>;
  /** where a loaded year's figures come from, and the period the history has of it */
  yearSourceOf: Map<number, YearSource>;
}

export function reportBasis(input: ReportInputs, model: Map<string, number>): ReportBasis {
  const atlas = loadAtlas();
  const counties = atlas.counties.filter((c) => stateByFips(c.stateFips));
  const countiesByState = groupBy(counties, (c) => c.state);
  const coverageOf = new Map(input.coverage.map((c) => [`${c.year}|${c.state}`, c]));
  const countyRow = countyRowMaker(input, coverageOf, model);
  return {
    ...input,
    atlas,
    coverageOf,
    countyRow,
    stateCodes: STATES.map((s) => s.code).filter((code) => countiesByState.has(code)),
    countyRowsByYear: new Map(input.range.map((y) => [y, counties.map((c) => countyRow(y, c))])),
    episodesByYear: groupBy(input.episodes, (e) => String(e.y)),
    episodesByCounty: groupBy(input.episodes, (e) => `${e.y}|${e.fips}`),
    disturbancesByYear: groupBy(input.disturbances, (d) => String(d.year)),
    yearSourceOf: new Map(input.yearSources.map((s) => [s.y, s])),
    ...peaks(input),
  };
}

/**
 * A county-year is `observed` (it has rows in the series), `zero` (no rows, but its state was covered that year:
 * coverage_history or the archive's coverage says so, or without coverage data its state has rows) or `not_covered`;
 * null when not loaded. Its `source` is its episodes' (eaglei, archive or both), else the year's.
 */
function countyRowMaker(
  input: ReportInputs,
  covOf: Map<string, Coverage>,
  model: Map<string, number>,
): ReportBasis['countyRow'] {
  const aggBy = new Map(input.countyYears.map((c) => [`${c.y}|${c.fips}`, c]));
  const yearSource = new Map(input.yearSources.map((s) => [s.y, s.source]));
  const observedSet = new Set(input.observed.map((o) => `${o.y}|${o.fips}`));
  const statesWithRows = new Set(input.statePeaks.map((p) => `${p.y}|${stateByFips(p.st)?.code}`));
  const status = (y: number, fips: string, code: string): CoverageStatus | null => {
    if (!input.loaded.includes(y)) return null;
    if (observedSet.has(`${y}|${fips}`)) return 'observed';
    const cov = covOf.get(`${y}|${code}`);
    if (cov ? cov.max_covered > 0 : statesWithRows.has(`${y}|${code}`)) return 'zero';
    return 'not_covered';
  };
  return (y, c) => {
    const st = status(y, c.fips, c.state);
    const a = aggBy.get(`${y}|${c.fips}`);
    const has = st === 'observed' || st === 'zero';
    const customers = model.get(c.fips) ?? null;
    const ch = has ? r2(a?.ch ?? 0) : null;
    return {
      year: y,
      fips: c.fips,
      name: c.name,
      state: c.state,
      loaded: st !== null,
      coverage: st,
      source: has ? (a?.source ?? yearSource.get(y) ?? null) : null,
      customers,
      episodes: has ? (a?.episodes ?? 0) : null,
      customer_hours: ch,
      hours_per_customer: has && customers ? r2((a?.ch ?? 0) / customers) : null,
      max_out: has ? (a?.max_out ?? 0) : null,
      longest_h: has ? r2(a?.longest_h ?? 0) : null,
      small: has ? (a?.small ?? 0) : null,
      medium: has ? (a?.medium ?? 0) : null,
      large: has ? (a?.large ?? 0) : null,
      major: has ? (a?.major ?? 0) : null,
    };
  };
}

/** The largest simultaneous customers out per area, by year and by month. */
function peaks(input: ReportInputs): Pick<ReportBasis, 'statePeakBy' | 'natPeakBy'> {
  const statePeakBy = new Map<string, number>();
  for (const p of input.statePeaks) {
    const code = stateByFips(p.st)?.code;
    if (!code) continue;
    statePeakBy.set(`${p.y}|${code}`, Math.max(statePeakBy.get(`${p.y}|${code}`) ?? 0, p.peak));
    statePeakBy.set(`${p.y}|${p.m}|${code}`, p.peak);
  }
  const natPeakBy = new Map<string, number>();
  for (const p of input.natPeaks) {
    natPeakBy.set(String(p.y), Math.max(natPeakBy.get(String(p.y)) ?? 0, p.peak));
    natPeakBy.set(`${p.y}|${p.m}`, p.peak);
  }
  return { statePeakBy, natPeakBy };
}
