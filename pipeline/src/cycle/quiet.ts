// Whether a polled cycle is quiet: nothing in it needs evaluating, so only the poll log, the statuses and /live/sources
// change (the quiet branch of pipeline.ts).
import type { SourceDef } from '../sources/source-def.ts';
import { freshness, wakeReason } from '../sources/scheduler.ts';
import type { SourceStatus } from '../state/status.ts';
import type { PollOutcome } from '../state/store.ts';

/**
 * A cycle with nothing to evaluate: state was evaluated before, no source crossed its stale time and no timeline frame
 * began since (wakeReason), and every polled source answered with the data it had, after a successful poll and while
 * fresh (so no feed_recovered is due).
 */
export function isQuiet(
  outcomes: PollOutcome[],
  statuses: Map<string, SourceStatus>,
  sources: SourceDef[],
  evaluatedAt: Date | null,
  now: Date,
): boolean {
  if (wakeReason(sources, statuses, evaluatedAt, now)) return false;
  return outcomes.every((o) => {
    const prev = statuses.get(o.source.id);
    return o.ok && !o.changed && prev?.consecutive_failures === 0 && freshness(o.source, prev, now) !== 'stale';
  });
}
