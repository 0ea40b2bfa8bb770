// Tests leave the machine clean: every test temp dir is named `outage-test-<label>-…` and removed by its test, and
// this module is also the vitest globalSetup that fails a run which leaves anything behind in the temp directory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onTestFinished } from 'vitest';

/** The project prefix of every temp dir a test makes, so a leftover names its owner. */
export const TEMP_PREFIX = 'outage-test-';
const RUN_PREFIX = `${TEMP_PREFIX}run-`;
// tsx's transform cache, written by the CLI processes the tests spawn: a cache, removed with the run's directory.
const TOOL_CACHE = /^tsx-\d+$/;

/** A fresh temp dir for `label`; the caller removes it (removeTempDir) in afterAll or finally. */
export function makeTempDir(label: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `${TEMP_PREFIX}${label}-`));
}

export function removeTempDir(dir: string | undefined): void {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}

/** Runs every step of a teardown in order, even after one throws (the first error is rethrown at the end). */
export async function closeAll(...steps: Array<() => unknown>): Promise<void> {
  const errors: unknown[] = [];
  for (const step of steps) {
    try {
      await step();
    } catch (err) {
      errors.push(err);
    }
  }
  if (errors.length > 0) throw errors[0];
}

/** Inside a test: a temp dir removed when the test finishes, whether it passed or failed. */
export function testTempDir(label: string): string {
  const dir = makeTempDir(label);
  onTestFinished(() => removeTempDir(dir));
  return dir;
}

const projectEntries = (dir: string): string[] =>
  fs.readdirSync(dir).filter((n) => n.startsWith(TEMP_PREFIX) && !n.startsWith(RUN_PREFIX));

/**
 * globalSetup. The run gets a private TMPDIR (workers and the processes they spawn inherit it, and os.tmpdir()
 * reads it on every call), so what is left there at the end is exactly what this run's tests and the code under
 * test left, whatever other runs on the machine do meanwhile: that fails the run (exit code 1), naming the entries.
 * New `outage-test-` entries in the shared temp dir (a test that bypassed os.tmpdir()) are only warned about, since
 * another run without this setup may have made them. The run's own directory is removed in any case.
 */
export default function setup(): () => void {
  const shared = os.tmpdir();
  const before = new Set(projectEntries(shared));
  const runDir = fs.mkdtempSync(path.join(shared, RUN_PREFIX));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = runDir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    const left = fs.readdirSync(runDir).filter((n) => !TOOL_CACHE.test(n));
    removeTempDir(runDir);
    const appeared = projectEntries(shared).filter((n) => !before.has(n));
    if (appeared.length > 0)
      console.warn(
        `New test temp entries in ${shared} during this run (this run's or another's): ${appeared.join(', ')}`,
      );
    if (left.length === 0) return;
    process.exitCode = 1; // vitest only logs an error thrown here: this is what fails the run
    throw new Error(
      `The test run left ${left.length} temp entries behind: ${left.join(', ')}. Make them with testTempDir or ` +
        'makeTempDir from pipeline/test/clean-machine.ts and remove them in afterAll or finally (close servers and stop ' +
        'processes there too), so they go even when a test fails.',
    );
  };
}
