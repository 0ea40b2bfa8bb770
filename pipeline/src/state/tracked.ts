// customers_tracked (issue 36 part 5, "coverage you have"): per county, the customers served by the sources that are
// polled and fresh there now, never the county's whole denominator. A fresh source counts, in each county it serves,
// the feed's own served count where its observation has one, else its registry `customers` spread over its EIA-861
// territory in the row's states (geo/territory.ts). ODIN carries no registry customers and no EIA ids (it reports for
// whichever utilities send it meters), so it counts only where a served count is observed, which today is nowhere.
// A county no fresh source serves is absent: its customers_tracked is null, never 0 (conventions 17).
import type { SourceDef } from '../sources/source-def.ts';
import { freshness } from '../sources/scheduler.ts';
import { loadTerritory, rowCounties, spread, type Territory } from '../geo/territory.ts';
import type { SourceStatus } from './status.ts';

export interface ServedObs {
  source_id: string;
  fips: string;
  customers_served: number | null;
}

/** fips → customers tracked there (unrounded); a county absent from the map has no fresh source. */
export function trackedByCounty(
  sources: SourceDef[],
  statuses: Map<string, SourceStatus>,
  obs: ServedObs[],
  model: Map<string, number>,
  now: Date,
  territory: Territory = loadTerritory(),
): Map<string, number> {
  const served = new Map<string, Map<string, number>>();
  for (const o of obs) {
    if (o.customers_served === null) continue;
    const m = served.get(o.source_id) ?? served.set(o.source_id, new Map()).get(o.source_id)!;
    m.set(o.fips, (m.get(o.fips) ?? 0) + o.customers_served);
  }
  const tracked = new Map<string, number>();
  for (const src of sources) {
    if (freshness(src, statuses.get(src.id), now) !== 'fresh') continue;
    const feed = served.get(src.id) ?? new Map<string, number>();
    const customers = src.customers ?? statuses.get(src.id)?.customers_served ?? null;
    const shares =
      src.connector === 'odin' || customers === null
        ? new Map<string, number>()
        : spread(customers, rowCounties(src, territory), model);
    // The feed's own count where it has one, else the row's share: every county here has one or the other.
    for (const fips of new Set([...feed.keys(), ...shares.keys()]))
      tracked.set(fips, (tracked.get(fips) ?? 0) + (feed.get(fips) ?? (shares.get(fips) as number)));
  }
  return tracked;
}

/** A county's published figure: rounded, and never more than the county's customers (its denominator). */
export function countyTracked(tracked: number | undefined, denominator: number | null): number | null {
  if (tracked === undefined) return null;
  const n = Math.round(tracked);
  return denominator === null ? n : Math.min(n, denominator);
}

/** A state's or the nation's: the sum of its counties', null counties as 0; null where none is tracked at all. */
export function sumTracked(values: Array<number | null>): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length ? known.reduce((s, v) => s + v, 0) : null;
}
