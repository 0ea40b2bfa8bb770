// The shared-data gate (vitest globalSetup) called directly: with the flag a missing folder fails the run with a
// message that says what, where and how; without it the teardown prints one line naming the suites that skipped.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TestModule } from 'vitest/node';
import { dataSuites, gate, SharedDataMissingError, skippedLine, skippedSuites } from './shared-data-gate.ts';
import { testTempDir } from './clean-machine.ts';

afterEach(() => vi.restoreAllMocks());

/** A stand-in for vitest's TestModule: its file and the states of its tests. */
const testModule = (moduleId: string, states: string[]) =>
  ({
    moduleId,
    children: {
      *allTests(state?: string) {
        for (const s of states) if (!state || s === state) yield { state: () => s };
      },
    },
  }) as unknown as TestModule;

/** A repository with three test files: two guard on the shared data (one of them nested), one does not. */
function fakeRepo(): string {
  const root = testTempDir('gate-repo');
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  const guard = ['describe', 'skipIf(!hasSharedData)'].join('.'); // spelled apart so this file is not one of them
  write('pipeline/src/a/normalize.test.ts', `${guard}('a', () => {});\n`);
  write('pipeline/test/b.test.ts', `it.${guard.slice('describe.'.length)}('b', () => {});\n`);
  write('pipeline/test/plain.test.ts', "import { sourceDef } from './shared-data.ts';\n");
  write('pipeline/test/helper.ts', `${guard}('not a test file', () => {});\n`);
  return root;
}

describe('shared-data gate', () => {
  it('fails at setup when the folder is missing and OUTAGE_REQUIRE_SHARED_DATA=1, saying what, where and how', () => {
    const missing = path.join(testTempDir('gate-missing'), 'no-such-data');
    const env = { OUTAGE_SHARED_DATA: missing, OUTAGE_REQUIRE_SHARED_DATA: '1' };
    expect(() => gate(env)).toThrow(SharedDataMissingError);
    expect(() => gate(env)).toThrow(`${missing} does not exist`);
    expect(() => gate(env)).toThrow(/at \.\.\/shared\/data beside the checkout, or set OUTAGE_SHARED_DATA/);
  });

  it('lets the run go on when the folder is there, flag or not, and prints nothing', () => {
    const present = testTempDir('gate-present');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(gate({ OUTAGE_SHARED_DATA: present, OUTAGE_REQUIRE_SHARED_DATA: '1' })).toBeUndefined();
    expect(gate({ OUTAGE_SHARED_DATA: present })).toBeUndefined();
    expect(warn).not.toHaveBeenCalled();
  });

  it('without the flag, its teardown prints one line naming the guarded suites and where the data was looked for', () => {
    const missing = path.join(testTempDir('gate-unflagged'), 'no-such-data');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const teardown = gate({ OUTAGE_SHARED_DATA: missing, OUTAGE_REQUIRE_SHARED_DATA: '0' });
    expect(warn).not.toHaveBeenCalled(); // printed at the end of the run, not before it
    teardown!();
    expect(warn).toHaveBeenCalledTimes(1);
    const line = String(warn.mock.calls[0][0]);
    expect(line).not.toContain('\n');
    expect(line).toMatch(new RegExp(`^Shared data not found at ${missing} \\(set OUTAGE_SHARED_DATA`));
    // Without a run to ask, every guarded suite of the real tree: this one is not, the FPL normaliser's is.
    expect(line).toContain('pipeline/src/sources/fpl/normalize.test.ts');
    expect(line).not.toContain('shared-data-gate.test.ts');
  });

  it('finds the guarded test files by reading the tree', () => {
    expect(dataSuites(fakeRepo())).toEqual(['pipeline/src/a/normalize.test.ts', 'pipeline/test/b.test.ts']);
  });

  it('names only the guarded suites of this run that skipped tests, with the number skipped', () => {
    const root = fakeRepo();
    const at = (rel: string) => path.join(root, rel);
    const modules = [
      testModule(at('pipeline/test/b.test.ts'), ['passed', 'skipped', 'skipped']),
      testModule(at('pipeline/src/a/normalize.test.ts'), ['skipped']),
      testModule(at('pipeline/test/plain.test.ts'), ['skipped']), // skipped for another reason: not named
    ];
    const skipped = skippedSuites(modules, root);
    expect(skipped).toEqual({ suites: ['pipeline/src/a/normalize.test.ts', 'pipeline/test/b.test.ts'], tests: 3 });
    expect(skippedLine('/x', skipped)).toBe(
      'Shared data not found at /x (set OUTAGE_SHARED_DATA or put it at ../shared/data): skipped 3 tests that replay ' +
        'recorded payloads, in 2 suites: pipeline/src/a/normalize.test.ts, pipeline/test/b.test.ts',
    );
    const none = skippedSuites([testModule(at('pipeline/test/b.test.ts'), ['passed'])], root);
    expect(skippedLine('/x', none)).toMatch(/\): no suite of this run needed it$/);
    expect(skippedLine('/x', { suites: ['a.test.ts'], tests: 1 })).toMatch(
      /: skipped 1 test that replay.*, in 1 suite: a\.test\.ts$/,
    );
  });
});
