// `npm start -- --live`: the same pipeline and server against a registry of real feeds (here served on loopback),
// in its own state and tree directories, with no simulator and no SIMULATED label.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ScriptedFeed, tempDir } from './scripted-feed.ts';

const BIN = fileURLToPath(new URL('../../bin/outage.js', import.meta.url));
const feed = new ScriptedFeed();
const tmp = tempDir('live');
let child: ChildProcess;
let url = '';
let log = '';

beforeAll(async () => {
  await feed.start();
  feed.set('/fl/0/query', {
    features: [{ attributes: { OUTAGE_ID: 'x', EST_CUSTOMERS: 1200 }, geometry: { x: -80.45, y: 25.6 } }],
  });
  const registry = path.join(tmp.dir, 'real.csv');
  fs.writeFileSync(
    registry,
    `id,utility,state,connector,url,interval_min,tier,status\nfl-real,Real Florida Power,FL,arcgis,${feed.base}/fl/0,10,1,active\n`,
  );
  child = spawn(process.execPath, [BIN, 'start', '--live', '--sources', registry, '--port', '0'], {
    cwd: tmp.dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  const end = Date.now() + 90_000;
  while (!/is running at (http:\/\/\S+)\//.test(log)) {
    if (Date.now() > end || child.exitCode !== null) throw new Error(`start --live did not come up:\n${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  url = /is running at (http:\/\/\S+)\//.exec(log)![1];
});
afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.on('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    child.kill('SIGKILL');
  }
  await feed.stop();
  tmp.remove();
});

describe('start --live', () => {
  it('polls the real registry, not the simulator, into state-live and public-live', async () => {
    expect(log).toMatch(/live: 1 real sources/);
    expect(log).not.toMatch(/SIMULATED sources/);
    expect(fs.existsSync(path.join(tmp.dir, 'state-live'))).toBe(true);
    expect(fs.existsSync(path.join(tmp.dir, 'public-live', 'api', 'v1', 'live', 'map.json'))).toBe(true);
    expect(fs.existsSync(path.join(tmp.dir, 'state'))).toBe(false);
  });
  it('serves live data without the SIMULATED label', async () => {
    const res = await fetch(`${url}/api/v1/live/map`);
    expect(res.headers.get('x-data-notice') ?? '').not.toMatch(/SIMULATED/);
    expect(((await res.json()) as { data: Record<string, number[]> }).data['12086'][0]).toBe(1200);
    const sources = (await (await fetch(`${url}/api/v1/live/sources`)).json()) as {
      data: { simulated: boolean; sources: Array<{ id: string }> };
    };
    expect(sources.data.simulated).toBe(false);
    expect(sources.data.sources.map((s) => s.id)).toEqual(['fl-real']);
  });
});

// Issue 38 part 6 with issue 37 part 4: offline (hosts that do not resolve) beside a feed that drips forever, the URL is
// printed after the first map's 20 s budget, not after the 90 s source deadline; the unresolved hosts fail as `dns`.
describe('start --live offline, beside a feed that never finishes', () => {
  const slow = new ScriptedFeed();
  const dir = tempDir('live-offline');
  let proc: ChildProcess | null = null;
  let out = '';
  afterAll(async () => {
    proc?.kill('SIGKILL');
    await slow.stop();
    dir.remove();
  });

  it('prints its URL with the drip late and the unresolved feeds failed as dns', async () => {
    await slow.start();
    slow.set('/fl/0/query', { body: '{"features":[]}', held: true });
    const rows = ['a', 'b', 'c'].map(
      (h, i) => `off-${i},Off ${i},FL,arcgis,http://${h}.outage-feed.invalid/x/0,10,1,active`,
    );
    const registry = path.join(dir.dir, 'real.csv');
    fs.writeFileSync(
      registry,
      [
        'id,utility,state,connector,url,interval_min,tier,status',
        ...rows,
        `drip,Drip Power,FL,arcgis,${slow.base}/fl/0,10,1,active`,
      ].join('\n'),
    );
    proc = spawn(process.execPath, [BIN, 'start', '--live', '--sources', registry, '--port', '0'], {
      cwd: dir.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, OUTAGE_SOURCE_DEADLINE_MS: '600000', OUTAGE_REQUEST_DEADLINE_MS: '600000' },
    });
    for (const s of [proc.stdout!, proc.stderr!]) s.on('data', (d) => (out += d));
    const end = Date.now() + 300_000; // a failsafe only: the drip never ends before the test releases it
    while (!/is running at (http:\/\/\S+)\//.test(out)) {
      if (Date.now() > end || proc.exitCode !== null) throw new Error(`start --live did not come up:\n${out}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(out).toMatch(/1 late\)/);
    const base = /is running at (http:\/\/\S+)\//.exec(out)![1];
    const sources = (await (await fetch(`${base}/api/v1/live/sources`)).json()) as {
      data: { sources: Array<{ id: string; late_since: string | null; last_error: { reason: string } | null }> };
    };
    const by = Object.fromEntries(sources.data.sources.map((s) => [s.id, s]));
    for (const i of [0, 1, 2]) expect(by[`off-${i}`].last_error?.reason).toBe('dns');
    expect(by.drip.late_since).not.toBeNull();
    expect(by.drip.last_error).toBeNull();
  });
});
