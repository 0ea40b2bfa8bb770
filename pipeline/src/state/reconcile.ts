// Reconciliation with ODIN (issue: real national coverage, part 5): each cycle, where a deep row and ODIN both report
// a utility, the difference is recorded on the deep row; a row that disagrees beyond its tolerance for three
// reconciled cycles in a row is flagged in /live/sources (never dropped). ODIN counts meters, the deep row customers:
// the figure is a consistency signal, not a correction.
import type { SourceDef } from '../sources/source-def.ts';
import type { HeldSnapshot } from '../sources/snapshot.ts';
import type { SourceStatus } from './status.ts';

/** Default tolerance (`options.tolerance_pct` overrides it per row), as a share of the larger count. */
export const ODIN_TOLERANCE_PCT = 15;
/** Below this many out on both sides a difference is noise (a handful of meters) and is not counted against the row. */
export const ODIN_MIN_COUNT = 200;
export const ODIN_FLAG_CYCLES = 3;

/** (deep − ODIN) / max(deep, ODIN) × 100, one decimal; null when neither has anyone out. */
export function odinDelta(deep: number, odin: number): number | null {
  const base = Math.max(deep, odin);
  return base > 0 ? Math.round(((deep - odin) / base) * 1000) / 10 : null;
}

/**
 * Updates each deep row's `odin_delta_pct` and `odin_disagree_cycles` from the latest ODIN snapshot, for the rows
 * polled successfully this cycle (or all rows when ODIN itself was polled). Returns the ids it updated.
 */
export function reconcileWithOdin(
  sources: SourceDef[],
  statuses: Map<string, SourceStatus>,
  odin: Pick<HeldSnapshot, 'by_utility'> | null,
  polled: ReadonlySet<string>,
): string[] {
  const by = odin?.by_utility;
  const updated: string[] = [];
  if (!by) return updated;
  const odinPolled = sources.some((s) => s.connector === 'odin' && polled.has(s.id));
  for (const s of sources) {
    const st = statuses.get(s.id);
    if (s.connector === 'odin' || !st || st.customers_out === null || s.eia_ids.length === 0) continue;
    if (!odinPolled && !polled.has(s.id)) continue;
    const odinOut = s.eia_ids.reduce((n, id) => n + (by[id] ?? 0), 0);
    st.odin_delta_pct = odinDelta(st.customers_out, odinOut);
    const tolerance = typeof s.options.tolerance_pct === 'number' ? s.options.tolerance_pct : ODIN_TOLERANCE_PCT;
    const counts = Math.max(st.customers_out, odinOut) >= ODIN_MIN_COUNT;
    st.odin_disagree_cycles = counts && Math.abs(st.odin_delta_pct ?? 0) > tolerance ? st.odin_disagree_cycles + 1 : 0;
    updated.push(s.id);
  }
  return updated;
}

export const odinFlagged = (st: SourceStatus | undefined): boolean =>
  (st?.odin_disagree_cycles ?? 0) >= ODIN_FLAG_CYCLES;
