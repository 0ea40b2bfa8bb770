// vitest setupFiles: once per worker process, the last-resort cleanup (clean-machine.ts) runs as the worker ends.
// Vitest ends a worker with SIGTERM once its files are done, whatever state their tests were left in; a test that timed
// out has not run its `finally` (its promise is still pending), so without this a server process it started would
// outlive the run, listening. Processes are stopped whether or not a test failed: none should outlive its file.
import { lastResortCleanup } from './clean-machine.ts';

const INSTALLED = Symbol.for('outage-test.clean-worker');
const proc = process as NodeJS.Process & { [INSTALLED]?: true };

if (!proc[INSTALLED]) {
  proc[INSTALLED] = true;
  let done = false;
  const cleanup = () => {
    if (done) return;
    done = true;
    const { stopped: all, removed } = lastResortCleanup();
    // esbuild's service process (tsx starts one when a test imports a script through it) ends with its parent anyway.
    const stopped = all.filter((p) => !/\besbuild\b.* --service=/.test(p.command));
    if (stopped.length + removed.length === 0) return;
    const what = [
      ...stopped.map((p) => `process ${p.pid} (${p.command.replace(/\s+/g, ' ').slice(0, 100)})`),
      ...removed.map((d) => `directory ${d}`),
    ];
    process.stderr.write(`clean-worker: stopped or removed what the tests left behind: ${what.join('; ')}\n`);
  };
  process.once('SIGTERM', () => {
    cleanup();
    process.exit(143);
  });
  process.once('exit', cleanup);
}
