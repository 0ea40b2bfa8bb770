// Row formats several report tables share: an episode, an OE-417 disturbance, causes, months, year-over-year change.
import { loadAtlas } from '../../geo/counties.ts';
import { stateByFips } from '../../geo/states.ts';
import type { ReportInputs } from './inputs.ts';
import { groupBy, median, MONTHS_IN_YEAR, pct, r2, type Disturbance, type EpisodeRec, type Row } from './shared.ts';

export const episodeRow = (e: EpisodeRec): Row => {
  const c = loadAtlas().byFips.get(e.fips);
  return {
    fips: e.fips,
    name: c?.name ?? null,
    state: c?.state ?? stateByFips(e.fips.slice(0, 2))?.code ?? null,
    start_at: e.start_at,
    end_at: e.end_at,
    peak: e.peak,
    customer_hours: r2(e.customer_hours),
    duration_h: r2(e.duration_h),
    size_class: e.size_class,
    source: e.source,
  };
};

export const disturbanceRow = (d: Disturbance): Row => ({
  began_at: d.began_at,
  restored_at: d.restored_at,
  restoration: d.restoration,
  area: d.area,
  states: d.states,
  nerc: d.nerc,
  event_type: d.event_type,
  alert_criteria: d.alert_criteria,
  cause: d.cause,
  demand_loss_mw: d.demand_loss_mw,
  customers_affected: d.customers_affected,
});

/** An OE-417 event counts in every state its Area Affected names. */
export const inState = (d: Disturbance, code: string) => d.states.split(',').includes(code);

/** Disturbances by cause, most events first; `extra` adds a count of the events it matches (events_naming_county). */
export const causesOf = (ds: Disturbance[], extra?: (d: Disturbance) => boolean): Row[] =>
  [...groupBy(ds, (d) => d.cause)]
    .map(([cause, xs]) => {
      const durations = xs
        .filter((d) => d.restored_at)
        .map((d) => (Date.parse(`${d.restored_at}Z`) - Date.parse(`${d.began_at}Z`)) / 3_600_000);
      return {
        cause,
        events: xs.length,
        ...(extra ? { events_naming_county: xs.filter(extra).length } : {}),
        customers_affected: xs.reduce((s, d) => s + (d.customers_affected ?? 0), 0),
        demand_loss_mw: r2(xs.reduce((s, d) => s + (d.demand_loss_mw ?? 0), 0)),
        median_duration_h: r2(median(durations)),
      };
    })
    .sort((a, b) => (b.events as number) - (a.events as number) || String(a.cause).localeCompare(String(b.cause)));

/** yoy_pct: change of customer_hours from the previous row (year), in percent. */
export const withYoy = (rows: Row[]): Row[] =>
  rows.map((r, i) => ({
    ...r,
    yoy_pct: i > 0 ? pct(r.customer_hours as number | null, rows[i - 1].customer_hours as number | null) : null,
  }));

/** The twelve months of an area's year (null values when the year is not loaded, or OE-417 lacks it). */
export function monthRows(
  b: Pick<ReportInputs, 'loaded' | 'oe417'>,
  y: number,
  eps: EpisodeRec[],
  peakOf: (m: number) => number | null,
  ds: Disturbance[],
): Row[] {
  const isLoaded = b.loaded.includes(y);
  const byM = groupBy(eps, (e) => String(e.m));
  const dsM = groupBy(ds, (d) => String(d.m));
  return Array.from({ length: MONTHS_IN_YEAR }, (_, i) => {
    const m = i + 1;
    const xs = byM.get(String(m)) ?? [];
    return {
      year: y,
      month: m,
      loaded: isLoaded,
      episodes: isLoaded ? xs.length : null,
      customer_hours: isLoaded ? r2(xs.reduce((s, e) => s + e.customer_hours, 0)) : null,
      max_county_out: isLoaded ? Math.max(0, ...xs.map((e) => e.peak)) : null,
      peak_out: isLoaded ? (peakOf(m) ?? 0) : null,
      disturbances: b.oe417.includes(y) ? (dsM.get(String(m)) ?? []).length : null,
    };
  });
}
