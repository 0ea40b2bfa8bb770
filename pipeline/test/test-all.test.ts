// `npm test` (scripts/test-all.mjs) runs every step even after one failed, and still exits non-zero: run here in a
// copy of the repository's layout whose tools are stand-ins that record that they ran and exit as told.
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { testTempDir } from './clean-machine.ts';

const SCRIPT = new URL('../../scripts/test-all.mjs', import.meta.url);

/** A repository whose tsc, biome, vitest and test-postgres.sh append their name and arguments to ran.log. */
function fakeRepo(exitCodes: Record<string, number>): string {
  const root = testTempDir('test-all');
  const bin = path.join(root, 'node_modules', '.bin');
  fs.mkdirSync(bin, { recursive: true });
  fs.mkdirSync(path.join(root, 'scripts'));
  fs.copyFileSync(SCRIPT, path.join(root, 'scripts', 'test-all.mjs'));
  const tool = (file: string, name: string) => {
    fs.writeFileSync(file, `#!/bin/sh\necho "${name} $*" >> "${root}/ran.log"\nexit ${exitCodes[name] ?? 0}\n`);
    fs.chmodSync(file, 0o755);
  };
  for (const name of ['tsc', 'biome', 'vitest']) tool(path.join(bin, name), name);
  tool(path.join(root, 'scripts', 'test-postgres.sh'), 'postgres');
  return root;
}

async function runAll(root: string, args: string[] = []) {
  try {
    const r = await promisify(execFile)(process.execPath, [path.join(root, 'scripts', 'test-all.mjs'), ...args]);
    return { code: 0, stdout: r.stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, stdout: e.stdout };
  }
}

const ran = (root: string) => fs.readFileSync(path.join(root, 'ran.log'), 'utf8').trim().split('\n');

describe('npm test (scripts/test-all.mjs)', () => {
  it('runs the PostgreSQL suites after a failed vitest run, and exits non-zero', async () => {
    const root = fakeRepo({ vitest: 1 });
    const r = await runAll(root);
    expect(r.code).toBe(1);
    expect(ran(root)).toEqual(['tsc --noEmit -p tsconfig.json', 'biome check', 'vitest run', 'postgres']);
    expect(r.stdout).toMatch(/tests\s+FAILED \(exit 1\)/);
    expect(r.stdout).toMatch(/postgres\s+passed/);
  });

  it('runs every step after a type error, exits non-zero when only the last fails, and 0 when all pass', async () => {
    const types = fakeRepo({ tsc: 2 });
    expect((await runAll(types)).code).toBe(1);
    expect(ran(types)).toHaveLength(4);
    const last = fakeRepo({ postgres: 3 });
    expect((await runAll(last)).code).toBe(1);
    const green = fakeRepo({});
    expect((await runAll(green, ['--reporter=dot'])).code).toBe(0);
    expect(ran(green)[2]).toBe('vitest run --reporter=dot'); // arguments go to vitest
  });
});
