// Tests leave the machine clean: every test temp dir is named `outage-test-<label>-…` and removed by its test, and
// this module is also the vitest globalSetup that fails a run which leaves anything behind in the temp directory.
// When a test cannot clean up (it timed out, its promise never settles), the worker's last-resort cleanup
// (clean-worker.ts) stops every process the test file started and removes every temp dir it made with this module.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onTestFinished } from 'vitest';

/** The project prefix of every temp dir a test makes, so a leftover names its owner. */
export const TEMP_PREFIX = 'outage-test-';
const RUN_PREFIX = `${TEMP_PREFIX}run-`;
// tsx's transform cache, written by the CLI processes the tests spawn: a cache, removed with the run's directory.
const TOOL_CACHE = /^tsx-\d+$/;

/** The temp dirs this worker process made and has not removed: one set per process, whichever copy of this module. */
const MADE = Symbol.for('outage-test.temp-dirs');
const made: Set<string> = ((globalThis as { [MADE]?: Set<string> })[MADE] ??= new Set());

/** A fresh temp dir for `label`; the caller removes it (removeTempDir) in afterAll or finally. */
export function makeTempDir(label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${TEMP_PREFIX}${label}-`));
  made.add(dir);
  return dir;
}

export function removeTempDir(dir: string | undefined): void {
  if (!dir) return;
  fs.rmSync(dir, { recursive: true, force: true });
  made.delete(dir);
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

export interface Proc {
  pid: number;
  command: string;
}

/** Every live process below `root` (its children, theirs, …), read from /proc, or from `ps` where there is none. */
export function descendants(root: number): Proc[] {
  const children = new Map<number, Proc[]>();
  const add = (pid: number, ppid: number, command: string) =>
    (children.get(ppid) ?? children.set(ppid, []).get(ppid)!).push({ pid, command });
  if (fs.existsSync('/proc/self/stat')) {
    for (const name of fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
      try {
        // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so the fields are read after the last `)`.
        const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
        const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (state === 'Z') continue; // already dead, waiting for its parent
        const command = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim();
        add(Number(name), Number(ppid), command);
      } catch {
        // gone meanwhile
      }
    }
  } else {
    const out = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,state=,args='], { encoding: 'utf8' });
    for (const m of out.matchAll(/^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/gm))
      if (!m[3].startsWith('Z')) add(Number(m[1]), Number(m[2]), m[4]);
  }
  const found: Proc[] = [];
  for (let queue = [root]; queue.length > 0; ) {
    const next = children.get(queue.shift()!) ?? [];
    found.push(...next);
    queue.push(...next.map((p) => p.pid));
  }
  return found;
}

/**
 * The worker's last resort, when its tests could not clean up (a timeout leaves the test's promise pending, so its
 * `finally` never runs): SIGKILL every process below this one, the whole tree listed before any is killed so none is
 * re-parented out of reach, and remove the temp dirs made with makeTempDir. Synchronous: it runs as the worker exits.
 */
export function lastResortCleanup(): { stopped: Proc[]; removed: string[] } {
  const stopped = descendants(process.pid);
  for (const p of stopped)
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  const removed = [...made];
  for (const dir of removed) removeTempDir(dir);
  return { stopped, removed };
}

const projectEntries = (dir: string): string[] =>
  fs.readdirSync(dir).filter((n) => n.startsWith(TEMP_PREFIX) && !n.startsWith(RUN_PREFIX));

const RAM_DIR = '/dev/shm';
const RAM_ROOM = 4 * 1024 ** 3;

/**
 * Where the run's private directory is made: OUTAGE_TEST_TMPDIR when set, else a RAM-backed /dev/shm with 4 GB free
 * where the machine has one, else the temp dir. The tests publish trees of thousands of files a cycle, writing,
 * linking and unlinking them: on tmpfs the same run spends less than half the system time it spends on a disk.
 */
function runParent(shared: string): string {
  if (process.env.OUTAGE_TEST_TMPDIR) return process.env.OUTAGE_TEST_TMPDIR;
  try {
    const { bavail, bsize } = fs.statfsSync(RAM_DIR);
    fs.accessSync(RAM_DIR, fs.constants.W_OK);
    if (bavail * bsize >= RAM_ROOM) return RAM_DIR;
  } catch {
    // no /dev/shm here
  }
  return shared;
}

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
  const runDir = fs.mkdtempSync(path.join(runParent(shared), RUN_PREFIX));
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
