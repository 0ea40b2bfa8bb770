// Incidents kept per source and poll (issue 24 part 6): a hostile or broken feed of 180,000 outage points published a
// 37 MB county incidents document. Real storms stay far below the cap (the largest real captures: PSE 9,768 points in
// the 2024 bomb cyclone, DTE 4,636 outage areas on 4 July 2026, Georgia Power 2,173), so it only ever trims a feed
// that is not describing outages. Counts are never touched: county figures come from the snapshot's counties, which
// the connector summed before this step; only the incident list is trimmed, largest outages kept, with a notice.
import type { Snapshot } from './snapshot.ts';

/** At most this many incidents of one source are stored and published per poll (documented in docs/endpoints.md). */
export const MAX_INCIDENTS_PER_SOURCE = 25_000;

export function capIncidents(snap: Snapshot, max = MAX_INCIDENTS_PER_SOURCE): Snapshot {
  if (snap.incidents.length <= max) return snap;
  const dropped = snap.incidents.length - max;
  const kept = [...snap.incidents]
    .sort((a, b) => b.customers_out - a.customers_out || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, max)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const note = `${dropped.toLocaleString('en-US')} incidents beyond the ${max.toLocaleString('en-US')} largest were not kept (county counts are unchanged).`;
  return { ...snap, incidents: kept, notice: snap.notice ? `${snap.notice} ${note}` : note };
}
