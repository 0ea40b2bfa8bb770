// A test that times out still stops every process and removes every directory it made (issue 27 part 1): a child
// vitest runs fixtures/times-out.fixture.ts, whose hook and test each start a server process (with a child of its
// own) and make temp dirs, then hang past their timeouts. The run must fail, and nothing of it may be left.
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { testTempDir } from './clean-machine.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const VITEST = path.join(ROOT, 'node_modules/vitest/vitest.mjs');
const CONFIG = 'pipeline/test/fixtures/vitest.config.ts';

interface Made {
  label: string;
  pids: number[];
  port: number;
  dirs: string[];
}

/** Alive: it exists and is not a zombie (a killed process whose parent is gone may wait unreaped for a while). */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    if (fs.existsSync('/proc/self/stat')) return false;
  }
  try {
    process.kill(pid, 0); // no /proc: the signal-0 probe
    return true;
  } catch {
    return false;
  }
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket.destroy() !== undefined));
    socket.once('error', () => resolve(false));
  });

/** Waits for `cond` (the test's timeout is the only limit). */
async function eventually(cond: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await cond())) await new Promise((r) => setTimeout(r, 100));
}

describe('a test that times out', () => {
  it('fails the run, and leaves no process, listening port or directory behind', async () => {
    const report = path.join(testTempDir('timeout-report'), 'made.jsonl');
    // The child is a vitest of its own, not one of this run's workers.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST')));
    const run = await new Promise<{ code: number | null; output: string }>((resolve) => {
      execFile(
        process.execPath,
        [VITEST, 'run', '--config', CONFIG],
        { cwd: ROOT, env: { ...env, OUTAGE_TIMEOUT_FIXTURE_REPORT: report }, maxBuffer: 16 * 1024 * 1024 },
        (err, stdout, stderr) =>
          resolve({ code: err ? ((err.code as number | undefined) ?? 1) : 0, output: stdout + stderr }),
      );
    });
    expect(run.code, run.output).not.toBe(0);
    expect(run.output).toContain('Hook timed out in 3000ms');
    expect(run.output).toContain('Test timed out in 3000ms');

    const made = fs
      .readFileSync(report, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Made);
    expect(made.map((m) => m.label).sort()).toEqual(['hook', 'test']);
    for (const m of made) {
      expect(m.pids).toHaveLength(2); // the server and the process it started
      await eventually(() => m.pids.every((pid) => !alive(pid)));
      expect(await listening(m.port)).toBe(false);
      for (const dir of m.dirs) expect(fs.existsSync(dir), dir).toBe(false);
      expect(fs.existsSync(path.dirname(m.dirs[0])), "the child run's private TMPDIR").toBe(false);
    }
  });
});
