// V8's heap sizing for the long-running `outage` process (issue #12). V8 grows its heap limit after each full GC by a
// factor it picks from GC speed, up to ×4 on a fast machine: a national storm cycle's short-lived garbage (parsed
// feeds, rendered files) then piled up to ~900 MB RSS around a live heap of ~80 MB. A fixed 30 % growth collects
// sooner: peak RSS ~600 MB for ~10 % more CPU in the storm cycle (measured with scripts/profile-cycle.ts).
import v8 from 'node:v8';

/** Percent the heap limit grows after a full GC; `OUTAGE_HEAP_GROWING_PERCENT=0` restores V8's own choice. */
export const HEAP_GROWING_PERCENT = Number(process.env.OUTAGE_HEAP_GROWING_PERCENT ?? 30);

/**
 * Applies HEAP_GROWING_PERCENT to this process (every thread: V8 flags are process-wide). Node refuses this flag in
 * NODE_OPTIONS, and V8 reads it at each GC, so it is set at run time, first thing.
 */
export function tuneHeap(): void {
  if (Number.isInteger(HEAP_GROWING_PERCENT) && HEAP_GROWING_PERCENT > 0)
    v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
