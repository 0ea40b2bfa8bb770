// The cycle's budget: a cycle stores and publishes what has answered within it; a poll still fetching is carried on
// (until its own source deadline) and lands in a later cycle, marked late meanwhile, never failed for being slow.
// spec: Limits — a source never blocks a cycle. Issue 37 part 4.
import type { PollOutcome } from '../state/store.ts';
import type { SourceDef } from './source-def.ts';

const envMs = (name: string, fallback: number): number => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};

/** How long a cycle waits for its polls before it stores and publishes what answered (docs/polling-and-rules.md: HTTP polling). */
export const DEFAULT_CYCLE_BUDGET_MS = envMs('OUTAGE_CYCLE_BUDGET_MS', 60_000);

interface Running {
  /** the cycle time the poll started in (its outcome's `at`) */
  since: string;
  done: Promise<PollOutcome>;
  outcome: PollOutcome | null;
}

/** Polls in flight across cycles: started by one cycle's round, taken by the round they have finished before. */
export class CarriedPolls {
  private readonly running = new Map<string, Running>();
  /** called when a carried poll finishes between cycles (the poll loop wakes for it) */
  onLanded: (() => void) | null = null;

  /** Whether a poll of this source is in flight (the source is not due again until it lands). */
  has(id: string): boolean {
    return this.running.has(id);
  }

  /** Whether a carried poll has finished and waits for a cycle to land it. */
  get landed(): boolean {
    for (const r of this.running.values()) if (r.outcome) return true;
    return false;
  }

  /** The sources whose poll outlived a cycle's budget and is still fetching: id → the cycle time it started in. */
  late(): Map<string, string> {
    const late = new Map<string, string>();
    for (const [id, r] of this.running) if (!r.outcome) late.set(id, r.since);
    return late;
  }

  /**
   * Starts a poll of each due source and waits for all of them, or `budgetMs`, whichever is first; returns the
   * outcomes that have finished: this round's, and those of polls carried from earlier rounds.
   */
  async round(
    due: SourceDef[],
    poll: (source: SourceDef) => Promise<PollOutcome>,
    { now, budgetMs }: { now: Date; budgetMs: number },
  ): Promise<PollOutcome[]> {
    const started = due.map((s) => this.start(s, poll, now));
    let timer: NodeJS.Timeout | undefined;
    const budget = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, budgetMs);
    });
    await Promise.race([Promise.all(started), budget]);
    clearTimeout(timer);
    return this.take();
  }

  /** Waits until every poll in flight has finished (`poll --once` before its last cycle; close). */
  async settled(): Promise<void> {
    await Promise.all([...this.running.values()].map((r) => r.done));
  }

  private start(source: SourceDef, poll: (s: SourceDef) => Promise<PollOutcome>, now: Date): Promise<PollOutcome> {
    const r: Running = { since: now.toISOString(), done: poll(source), outcome: null };
    this.running.set(source.id, r);
    return r.done.then((o) => {
      r.outcome = o;
      this.onLanded?.();
      return o;
    });
  }

  /** The finished outcomes, in the order their polls started; they leave the set. */
  private take(): PollOutcome[] {
    const out: PollOutcome[] = [];
    for (const [id, r] of this.running)
      if (r.outcome) {
        out.push(r.outcome);
        this.running.delete(id);
      }
    return out;
  }
}
