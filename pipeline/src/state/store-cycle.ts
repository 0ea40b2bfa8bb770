// A cycle's writes, each in one transaction: a quiet cycle's poll log and statuses; an evaluated cycle's observations,
// statuses, outage states, events, timeline frame and archive quarter together.
import type { SourceDef } from '../sources/source-def.ts';
import { recordArchive } from './archive.ts';
import type { Db } from './db.ts';
import { evaluateCycle, type EventRow } from './events.ts';
import { observe, type CycleContext } from './observe.ts';
import { computeLive, recordFrame, type LiveState } from './rollup.ts';
import { saveStatuses, type SourceStatus } from './status.ts';
import { writeOutcomes, type PollOutcome } from './store.ts';

export interface CycleWrites {
  outcomes: PollOutcome[];
  /** the statuses the polls changed (next-status.ts advanceStatuses) */
  toSave: SourceStatus[];
}

export interface EvaluatedCycle extends CycleWrites {
  sources: SourceDef[];
  statuses: Map<string, SourceStatus>;
  /** modelled customers per county (geo/county-model.ts) */
  model: Map<string, number>;
  now: Date;
  simulated: boolean;
}

/** The observation rows a cycle's changed snapshots store (counties, areas and incidents): the size of its store. */
export const storedRows = (outcomes: readonly PollOutcome[]): number =>
  outcomes.reduce(
    (n, o) =>
      o.changed && o.snapshot
        ? n + o.snapshot.counties.length + o.snapshot.areas.length + o.snapshot.incidents.length
        : n,
    0,
  );

/** After the store nothing reads a cycle's snapshots again: let them go before the publish (a storm's ~60,000 incidents). */
export function releaseSnapshots(outcomes: PollOutcome[]): void {
  for (const o of outcomes) o.snapshot = null;
}

/** A quiet cycle's writes: the poll log and the statuses, nothing re-evaluated. */
export async function storePolls(db: Db, { outcomes, toSave }: CycleWrites): Promise<void> {
  await db.transaction(async () => {
    await writeOutcomes(db, outcomes);
    await saveStatuses(db, toSave);
  });
}

/** Stores the polls and evaluates the cycle: its rollups and the events they raise. */
export async function storeAndEvaluate(db: Db, c: EvaluatedCycle): Promise<{ live: LiveState; events: EventRow[] }> {
  const { sources, statuses, now } = c;
  const ctx: CycleContext = {
    sources,
    statuses,
    polled: new Set(c.outcomes.filter((o) => o.ok).map((o) => o.source.id)),
    now,
  };
  // One transaction: observations, statuses, outage states and events land together or not at all.
  return db.transaction(async () => {
    await writeOutcomes(db, c.outcomes);
    await saveStatuses(db, c.toSave);
    const live = await computeLive(db, sources, statuses, c.model, now);
    const events = await evaluateCycle(db, await observe(db, live, ctx), ctx);
    await recordFrame(db, live, now);
    await recordArchive(db, { live, sources, statuses, now, simulated: c.simulated });
    return { live, events };
  });
}
