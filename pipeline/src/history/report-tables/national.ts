// The decade tables across years: national (one row per year), states (one per state-year), causes and trend.
import type { ReportBasis } from './basis.ts';
import { causesOf, inState, withYoy } from './rows.ts';
import { r2, type Disturbance, type Row } from './shared.ts';

interface CoverageSum {
  total: number;
  max: number;
  min: number;
}

/** The totals of an area in a year from its county rows (null values when the year is not loaded). */
function areaTotals(
  b: ReportBasis,
  y: number,
  rows: Row[],
  peak: number | null,
  ds: Disturbance[],
  cov: CoverageSum | null,
): Row {
  const isLoaded = b.loaded.includes(y);
  const covered = rows.filter((r) => r.coverage === 'observed' || r.coverage === 'zero');
  const sum = (k: string) => covered.reduce((s, r) => s + ((r[k] as number) ?? 0), 0);
  const customers = covered.reduce((s, r) => s + ((r.customers as number) ?? 0), 0);
  const from = b.yearSourceOf.get(y);
  return {
    year: y,
    loaded: isLoaded,
    source: isLoaded ? (from?.source ?? null) : null,
    period_start: isLoaded ? (from?.period_start ?? null) : null,
    period_end: isLoaded ? (from?.period_end ?? null) : null,
    counties_covered: isLoaded ? covered.length : null,
    customers: isLoaded ? customers : null,
    episodes: isLoaded ? sum('episodes') : null,
    major_episodes: isLoaded ? sum('major') : null,
    customer_hours: isLoaded ? r2(sum('customer_hours')) : null,
    hours_per_customer: isLoaded && customers ? r2(sum('customer_hours') / customers) : null,
    max_county_out: isLoaded ? Math.max(0, ...covered.map((r) => (r.max_out as number) ?? 0)) : null,
    peak_out: isLoaded ? (peak ?? 0) : null,
    disturbances: b.oe417.includes(y) ? ds.length : null,
    disturbance_customers: b.oe417.includes(y) ? ds.reduce((s, d) => s + (d.customers_affected ?? 0), 0) : null,
    coverage_customers: cov ? Math.round(cov.total) : null,
    coverage_min: cov ? Math.round(cov.min) : null,
    coverage_max: cov ? Math.round(cov.max) : null,
    coverage_pct: cov && cov.total > 0 ? r2((cov.max / cov.total) * 100) : null,
  };
}

export function nationalRows(b: ReportBasis): Row[] {
  return withYoy(
    b.range.map((y) => {
      const cov = b.coverage.filter((c) => c.year === y);
      return areaTotals(
        b,
        y,
        b.countyRowsByYear.get(y)!,
        b.natPeakBy.get(String(y)) ?? null,
        b.disturbancesByYear.get(String(y)) ?? [],
        cov.length
          ? {
              total: cov.reduce((s, c) => s + c.total_customers, 0),
              min: cov.reduce((s, c) => s + c.min_covered, 0),
              max: cov.reduce((s, c) => s + c.max_covered, 0),
            }
          : null,
      );
    }),
  );
}

/** Every state-year, by year then state. */
export function stateRows(b: ReportBasis): Row[] {
  const stateYear = (y: number, code: string): Row => {
    const cov = b.coverageOf.get(`${y}|${code}`);
    const rows = b.countyRowsByYear.get(y)!.filter((r) => r.state === code);
    return {
      state: code,
      ...areaTotals(
        b,
        y,
        rows,
        b.statePeakBy.get(`${y}|${code}`) ?? null,
        (b.disturbancesByYear.get(String(y)) ?? []).filter((d) => inState(d, code)),
        cov ? { total: cov.total_customers, min: cov.min_covered, max: cov.max_covered } : null,
      ),
    };
  };
  return b.stateCodes
    .flatMap((code) => withYoy(b.range.map((y) => stateYear(y, code))).map((r): Row => ({ ...r, state: code })))
    .sort((a, b) => (a.year as number) - (b.year as number) || String(a.state).localeCompare(String(b.state)));
}

/** The causes of every OE-417 year, one row per year and cause. */
export function causeRows(b: ReportBasis): Row[] {
  return b.range.flatMap((y) =>
    b.oe417.includes(y) ? causesOf(b.disturbancesByYear.get(String(y)) ?? []).map((c) => ({ year: y, ...c })) : [],
  );
}

/** The national and state rows in one long table, scope `US` or the state code. */
export function trendRows(national: Row[], states: Row[]): Row[] {
  return [
    ...national.map((r) => ({ scope: 'US', ...pickTrend(r) })),
    ...states.map((r) => ({ scope: r.state as string, ...pickTrend(r) })),
  ];
}

function pickTrend(r: Row): Row {
  return {
    year: r.year,
    loaded: r.loaded,
    episodes: r.episodes,
    customer_hours: r.customer_hours,
    hours_per_customer: r.hours_per_customer,
    peak_out: r.peak_out,
    disturbances: r.disturbances,
    yoy_pct: r.yoy_pct,
  };
}
