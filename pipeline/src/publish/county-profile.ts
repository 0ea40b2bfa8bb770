// County profile (/api/v1/counties/{fips}) and county history (/api/v1/counties/{fips}/history), prebuilt for every
// county with customers out or with imported history; the function layer answers the rest from the live document.
import { endpoint } from '../contract/catalogue.ts';
import { fileFor } from '../contract/urls.ts';
import { loadAtlas } from '../geo/counties.ts';
import { stateByFips } from '../geo/states.ts';
import {
  EPISODE_GAP_MIN,
  EPISODE_MIN,
  EPISODE_SHARE,
  SIZE_CLASSES,
  type CountyMonth,
  type CountyYear,
  type EpisodeRow,
} from '../history/derive.ts';
import type { CountyLive } from '../state/rollup.ts';
import type { TreeWriter } from './tree-writer.ts';
import { historyCredit } from './chart-specs.ts';
import { putCsv, putJson } from './formats.ts';

/** The one rule for where history's figures come from (state/schema.sql `history_series`; docs/archive-and-history.md, OpenAPI). */
export const HISTORY_SOURCE_RULE =
  "EAGLE-I's county outage series (ORNL, CC BY 4.0) for every quarter hour of a loaded EAGLE-I year up to its last EAGLE-I time; the live archive (this service's own 15-minute county series, /api/v1/archive) for every finished day after it. Where both cover a period, EAGLE-I's figures are used. Each row's `source` says which it comes from: eaglei, archive or both; simulated where the deployment's history is its built-in simulator's (credited to no one).";

export const EPISODE_RULE = {
  threshold: `max(${EPISODE_MIN}, ceil(${EPISODE_SHARE * 100} % of the county's customers))`,
  gap_minutes: EPISODE_GAP_MIN,
  start: 'first 15-minute interval at or above the threshold',
  end: 'last such interval + 15 minutes (intervals at most 60 minutes apart belong to one episode)',
  customer_hours: 'sum of customers_out × 0.25 h over the intervals of the episode at or above the threshold',
  size_classes: Object.fromEntries(SIZE_CLASSES.map(([name, min]) => [name, `peak ≥ ${min.toLocaleString('en-US')}`])),
  source: HISTORY_SOURCE_RULE,
};

export const YEAR_COLUMNS = [
  'fips',
  'name',
  'state',
  'year',
  'episodes',
  'customer_hours',
  'max_out',
  'longest_h',
  'small',
  'medium',
  'large',
  'major',
  'source',
] as const;
export const MONTH_COLUMNS = [
  'fips',
  'name',
  'state',
  'year',
  'month',
  'episodes',
  'customer_hours',
  'max_out',
  'source',
] as const;

export interface History {
  years: CountyYear[];
  months: CountyMonth[];
  worst: EpisodeRow[];
}

export function profileDoc(
  c: Pick<
    CountyLive,
    | 'fips'
    | 'name'
    | 'state'
    | 'customers_out'
    | 'pct_out'
    | 'band'
    | 'magnitude'
    | 'level'
    | 'stale'
    | 'customers_modelled'
  >,
  mcc: boolean,
  years: CountyYear[],
  /** the years whose history is loaded (EAGLE-I, the live archive or both) */
  loaded: number[],
  simulated = false,
) {
  return {
    fips: c.fips,
    name: c.name,
    state: c.state,
    state_name: stateByFips(c.fips.slice(0, 2))?.name ?? null,
    customers: c.customers_modelled,
    customers_source: c.customers_modelled === null ? null : mcc ? 'eaglei_mcc' : 'model',
    neighbours: loadAtlas().neighbours.get(c.fips) ?? [],
    live: {
      customers_out: c.customers_out,
      pct_out: c.pct_out,
      band: c.band,
      magnitude: c.magnitude,
      level: c.level,
      stale: c.stale,
      url: `/api/v1/live/counties/${c.fips}`,
    },
    history_loaded: years.length > 0,
    history_simulated: simulated,
    history_credit: years.length ? historyCredit(years, simulated) : null,
    years_loaded: loaded,
    years,
  };
}

export function historyDoc(c: { fips: string; name: string; state: string }, h: History | undefined) {
  return {
    fips: c.fips,
    name: c.name,
    state: c.state,
    episode_rule: EPISODE_RULE,
    months: h?.months ?? [],
    worst_events: h?.worst ?? [],
  };
}

export const yearRows = (c: { fips: string; name: string; state: string }, years: CountyYear[]) =>
  years.map((y) => [
    c.fips,
    c.name,
    c.state,
    y.year,
    y.episodes,
    y.customer_hours,
    y.max_out,
    y.longest_h,
    y.by_size.small ?? 0,
    y.by_size.medium ?? 0,
    y.by_size.large ?? 0,
    y.by_size.major ?? 0,
    y.source,
  ]);
export const monthRows = (c: { fips: string; name: string; state: string }, months: CountyMonth[]) =>
  months.map((m) => [c.fips, c.name, c.state, m.year, m.month, m.episodes, m.customer_hours, m.max_out, m.source]);

export function publishCountyProfiles(
  w: TreeWriter,
  counties: CountyLive[],
  histories: Map<string, History>,
  mcc: ReadonlySet<string>,
  loaded: number[],
  simulated: boolean,
): void {
  const [profileE, historyE] = [endpoint('county'), endpoint('county.history')];
  for (const c of counties) {
    const h = histories.get(c.fips);
    if (c.customers_out <= 0 && !h) continue;
    const p = { fips: c.fips };
    const profile = profileDoc(c, mcc.has(c.fips), h?.years ?? [], loaded, simulated);
    const json = fileFor(profileE, p, 'json');
    if (!(w.same(json, Buffer.from(JSON.stringify(profile))) && w.keep(json) && w.keep(fileFor(profileE, p, 'csv')))) {
      putJson(w, json, profile);
      putCsv(w, fileFor(profileE, p, 'csv'), YEAR_COLUMNS, () => yearRows(c, h?.years ?? []));
    }
    const hist = historyDoc(c, h);
    const hjson = fileFor(historyE, p, 'json');
    if (!(w.same(hjson, Buffer.from(JSON.stringify(hist))) && w.keep(hjson) && w.keep(fileFor(historyE, p, 'csv')))) {
      putJson(w, hjson, hist);
      putCsv(w, fileFor(historyE, p, 'csv'), MONTH_COLUMNS, () => monthRows(c, h?.months ?? []));
    }
  }
}
