import { defineConfig } from 'vitest/config';

/** Test files that replace a module (vi.mock): each runs in a worker of its own, so the mock reaches no other file. */
const ISOLATED = ['pipeline/test/deprecation.test.ts'];

const common = {
  // In each worker: whatever a test could not clean up (a timeout) is stopped and removed as the worker ends.
  setupFiles: ['pipeline/test/clean-worker.ts'],
  // A guard against hangs, never a speed budget: sized so the heaviest setups (the soak's six simulated hours, a
  // replayed storm) finish on a 2-core machine at load 7, where they take three to four times their idle time.
  testTimeout: 600_000,
  hookTimeout: 600_000,
  // expect.poll waits on a condition (a page catching up with an answer), not a speed budget: its 1 s default failed
  // pages on a loaded 2-core machine.
  expect: { poll: { timeout: 30_000 } },
  pool: 'forks' as const,
  // A worker runs several files, so what a test changes of its process is put back after it: environment
  // variables (vi.stubEnv) and spies (vi.spyOn on JSON.parse, process.stdout.write).
  unstubEnvs: true,
  restoreMocks: true,
};

export default defineConfig({
  test: {
    // The shared-data gate: with OUTAGE_REQUIRE_SHARED_DATA=1 a missing ../shared/data fails the run at setup;
    // without it, the last line names the suites that skipped for it (pipeline/test/shared-data-gate.ts).
    // A private TMPDIR per run; anything a test leaves there fails the run (pipeline/test/clean-machine.ts).
    // The CLI the tests spawn runs the build, as production does (pipeline/test/build-once.ts).
    globalSetup: ['pipeline/test/shared-data-gate.ts', 'pipeline/test/clean-machine.ts', 'pipeline/test/build-once.ts'],
    maxWorkers: 2,
    // Files share their worker's loaded modules (isolate: false): the code under test, its caches (the county atlas,
    // the place tables) and its packages load once per worker instead of once per file, about a minute of a run.
    projects: [
      { test: { ...common, name: 'isolated', include: ISOLATED, isolate: true } },
      { test: { ...common, name: 'shared', include: ['pipeline/**/*.test.ts'], exclude: ISOLATED, isolate: false } },
    ],
  },
});
