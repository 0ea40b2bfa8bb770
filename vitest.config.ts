import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['pipeline/**/*.test.ts'],
    // A private TMPDIR per run; anything a test leaves there fails the run (pipeline/test/clean-machine.ts).
    globalSetup: ['pipeline/test/clean-machine.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
