// The canonical snapshot every connector normalises to. Counts are customers unless `unit` says meters.
import type { TextCleaning } from './clean-text.ts';

export interface CountyCount {
  fips: string;
  /** customers (or meters) out; a masked value counts as its lower bound */
  customers_out: number;
  /** customers served as the feed publishes it, null when the feed does not say */
  customers_served: number | null;
  /** of customers_out, those out for planned work (sources/planned.ts); null or absent when not known per county */
  planned_out?: number | null;
}

export interface AreaCount {
  /** county the area lies in, when known */
  fips: string | null;
  name: string;
  /** path of names in the utility's own tree, e.g. ["North Carolina", "Wake", "Raleigh"] */
  path: string[];
  customers_out: number;
  /** the count as the utility shows it: "12", or "<5" when masked */
  out_display: string;
  out_lower: number;
  out_upper: number | null;
  masked: boolean;
  customers_served: number | null;
  etr: string | null;
  /** [west, south, east, north] when the utility publishes the area's extent (Kubra gotoMap.bbox) */
  bbox: [number, number, number, number] | null;
}

export interface Incident {
  id: string;
  fips: string | null;
  customers_out: number;
  etr: string | null;
  crew_status: string | null;
  cause: string | null;
  started_at: string | null;
  lat: number | null;
  lon: number | null;
  city: string | null;
  /**
   * planned (scheduled) work the feed flags: counted in customers_out while in progress, as the utility's headline
   * and EAGLE-I count it (issue 36 part 3); one not yet begun is listed with its start and not counted
   */
  planned: boolean;
}

export type CoverageClass = 'county' | 'utility_total' | 'outage_only';

export interface Snapshot {
  utility: string;
  unit: 'customers' | 'meters';
  /** utility-wide totals as published (null when the feed has none) */
  customers_out: number | null;
  customers_served: number | null;
  /** of customers_out, those out for planned work; null when the feed does not tell planned from unplanned */
  planned_out: number | null;
  counties: CountyCount[];
  areas: AreaCount[];
  incidents: Incident[];
  /** names the connector could not place in a county, kept for the poll log */
  unmatched: string[];
  /**
   * records whose count could not be read (sources/unreadable.ts): left out of every sum, never read as 0; one note
   * each, naming the record and the field. Beside a headline the feed published; else the poll fails.
   */
  unreadable: string[];
  notice: string | null;
  /** how the feed sees the utility (spec: `connector_coverage` classes) */
  basis: CoverageClass;
  /** an aggregator's count per EIA-861 utility number (ODIN, every utility it lists): reconciliation with deep rows */
  by_utility?: Record<string, number>;
  /** what the quarantine step cleaned from the feed's text (absent when nothing): the poll log reports it */
  text_cleaned?: TextCleaning;
}

/**
 * What the pipeline keeps of a source's last snapshot between polls: the fields its status shows and an aggregator's
 * per-utility counts (ODIN reconciliation). The observations themselves are in the database; holding every source's
 * areas and incidents as objects cost ~33 MB of heap at national scale (issue #12).
 */
export interface HeldSnapshot {
  unit: Snapshot['unit'];
  customers_out: number | null;
  customers_served: number | null;
  unmatched: number;
  unreadable: number;
  planned_out: number | null;
  notice: string | null;
  basis: CoverageClass;
  by_utility?: Record<string, number>;
}

export function heldSnapshot(s: Snapshot): HeldSnapshot {
  const { unit, customers_out, customers_served, planned_out, notice, basis, by_utility } = s;
  const unmatched = s.unmatched.length;
  return {
    unit,
    customers_out,
    customers_served,
    planned_out,
    unmatched,
    unreadable: s.unreadable.length,
    notice,
    basis,
    by_utility,
  };
}

export function emptySnapshot(utility: string, unit: Snapshot['unit'] = 'customers'): Snapshot {
  return {
    utility,
    unit,
    customers_out: null,
    customers_served: null,
    planned_out: null,
    counties: [],
    areas: [],
    incidents: [],
    unmatched: [],
    unreadable: [],
    notice: null,
    basis: 'outage_only',
  };
}

/** Adds a county count into a list, summing when the county is already there (several areas per county). */
export function addCounty(list: Map<string, CountyCount>, fips: string, out: number, served: number | null): void {
  const prev = list.get(fips);
  if (!prev) list.set(fips, { fips, customers_out: out, customers_served: served });
  else {
    prev.customers_out += out;
    prev.customers_served =
      prev.customers_served === null && served === null ? null : (prev.customers_served ?? 0) + (served ?? 0);
  }
}

/** Parses counts published as numbers or comma-formatted strings ("1,267"); null for anything else. */
export function toCount(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? Math.round(v) : null;
  if (typeof v === 'string') {
    const s = v.replace(/,/g, '').trim();
    if (!/^\d+(\.\d+)?$/.test(s)) return null;
    return Math.round(Number(s));
  }
  return null;
}

/** ISO-8601 for epoch milliseconds, ISO strings, or null for vendor "no ETR" placeholders. */
/** An instant as ISO text, or null outside 1990–2099 (vendor sentinels; beyond ±8.64e15 Date would throw). */
const instant = (t: number): string | null =>
  Number.isFinite(t) && t >= Date.UTC(1990, 0, 1) && t < Date.UTC(2100, 0, 1) ? new Date(t).toISOString() : null;

export function toIso(v: unknown): string | null {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v === 'number') return instant(v);
  if (typeof v === 'string') {
    if (/^ETR-|^null$/i.test(v)) return null;
    const mdy = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{1,2}):(\d{2})(?::(\d{2}))? ?(AM|PM)$/i.exec(v.trim());
    if (mdy) {
      let h = Number(mdy[4]) % 12;
      if (mdy[7].toUpperCase() === 'PM') h += 12;
      return instant(Date.UTC(+mdy[3], +mdy[1] - 1, +mdy[2], h, +mdy[5], +(mdy[6] ?? 0)));
    }
    return instant(Date.parse(v));
  }
  return null;
}
