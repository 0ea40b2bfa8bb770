// Planned work per county (issue 36 part 3): where a feed tells planned from unplanned and its planned incidents make
// up the whole of its planned headline, each county's planned_out is the customers of the planned incidents placed in
// it (at most its count); where they do not (planned work told only as a total, or not placed), it is null: unknown.
import type { Snapshot } from './snapshot.ts';

/** The snapshot with each county row's `planned_out` set by the rule above. */
export function withCountyPlanned(snap: Snapshot): Snapshot {
  const byCounty = plannedByCounty(snap);
  for (const c of snap.counties)
    c.planned_out = byCounty ? Math.min(c.customers_out, byCounty.get(c.fips) ?? 0) : (c.planned_out ?? null);
  return snap;
}

/** Customers of planned incidents per county, or null when they do not account for the feed's planned total. */
function plannedByCounty(snap: Snapshot): Map<string, number> | null {
  if (snap.planned_out === null) return null;
  const by = new Map<string, number>();
  let placed = 0;
  for (const i of snap.incidents) {
    if (!i.planned || !i.fips) continue;
    by.set(i.fips, (by.get(i.fips) ?? 0) + i.customers_out);
    placed += i.customers_out;
  }
  return placed === snap.planned_out ? by : null;
}
