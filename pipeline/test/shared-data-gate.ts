// vitest globalSetup: without the recorded payloads a run either fails at once (OUTAGE_REQUIRE_SHARED_DATA=1, as
// .ci/run sets it, so CI never passes on skipped tests) or ends with one line naming the suites that skipped for it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestModule, TestProject } from 'vitest/node';
import { SHARED_DATA_ENV, sharedDataDir } from './shared-data.ts';

export const REQUIRE_ENV = 'OUTAGE_REQUIRE_SHARED_DATA';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** How a suite marks a test or suite that needs the payloads (shared-data.ts). */
const GUARD = /\.skipIf\(\s*!hasSharedData\b/;

export class SharedDataMissingError extends Error {
  override name = 'SharedDataMissingError';
}

/** The test files (relative to the repository) that skip something without the payloads, read from the test tree. */
export function dataSuites(root = ROOT): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, d.name);
      if (d.isDirectory() && d.name !== 'node_modules') walk(p);
      else if (d.name.endsWith('.test.ts') && GUARD.test(fs.readFileSync(p, 'utf8')))
        found.push(path.relative(root, p));
    }
  };
  walk(path.join(root, 'pipeline'));
  return found.sort();
}

export function missingMessage(dir: string): string {
  return (
    `The recorded payloads the tests replay are missing: ${dir} does not exist (${REQUIRE_ENV}=1 makes that an ` +
    `error). Put the shared data folder (payloads/, sequences/, history/, reference/) at ../shared/data beside the ` +
    `checkout, or set ${SHARED_DATA_ENV} to where it is; unset ${REQUIRE_ENV} to run only the tests that do not need it.`
  );
}

/** The guarded suites of this run with skipped tests, and how many; every guarded suite when the run is unknown. */
export function skippedSuites(modules: readonly TestModule[] | null, root = ROOT): { suites: string[]; tests: number } {
  const guarded = dataSuites(root);
  if (!modules) return { suites: guarded, tests: 0 };
  const inRun = modules
    .map((m) => ({ file: path.relative(root, m.moduleId), skipped: [...m.children.allTests('skipped')].length }))
    .filter((m) => m.skipped > 0 && guarded.includes(m.file))
    .sort((a, b) => a.file.localeCompare(b.file));
  return { suites: inRun.map((m) => m.file), tests: inRun.reduce((n, m) => n + m.skipped, 0) };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function skippedLine(dir: string, skipped: { suites: string[]; tests: number }): string {
  const head = `Shared data not found at ${dir} (set ${SHARED_DATA_ENV} or put it at ../shared/data)`;
  if (skipped.suites.length === 0) return `${head}: no suite of this run needed it`;
  const tests = skipped.tests > 0 ? plural(skipped.tests, 'test') : 'the tests';
  const suites = plural(skipped.suites.length, 'suite');
  return `${head}: skipped ${tests} that replay recorded payloads, in ${suites}: ${skipped.suites.join(', ')}`;
}

/** The gate itself, for any environment; the teardown it returns prints the line once the run is over. */
export function gate(env: NodeJS.ProcessEnv, project?: TestProject): (() => void) | undefined {
  const dir = sharedDataDir(env);
  if (fs.existsSync(dir)) return undefined;
  if (['1', 'true'].includes(env[REQUIRE_ENV] ?? '')) throw new SharedDataMissingError(missingMessage(dir));
  return () => console.warn(skippedLine(dir, skippedSuites(project?.vitest.state.getTestModules() ?? null)));
}

export default function setup(project: TestProject): (() => void) | undefined {
  return gate(process.env, project);
}
