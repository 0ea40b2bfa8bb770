// The county annual report of one observed county-year: summary (with its state and national comparison), years,
// months, events, causes and utilities. Built when published or asked for, not held: there are tens of thousands.
import type { ReportBasis } from './basis.ts';
import { causesOf, episodeRow, inState, monthRows, withYoy } from './rows.ts';
import type { Utilities } from './utilities.ts';
import type { Rankings } from './year.ts';
import { r2, type Disturbance, type Row } from './shared.ts';

/** One county-year's report: the summary with its comparisons, and its tables. */
export interface CountyTables {
  summary: Record<string, unknown>;
  years: Row[];
  months: Row[];
  events: Row[];
  causes: Row[];
  utilities: Row[];
}

/** A county is named by an OE-417 event when its name appears as a word in Area Affected. */
const namesCountyOf = (name: string) => {
  const word = new RegExp(`\\b${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i');
  return (d: Disturbance) => word.test(d.area ?? '');
};

/** `make(key)` computed once per key: the builder is called for every year of every county. */
function memo<T>(make: (key: string) => T): (key: string) => T {
  const known = new Map<string, T>();
  return (key) => {
    if (!known.has(key)) known.set(key, make(key));
    return known.get(key)!;
  };
}

export function countyTablesOf(
  b: ReportBasis,
  ranks: Rankings,
  utilities: Utilities,
): (y: number, fips: string) => CountyTables | null {
  const years = memo((fips) => withYoy(b.range.map((yy) => b.countyRow(yy, b.atlas.byFips.get(fips)!))));
  const stateDisturbances = memo((key) => {
    const [y, code] = key.split('|');
    return (b.disturbancesByYear.get(y) ?? []).filter((d) => inState(d, code));
  });
  return (y, fips) => {
    const county = b.atlas.byFips.get(fips);
    if (!county || !b.loaded.includes(y)) return null;
    const code = county.state;
    const r = b.countyRow(y, county);
    if (r.coverage !== 'observed') return null;
    const { rank: nationalRank, median: nationalMedian } = ranks.national.get(y)!;
    const { rank: sRank, median: stateMedian } = ranks.state.get(`${y}|${code}`)!;
    const cEps = b.episodesByCounty.get(`${y}|${fips}`) ?? [];
    const longest = [...cEps].sort((a, c) => c.duration_h - a.duration_h || a.start_at.localeCompare(c.start_at))[0];
    const utilitiesRows = utilities.utilitiesOf(y, fips, code);
    return {
      summary: {
        ...r,
        episodes_by_size: { small: r.small, medium: r.medium, large: r.large, major: r.major },
        longest_episode: longest ? episodeRow(longest) : null,
        state_comparison: {
          state: code,
          counties_ranked: sRank.size,
          rank: sRank.get(fips) ?? null,
          median_hours_per_customer: r2(stateMedian),
          hours_per_customer: r.hours_per_customer,
        },
        national_comparison: {
          counties_ranked: nationalRank.size,
          rank: nationalRank.get(fips) ?? null,
          median_hours_per_customer: r2(nationalMedian),
          percentile:
            nationalRank.size && nationalRank.has(fips)
              ? r2((1 - (nationalRank.get(fips)! - 1) / nationalRank.size) * 100)
              : null,
        },
        utilities: utilitiesRows,
      },
      years: years(fips),
      months: monthRows(b, y, cEps, () => null, []).map(({ peak_out: _p, disturbances: _d, ...m }) => m),
      events: [...cEps].sort((a, c) => a.start_at.localeCompare(c.start_at)).map(episodeRow),
      causes: causesOf(stateDisturbances(`${y}|${code}`), namesCountyOf(county.name)),
      utilities: utilitiesRows,
    };
  };
}
