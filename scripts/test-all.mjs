// `npm test`: every step runs even when an earlier one failed (a red vitest run still runs the PostgreSQL suites, so
// one run shows everything that is wrong); the exit code is non-zero when any step failed. Arguments go to vitest
// (`npm test -- --reporter=dot`). Ctrl-C stops the step that is running and skips the rest.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'node_modules', '.bin');

/** @type {Array<{ name: string, cmd: string, args: string[] }>} */
const STEPS = [
  { name: 'types', cmd: path.join(BIN, 'tsc'), args: ['--noEmit', '-p', 'tsconfig.json'] },
  { name: 'lint', cmd: path.join(BIN, 'biome'), args: ['check'] },
  { name: 'tests', cmd: path.join(BIN, 'vitest'), args: ['run', ...process.argv.slice(2)] },
  { name: 'postgres', cmd: 'bash', args: ['scripts/test-postgres.sh'] },
];

let interrupted = null;
let running = null;
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    interrupted = signal;
    running?.kill(signal);
  });

/** Runs one step to its end: its exit code, or 1 when it could not start or a signal ended it. */
function run(step) {
  return new Promise((resolve) => {
    const child = spawn(step.cmd, step.args, {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, PATH: `${BIN}${path.delimiter}${process.env.PATH ?? ''}` },
    });
    running = child;
    child.once('error', (err) => {
      console.error(`test-all: could not start ${step.name} (${step.cmd}): ${err.message}`);
      resolve(1);
    });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  }).finally(() => {
    running = null;
  });
}

const results = [];
for (const step of STEPS) {
  if (interrupted) {
    results.push({ name: step.name, code: null, seconds: 0 });
    continue;
  }
  console.log(`\ntest-all: ${step.name}: ${[path.basename(step.cmd), ...step.args].join(' ')}`);
  const t0 = Date.now();
  const code = await run(step);
  results.push({ name: step.name, code, seconds: (Date.now() - t0) / 1000 });
}

const line = (r) =>
  `  ${r.name.padEnd(9)} ${r.code === null ? 'skipped (interrupted)' : r.code === 0 ? 'passed' : `FAILED (exit ${r.code})`}${r.code === null ? '' : `  ${r.seconds.toFixed(0)} s`}`;
console.log(`\ntest-all:\n${results.map(line).join('\n')}`);
const failed = results.filter((r) => r.code !== 0);
process.exitCode = failed.length > 0 ? 1 : 0;
