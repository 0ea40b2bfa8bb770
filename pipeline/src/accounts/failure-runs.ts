// Answered attempts read as runs of failures: per channel (for disabling) and per target (for its circuit breaker),
// in the order the answers came, a success resetting the run.
import type { Due, Outcome } from './delivery-send.ts';

/** An attempt's answer, and when it came. */
export interface Answered {
  d: Due;
  r: Outcome;
  at: Date;
  /** set by the commit (delivery-outcomes.ts): the failed attempt gave the delivery up */
  givenUp?: boolean;
}

/** `reset`: a success came (the stored count restarts); `n` failures after it; `first`: the first of them. */
export type Run = { reset: boolean; n: number; first: Date | null; last: Answered };

export function failureRuns(items: Answered[], key: (i: Answered) => string): Map<string, Run> {
  const runs = new Map<string, Run>();
  for (const i of items) {
    const run = runs.get(key(i)) ?? { reset: false, n: 0, first: null, last: i };
    if (i.r.ok) Object.assign(run, { reset: true, n: 0, first: null });
    else Object.assign(run, { n: run.n + 1, first: run.first ?? i.at });
    run.last = i;
    runs.set(key(i), run);
  }
  return runs;
}
