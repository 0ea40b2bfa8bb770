import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['pipeline/**/*.test.ts'],
    // The shared-data gate: with OUTAGE_REQUIRE_SHARED_DATA=1 a missing ../shared/data fails the run at setup;
    // without it, the last line names the suites that skipped for it (pipeline/test/shared-data-gate.ts).
    // A private TMPDIR per run; anything a test leaves there fails the run (pipeline/test/clean-machine.ts).
    globalSetup: ['pipeline/test/shared-data-gate.ts', 'pipeline/test/clean-machine.ts'],
    // In each worker: whatever a test could not clean up (a timeout) is stopped and removed as the worker ends.
    setupFiles: ['pipeline/test/clean-worker.ts'],
    // A guard against hangs, sized for a busy 2-core CI machine (the heaviest replay tests take ~60 s there).
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
