// Annual report tables, computed in DuckDB from the imported history: EAGLE-I episodes and 15-minute series,
// EAGLE-I coverage, OE-417 disturbances and EIA-861 utilities. Definitions (also in the README and OpenAPI):
//  - episodes, customer_hours, max_out, longest: from the county episodes (history/derive.ts), by the year and month
//    the episode started;
//  - peak_out: the largest simultaneous customers out (sum over the area's counties at one 15-minute time);
//  - hours_per_customer: customer_hours ÷ customers (the county denominator: EAGLE-I MCC, else the shipped model) —
//    the average hours without power per customer, comparable to SAIDI (which is in minutes and excludes nothing);
//  - a county-year is `observed` (it has EAGLE-I rows), `zero` (no rows, but its state was covered that year:
//    coverage_history says so, or without coverage data its state has rows) or `not_covered` (values are null);
//  - disturbances: OE-417 events whose Area Affected names the state (a multi-state event counts in each);
//  - yoy_pct: change of customer_hours from the previous year, in percent (null when either year is not loaded).
import type { Db } from '../state/db.ts';
import { loadAtlas } from '../geo/counties.ts';
import { STATES, stateByFips } from '../geo/states.ts';
import { loadCountyCustomers } from './derive.ts';
import { EVENTS_TOP } from '../contract/report-columns.ts';

export const REPORT_FIRST_YEAR = 2014;
export const MONTHS_IN_YEAR = 12;

export type Value = string | number | boolean | null;
export type Row = Record<string, Value>;

export interface YearTables { counties: Row[]; events: Row[]; states: Row[]; months: Row[]; causes: Row[]; disturbances: Row[] }
export interface StateTables { counties: Row[]; events: Row[]; months: Row[]; causes: Row[] }
export interface CountyTables { summary: Record<string, unknown>; years: Row[]; months: Row[]; events: Row[]; causes: Row[]; utilities: Row[] }

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
}

const r2 = (v: number | null | undefined): number | null => (v === null || v === undefined || !Number.isFinite(v) ? null : Math.round(v * 100) / 100);
const pct = (a: number | null, b: number | null): number | null => (a === null || b === null || b === 0 ? null : r2(((a - b) / b) * 100));
const median = (xs: number[]): number | null => {
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

interface CountyYearAgg { fips: string; y: number; episodes: number; ch: number; max_out: number; longest_h: number; small: number; medium: number; large: number; major: number }
interface EpisodeRec { fips: string; y: number; m: number; start_at: string; end_at: string; peak: number; customer_hours: number; duration_h: number; size_class: string }
interface Disturbance { year: number; m: number; began_at: string; restored_at: string | null; restoration: string; area: string | null; states: string; nerc: string | null; event_type: string | null; alert_criteria: string | null; cause: string; demand_loss_mw: number | null; customers_affected: number | null }

export async function computeReports(db: Db, model: Map<string, number>, now: Date): Promise<Reports> {
  await loadCountyCustomers(db, model);
  const atlas = loadAtlas();
  const customersOf = (fips: string) => model.get(fips) ?? null;
  const range: number[] = [];
  for (let y = REPORT_FIRST_YEAR; y <= now.getUTCFullYear(); y++) range.push(y);

  // The 15-minute series summed by state and time: simultaneous peaks, and which states/years have rows.
  await db.run(`CREATE OR REPLACE TEMP TABLE state_ts AS
    SELECT substr(fips, 1, 2) AS st, run_start_time AS t, sum(customers_out)::BIGINT AS out FROM eaglei_outages GROUP BY ALL`);
  const statePeaks = await db.all<{ st: string; y: number; m: number; peak: number }>('SELECT st, year(t)::INT AS y, month(t)::INT AS m, max(out)::BIGINT AS peak FROM state_ts GROUP BY ALL');
  const natPeaks = await db.all<{ y: number; m: number; peak: number }>('SELECT year(t)::INT AS y, month(t)::INT AS m, max(out)::BIGINT AS peak FROM (SELECT t, sum(out) AS out FROM state_ts GROUP BY t) GROUP BY ALL');
  const observed = await db.all<{ fips: string; y: number }>('SELECT DISTINCT fips, year(run_start_time)::INT AS y FROM eaglei_outages');
  const loaded = [...new Set(natPeaks.map((r) => r.y))].filter((y) => range.includes(y)).sort();
  const coverage = await db.all<{ year: number; state: string; total_customers: number; min_covered: number; max_covered: number }>('SELECT * FROM eaglei_coverage');
  const covOf = new Map(coverage.map((c) => [`${c.year}|${c.state}`, c]));

  const countyYears = await db.all<CountyYearAgg>(`SELECT fips, year(start_at)::INT AS y, count(*)::INT AS episodes, sum(customer_hours) AS ch, max(peak)::INT AS max_out, max(duration_h) AS longest_h,
      count(*) FILTER (WHERE size_class = 'small')::INT AS small, count(*) FILTER (WHERE size_class = 'medium')::INT AS medium,
      count(*) FILTER (WHERE size_class = 'large')::INT AS large, count(*) FILTER (WHERE size_class = 'major')::INT AS major
    FROM episodes GROUP BY ALL`);
  const episodes = await db.all<EpisodeRec>(`SELECT fips, year(start_at)::INT AS y, month(start_at)::INT AS m, strftime(start_at, '%Y-%m-%dT%H:%M:%SZ') AS start_at,
      strftime(end_at, '%Y-%m-%dT%H:%M:%SZ') AS end_at, peak, customer_hours, duration_h, size_class FROM episodes ORDER BY customer_hours DESC, start_at, fips`);
  const disturbances = await db.all<Disturbance>(`SELECT year, month(began_at)::INT AS m, strftime(began_at, '%Y-%m-%dT%H:%M:%S') AS began_at, strftime(restored_at, '%Y-%m-%dT%H:%M:%S') AS restored_at,
      restoration, area, states, nerc, event_type, alert_criteria, cause, demand_loss_mw, customers_affected FROM oe417_events ORDER BY began_at, area`);
  const oe417 = [...new Set(disturbances.map((d) => d.year))].sort();

  // EIA-861: for a report year, the latest file year at or before it (else the earliest).
  const territory = await db.all<{ year: number; utility_number: number; utility_name: string; state: string; fips: string }>('SELECT year, utility_number, utility_name, state, fips FROM eia861_territory');
  const reliability = await db.all<Row & { year: number; utility_number: number; state: string; standard: string }>('SELECT * FROM eia861_reliability');
  const sales = await db.all<{ year: number; utility_number: number; state: string; customers: number }>(`SELECT year, utility_number, state, sum(customers)::BIGINT AS customers FROM eia861_customers
    WHERE coalesce(service_type, '') <> 'Energy' GROUP BY ALL`);
  const eia861 = [...new Set([...territory, ...reliability, ...sales].map((r) => r.year))].sort();
  const eiaYearFor = (years: number[], y: number) => [...years].reverse().find((x) => x <= y) ?? years[0];
  const territoryYears = [...new Set(territory.map((t) => t.year))].sort();
  const reliabilityYears = [...new Set(reliability.map((t) => t.year))].sort();
  const salesYears = [...new Set(sales.map((t) => t.year))].sort();
  const territoryBy = groupBy(territory, (t) => `${t.year}|${t.fips}`);
  const reliabilityBy = groupBy(reliability, (r) => `${r.year}|${r.utility_number}|${r.state}`);
  const salesBy = new Map(sales.map((s) => [`${s.year}|${s.utility_number}|${s.state}`, s.customers]));

  const aggBy = new Map(countyYears.map((c) => [`${c.y}|${c.fips}`, c]));
  const observedSet = new Set(observed.map((o) => `${o.y}|${o.fips}`));
  const statesWithRows = new Set(statePeaks.map((p) => `${p.y}|${stateByFips(p.st)?.code}`));
  const episodesBy = groupBy(episodes, (e) => `${e.y}|${e.fips}`);
  const disturbancesByYear = groupBy(disturbances, (d) => String(d.year));

  const status = (y: number, fips: string, code: string): 'observed' | 'zero' | 'not_covered' | null => {
    if (!loaded.includes(y)) return null;
    if (observedSet.has(`${y}|${fips}`)) return 'observed';
    const cov = covOf.get(`${y}|${code}`);
    if (cov ? cov.max_covered > 0 : statesWithRows.has(`${y}|${code}`)) return 'zero';
    return 'not_covered';
  };

  /** One county-year's numbers (null when not covered or not loaded). */
  const countyRow = (y: number, c: { fips: string; name: string; state: string }): Row => {
    const st = status(y, c.fips, c.state);
    const a = aggBy.get(`${y}|${c.fips}`);
    const has = st === 'observed' || st === 'zero';
    const customers = customersOf(c.fips);
    const ch = has ? r2(a?.ch ?? 0) : null;
    return {
      year: y, fips: c.fips, name: c.name, state: c.state, loaded: st !== null, coverage: st, customers,
      episodes: has ? a?.episodes ?? 0 : null, customer_hours: ch, hours_per_customer: has && customers ? r2((a?.ch ?? 0) / customers) : null,
      max_out: has ? a?.max_out ?? 0 : null, longest_h: has ? r2(a?.longest_h ?? 0) : null,
      small: has ? a?.small ?? 0 : null, medium: has ? a?.medium ?? 0 : null, large: has ? a?.large ?? 0 : null, major: has ? a?.major ?? 0 : null,
    };
  };

  const counties = atlas.counties.filter((c) => stateByFips(c.stateFips));
  const countiesByState = groupBy(counties, (c) => c.state);
  const episodeRow = (e: EpisodeRec): Row => {
    const c = atlas.byFips.get(e.fips);
    return { fips: e.fips, name: c?.name ?? null, state: c?.state ?? stateByFips(e.fips.slice(0, 2))?.code ?? null, start_at: e.start_at, end_at: e.end_at, peak: e.peak, customer_hours: r2(e.customer_hours), duration_h: r2(e.duration_h), size_class: e.size_class };
  };
  const disturbanceRow = (d: Disturbance): Row => ({
    began_at: d.began_at, restored_at: d.restored_at, restoration: d.restoration, area: d.area, states: d.states, nerc: d.nerc,
    event_type: d.event_type, alert_criteria: d.alert_criteria, cause: d.cause, demand_loss_mw: d.demand_loss_mw, customers_affected: d.customers_affected,
  });
  const causesOf = (ds: Disturbance[], extra?: (d: Disturbance) => boolean): Row[] => [...groupBy(ds, (d) => d.cause)].map(([cause, xs]) => {
    const durations = xs.filter((d) => d.restored_at).map((d) => (Date.parse(`${d.restored_at}Z`) - Date.parse(`${d.began_at}Z`)) / 3_600_000);
    return {
      cause, events: xs.length, ...(extra ? { events_naming_county: xs.filter(extra).length } : {}),
      customers_affected: xs.reduce((s, d) => s + (d.customers_affected ?? 0), 0), demand_loss_mw: r2(xs.reduce((s, d) => s + (d.demand_loss_mw ?? 0), 0)),
      median_duration_h: r2(median(durations)),
    };
  }).sort((a, b) => (b.events as number) - (a.events as number) || String(a.cause).localeCompare(String(b.cause)));
  const inState = (d: Disturbance, code: string) => d.states.split(',').includes(code);

  /** The totals of an area in a year from its county rows (null values when the year is not loaded). */
  const areaTotals = (y: number, rows: Row[], peak: number | null, ds: Disturbance[], cov: { total: number; max: number; min: number } | null): Row => {
    const isLoaded = loaded.includes(y);
    const covered = rows.filter((r) => r.coverage === 'observed' || r.coverage === 'zero');
    const sum = (k: string) => covered.reduce((s, r) => s + ((r[k] as number) ?? 0), 0);
    const customers = covered.reduce((s, r) => s + ((r.customers as number) ?? 0), 0);
    return {
      year: y, loaded: isLoaded,
      counties_covered: isLoaded ? covered.length : null, customers: isLoaded ? customers : null,
      episodes: isLoaded ? sum('episodes') : null, major_episodes: isLoaded ? sum('major') : null,
      customer_hours: isLoaded ? r2(sum('customer_hours')) : null, hours_per_customer: isLoaded && customers ? r2(sum('customer_hours') / customers) : null,
      max_county_out: isLoaded ? Math.max(0, ...covered.map((r) => (r.max_out as number) ?? 0)) : null, peak_out: isLoaded ? peak ?? 0 : null,
      disturbances: oe417.includes(y) ? ds.length : null, disturbance_customers: oe417.includes(y) ? ds.reduce((s, d) => s + (d.customers_affected ?? 0), 0) : null,
      coverage_customers: cov ? Math.round(cov.total) : null, coverage_min: cov ? Math.round(cov.min) : null, coverage_max: cov ? Math.round(cov.max) : null,
      coverage_pct: cov && cov.total > 0 ? r2((cov.max / cov.total) * 100) : null,
    };
  };
  const withYoy = (rows: Row[]): Row[] => rows.map((r, i) => ({ ...r, yoy_pct: i > 0 ? pct(r.customer_hours as number | null, rows[i - 1].customer_hours as number | null) : null }));

  const statePeakBy = new Map<string, number>();
  for (const p of statePeaks) {
    const code = stateByFips(p.st)?.code;
    if (!code) continue;
    statePeakBy.set(`${p.y}|${code}`, Math.max(statePeakBy.get(`${p.y}|${code}`) ?? 0, p.peak));
    statePeakBy.set(`${p.y}|${p.m}|${code}`, p.peak);
  }
  const natPeakBy = new Map<string, number>();
  for (const p of natPeaks) {
    natPeakBy.set(String(p.y), Math.max(natPeakBy.get(String(p.y)) ?? 0, p.peak));
    natPeakBy.set(`${p.y}|${p.m}`, p.peak);
  }

  const countyRowsByYear = new Map(range.map((y) => [y, counties.map((c) => countyRow(y, c))]));
  const national: Row[] = withYoy(range.map((y) => {
    const cov = coverage.filter((c) => c.year === y);
    return areaTotals(y, countyRowsByYear.get(y)!, natPeakBy.get(String(y)) ?? null, disturbancesByYear.get(String(y)) ?? [],
      cov.length ? { total: cov.reduce((s, c) => s + c.total_customers, 0), min: cov.reduce((s, c) => s + c.min_covered, 0), max: cov.reduce((s, c) => s + c.max_covered, 0) } : null);
  }));
  const stateCodes = STATES.map((s) => s.code).filter((code) => countiesByState.has(code));
  const stateYear = (y: number, code: string): Row => {
    const cov = covOf.get(`${y}|${code}`);
    const rows = countyRowsByYear.get(y)!.filter((r) => r.state === code);
    return { state: code, ...areaTotals(y, rows, statePeakBy.get(`${y}|${code}`) ?? null, (disturbancesByYear.get(String(y)) ?? []).filter((d) => inState(d, code)),
      cov ? { total: cov.total_customers, min: cov.min_covered, max: cov.max_covered } : null) };
  };
  const states: Row[] = stateCodes.flatMap((code) => withYoy(range.map((y) => stateYear(y, code))).map((r): Row => ({ ...r, state: code })))
    .sort((a, b) => (a.year as number) - (b.year as number) || String(a.state).localeCompare(String(b.state)));

  const monthRows = (y: number, eps: EpisodeRec[], peakOf: (m: number) => number | null, ds: Disturbance[]): Row[] => {
    const isLoaded = loaded.includes(y);
    const byM = groupBy(eps, (e) => String(e.m));
    const dsM = groupBy(ds, (d) => String(d.m));
    return Array.from({ length: MONTHS_IN_YEAR }, (_, i) => {
      const m = i + 1;
      const xs = byM.get(String(m)) ?? [];
      return {
        year: y, month: m, loaded: isLoaded, episodes: isLoaded ? xs.length : null, customer_hours: isLoaded ? r2(xs.reduce((s, e) => s + e.customer_hours, 0)) : null,
        max_county_out: isLoaded ? Math.max(0, ...xs.map((e) => e.peak)) : null, peak_out: isLoaded ? peakOf(m) ?? 0 : null,
        disturbances: oe417.includes(y) ? (dsM.get(String(m)) ?? []).length : null,
      };
    });
  };

  const rank = (rows: Row[]) => {
    const sorted = rows.filter((r) => r.hours_per_customer !== null).sort((a, b) => (b.hours_per_customer as number) - (a.hours_per_customer as number));
    return new Map(sorted.map((r, i) => [r.fips as string, i + 1]));
  };

  const byYear = new Map<number, YearTables>();
  const byState = new Map<string, StateTables>();
  const countyKeys: string[] = [];
  const rankBy = new Map<string, { national: Map<string, number>; nationalMedian: number | null; state: Map<string, number>; stateMedian: number | null }>();
  const episodesByYear = groupBy(episodes, (e) => String(e.y));
  for (const y of range) {
    const rows = countyRowsByYear.get(y)!;
    const eps = episodesByYear.get(String(y)) ?? [];
    const ds = disturbancesByYear.get(String(y)) ?? [];
    const nationalRank = rank(rows);
    const countyTable = rows.filter((r) => r.coverage !== null).map((r) => ({ ...r, rank_national: nationalRank.get(r.fips as string) ?? null }));
    byYear.set(y, {
      counties: countyTable, events: eps.slice(0, EVENTS_TOP).map(episodeRow), states: states.filter((s) => s.year === y),
      months: monthRows(y, eps, (m) => natPeakBy.get(`${y}|${m}`) ?? null, ds), causes: causesOf(ds), disturbances: ds.map(disturbanceRow),
    });
    const nationalMedian = median(rows.filter((r) => r.hours_per_customer !== null).map((r) => r.hours_per_customer as number));
    for (const code of stateCodes) {
      const sRows = rows.filter((r) => r.state === code);
      const sRank = rank(sRows);
      const sEps = eps.filter((e) => atlas.byFips.get(e.fips)?.state === code);
      const sDs = ds.filter((d) => inState(d, code));
      byState.set(`${y}|${code}`, {
        counties: sRows.filter((r) => r.coverage !== null).map((r) => ({ ...r, rank_state: sRank.get(r.fips as string) ?? null })),
        events: sEps.slice(0, EVENTS_TOP).map(episodeRow), months: monthRows(y, sEps, (m) => statePeakBy.get(`${y}|${m}|${code}`) ?? null, sDs), causes: causesOf(sDs),
      });
      const stateMedian = median(sRows.filter((r) => r.hours_per_customer !== null).map((r) => r.hours_per_customer as number));
      rankBy.set(`${y}|${code}`, { national: nationalRank, nationalMedian, state: sRank, stateMedian });
      for (const r of sRows) if (r.coverage === 'observed') countyKeys.push(`${y}|${r.fips}`);
    }
  }

  /** The county annual report of one observed county-year (built when published or asked for, not held). */
  function countyTables(y: number, fips: string): CountyTables | null {
    const county = atlas.byFips.get(fips);
    if (!county || !loaded.includes(y)) return null;
    const code = county.state;
    const r = countyRow(y, county);
    if (r.coverage !== 'observed') return null;
    const { national: nationalRank, nationalMedian, state: sRank, stateMedian } = rankBy.get(`${y}|${code}`)!;
    const cEps = episodesBy.get(`${y}|${fips}`) ?? [];
    const longest = [...cEps].sort((a, b) => b.duration_h - a.duration_h || a.start_at.localeCompare(b.start_at))[0];
    const name = county.name;
    const namesCounty = (d: Disturbance) => new RegExp(`\\b${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(d.area ?? '');
    const utilities = utilitiesOf(y, fips, code);
    return {
      summary: {
        ...r, episodes_by_size: { small: r.small, medium: r.medium, large: r.large, major: r.major },
        longest_episode: longest ? episodeRow(longest) : null,
        state_comparison: { state: code, counties_ranked: sRank.size, rank: sRank.get(fips) ?? null, median_hours_per_customer: r2(stateMedian), hours_per_customer: r.hours_per_customer },
        national_comparison: {
          counties_ranked: nationalRank.size, rank: nationalRank.get(fips) ?? null, median_hours_per_customer: r2(nationalMedian),
          percentile: nationalRank.size && nationalRank.has(fips) ? r2((1 - (nationalRank.get(fips)! - 1) / nationalRank.size) * 100) : null,
        },
        utilities,
      },
      years: withYoy(range.map((yy) => countyRow(yy, county))),
      months: monthRows(y, cEps, () => null, []).map(({ peak_out: _p, disturbances: _d, ...m }) => m),
      events: [...cEps].sort((a, b) => a.start_at.localeCompare(b.start_at)).map(episodeRow),
      causes: causesOf((disturbancesByYear.get(String(y)) ?? []).filter((d) => inState(d, code)), namesCounty),
      utilities,
    };
  }

  function utilitiesOf(y: number, fips: string, code: string): Row[] {
    if (territoryYears.length === 0) return [];
    const ty = eiaYearFor(territoryYears, y);
    const ry = reliabilityYears.length ? eiaYearFor(reliabilityYears, y) : null;
    const sy = salesYears.length ? eiaYearFor(salesYears, y) : null;
    return (territoryBy.get(`${ty}|${fips}`) ?? []).map((t) => {
      const rel = ry === null ? [] : reliabilityBy.get(`${ry}|${t.utility_number}|${code}`) ?? [];
      const ieee = rel.find((x) => x.standard === 'ieee');
      const pick = ieee ?? rel[0];
      return {
        utility_number: t.utility_number, utility_name: t.utility_name, state: code, territory_year: ty,
        customers_in_state: sy === null ? null : salesBy.get(`${sy}|${t.utility_number}|${code}`) ?? null,
        reliability_year: pick ? (pick.year as number) : null, standard: pick ? (pick.standard as string) : null,
        saidi_with_med: (pick?.saidi_with_med as number) ?? null, saifi_with_med: (pick?.saifi_with_med as number) ?? null,
        saidi_without_med: (pick?.saidi_without_med as number) ?? null, saifi_without_med: (pick?.saifi_without_med as number) ?? null,
      };
    }).sort((a, b) => (b.customers_in_state ?? 0) - (a.customers_in_state ?? 0) || a.utility_name.localeCompare(b.utility_name));
  }

  const causes = range.flatMap((y) => (oe417.includes(y) ? causesOf(disturbancesByYear.get(String(y)) ?? []).map((c) => ({ year: y, ...c })) : []));
  const trend = [
    ...national.map((r) => ({ scope: 'US', ...pickTrend(r) })),
    ...states.map((r) => ({ scope: r.state as string, ...pickTrend(r) })),
  ];
  return { range, loaded, oe417, eia861, national, states, byYear, byState, countyYears: countyKeys, countyTables, causes, trend };
}

function pickTrend(r: Row): Row {
  return { year: r.year, loaded: r.loaded, episodes: r.episodes, customer_hours: r.customer_hours, hours_per_customer: r.hours_per_customer, peak_out: r.peak_out, disturbances: r.disturbances, yoy_pct: r.yoy_pct };
}
