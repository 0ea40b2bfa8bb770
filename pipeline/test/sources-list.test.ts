// Issue 38 part 7, second half: `outage sources` beside a running `outage start` lists the simulated registry that
// start polls, with the statuses it published (its state database is held), and after it stops, from that database;
// as an aligned table that fits the terminal (`COLUMNS`), or `--json`. The table formatter on its own: display widths,
// hostile text, cutting and leaving columns out.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth, formatTable, type Column } from '../src/cli/table.ts';
import { loadRegistry } from '../src/registry/registry.ts';
import { HEARTBEAT_FILE } from '../src/state/heartbeat.ts';
import { makeTempDir, removeTempDir } from './clean-machine.ts';

const BIN = fileURLToPath(new URL('../../bin/outage.js', import.meta.url));
const SHIPPED = fileURLToPath(new URL('../../data/sources.csv', import.meta.url));
// biome-ignore lint/suspicious/noControlCharactersInRegex: asserting their absence
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('the table formatter', () => {
  type R = { name: string; n: number; note: string };
  const cols: Column<R>[] = [
    { header: 'Name', value: (r) => r.name, shrinkTo: 6 },
    { header: 'Count', value: (r) => r.n.toLocaleString('en-US'), align: 'right' },
    { header: 'Note', value: (r) => r.note, dropOrder: 1 },
  ];
  const rows: R[] = [
    { name: '東京電力', n: 1234567, note: 'wide' },
    { name: 'Cafe\u0301 Électrique', n: 5, note: 'combining' },
    { name: `Evil\u001b]0;pwned\u0007\u202e`, n: 12, note: 'hostile' },
  ];

  it('aligns by display width, right-aligns numbers and escapes what a terminal would obey', () => {
    const lines = formatTable(rows, cols).split('\n');
    expect(lines).toHaveLength(5);
    expect(lines.join('\n')).not.toMatch(RAW);
    expect(lines[4]).toContain('Evil\\u001b]0;pwned\\u0007\\u202e');
    const countEnd = lines[0].indexOf('Count') + 'Count'.length;
    const ends = lines.slice(2).map((l) => {
      const m = /[\d,]+(?=\s{2}\S)/.exec(l)!;
      return displayWidth(l.slice(0, m.index)) + m[0].length;
    });
    // every count ends where the header's widest cell ends, whatever the names' scripts
    expect(new Set(ends).size).toBe(1);
    expect(ends[0]).toBeGreaterThanOrEqual(displayWidth(lines[0].slice(0, countEnd)));
    expect(displayWidth('東京')).toBe(4);
    expect(displayWidth('Cafe\u0301')).toBe(4);
  });

  it('fits a narrow terminal: long text cut with …, then the least needed column left out', () => {
    const full = formatTable(rows, cols);
    const widest = Math.max(...full.split('\n').map(displayWidth));
    const narrower = formatTable(rows, cols, widest - 8).split('\n');
    for (const l of narrower) expect(displayWidth(l)).toBeLessThanOrEqual(widest - 8);
    expect(narrower.join('\n')).toContain('…');
    expect(narrower[0]).toContain('Note');
    const narrow = formatTable(rows, cols, 20).split('\n');
    expect(narrow[0]).not.toContain('Note');
    for (const l of narrow) expect(displayWidth(l)).toBeLessThanOrEqual(20);
    // nothing is cut for a pipe
    expect(formatTable(rows, cols, undefined)).toBe(full);
  });
});

/** The CLI run to its end, with `COLUMNS` set as a terminal would. */
function cli(args: string[], columns = '100'): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, COLUMNS: columns } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('outage sources beside a running outage start', () => {
  let dir = '';
  let state = '';
  let out = '';
  let start: ChildProcess | undefined;
  let startLog = '';
  const stopStart = async () => {
    if (!start || start.exitCode !== null || start.signalCode !== null) return;
    const exited = new Promise((r) => start!.once('exit', r));
    start.kill('SIGTERM');
    await exited;
  };

  beforeAll(async () => {
    dir = makeTempDir('sources-list');
    state = path.join(dir, 'state');
    out = path.join(dir, 'public');
    const args = ['start', '--no-history', '--sim-sources', '12', '--port', '0', '--state', state, '--out', out];
    start = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    start.stdout!.on('data', (d) => (startLog += d));
    start.stderr!.on('data', (d) => (startLog += d));
    // the first cycle has polled every source and published: its heartbeat is written after the publish
    // (no time budget of its own: the hook timeout guards a hang)
    while (start.exitCode === null && !fs.existsSync(path.join(state, HEARTBEAT_FILE)))
      await new Promise((r) => setTimeout(r, 100));
    expect(start.exitCode, startLog).toBeNull();
  });
  afterAll(async () => {
    await stopStart();
    removeTempDir(dir);
  });

  const at = ['--state', () => state, '--out', () => out] as const;
  const withDirs = (...a: string[]) => [...a, ...at.map((x) => (typeof x === 'string' ? x : x()))];

  it('lists the simulated registry start polls, with the statuses it published, as an aligned table', async () => {
    const simulated = loadRegistry(path.join(state, 'simulated-sources.csv')).sources;
    const shipped = loadRegistry(SHIPPED).sources;
    expect(simulated.length).toBeGreaterThan(0);
    expect(simulated.length).not.toBe(shipped.length);
    const run = await cli(withDirs('sources'));
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain(`${simulated.length} sources in ${path.join(state, 'simulated-sources.csv')}`);
    expect(run.stderr).toContain('SIMULATED');
    expect(run.stderr).toMatch(
      /status as the running poller last published it \(.*generated \d{4}-\d\d-\d\d \d\d:\d\d UTC\): .*in use/,
    );
    expect(run.stderr).toContain('0 never polled');
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(simulated.length + 2);
    for (const l of lines) expect(displayWidth(l), l).toBeLessThanOrEqual(100);
    expect(lines[1]).toMatch(/^─+( {2}─+)+$/);
    const status = lines[0].indexOf('Status');
    expect(status).toBeGreaterThan(0);
    for (const l of lines.slice(2)) expect(l.slice(status), l).toMatch(/^(fresh|stale) /);
    expect(run.stdout).not.toContain('never polled');
    // each row names a simulated source (an id cut to fit ends in …)
    for (const l of lines.slice(2)) {
      const id = l.split(/\s{2,}/)[0].replace(/…$/, '');
      expect(
        simulated.some((s) => s.id.startsWith(id)),
        l,
      ).toBe(true);
    }
  });

  it('--json gives programs every row whole, the same registry and statuses', async () => {
    const simulated = loadRegistry(path.join(state, 'simulated-sources.csv')).sources;
    const run = await cli(withDirs('sources', '--json'));
    expect(run.status, run.stderr).toBe(0);
    const rows = JSON.parse(run.stdout) as Array<{ id: string; freshness: string; last_success_at: string | null }>;
    expect(rows.map((r) => r.id)).toEqual(simulated.map((s) => s.id));
    for (const r of rows) {
      expect(r.freshness).not.toBe('never polled');
      expect(Date.parse(r.last_success_at!)).not.toBeNaN();
    }
  });

  it('reads the state database itself once start has stopped, and --sources still names another registry', async () => {
    await stopStart();
    const run = await cli(withDirs('sources', '--json'));
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain(`status from the state database in ${state}`);
    const rows = JSON.parse(run.stdout) as Array<{ freshness: string; health: unknown }>;
    expect(rows.every((r) => r.freshness !== 'never polled' && r.health !== null)).toBe(true);
    const named = await cli(withDirs('sources', '--json', '--sources', SHIPPED));
    expect(named.status, named.stderr).toBe(0);
    expect(JSON.parse(named.stdout).length).toBe(loadRegistry(SHIPPED).sources.length);
    expect(named.stderr).not.toContain('SIMULATED');
  });
});
