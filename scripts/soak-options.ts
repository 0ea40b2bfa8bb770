// The soak's options and its two presets: the full day (`npm run soak`) and the test's short variant. Apart from
// scripts/soak.ts so that the checks (soak-checks.ts) read the options without importing the runner.
import type { FaultRates } from '../pipeline/src/simulator/faults.ts';

export interface SoakOptions {
  hours: number;
  seed: number;
  /** states whose simulated sources are polled: the storm's path (fewer sources, a run of minutes) */
  states: string[];
  /** about how many sources the simulator plans nationally (those in `states` are kept) */
  simSources: number;
  /** every source's registry interval (hardened: a third): one cycle per hardened interval bounds the run */
  intervalMin: number;
  rates: FaultRates;
  /** simulated hours from the start: the busiest source's host goes down at `downAt` for `downHours`; restart at `restartAt` */
  downAt: number;
  downHours: number;
  restartAt: number;
  requestDeadlineMs: number;
  sourceDeadlineMs: number;
  /**
   * publish to the file system (the real tree, manifest and mirror: what the memory check judges; the default) or to
   * memory (SOAK_WRITER=memory: the same documents rendered, a third less CPU, but the whole published tree then sits
   * in the poller's memory and grows with the storm; the test's short variant, which does not judge RSS)
   */
  writer: 'fs' | 'memory';
  log: (line: string) => void;
}

const RATES: FaultRates = { http5xx: 0.05, timeout: 0.02, garbage: 0.01 };
export const DAY: SoakOptions = {
  hours: 24,
  seed: 1,
  states: ['FL', 'GA', 'SC', 'NC', 'VA'],
  simSources: 60,
  intervalMin: 15,
  rates: RATES,
  downAt: 10,
  downHours: 2,
  restartAt: 11,
  requestDeadlineMs: 500,
  sourceDeadlineMs: 3_000,
  writer: 'fs',
  log: (l) => console.log(l),
};
/** The test's variant: six hours over Florida and Georgia, where the storm is then. */
export const SHORT: SoakOptions = {
  ...DAY,
  hours: 6,
  states: ['FL', 'GA'],
  downAt: 2,
  restartAt: 3,
  writer: 'memory',
};
