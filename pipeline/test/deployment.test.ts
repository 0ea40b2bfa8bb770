// The long-running deployment (issue #11 part 1): `outage poll --listen` answers /healthz beside the loop; a SIGTERM
// in the middle of a cycle lets that cycle finish and publish whole before the process exits 0; /healthz turns 503
// when the loop stops cycling.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../src/serve/app.ts';
import { buildProgram } from '../src/cli/program.ts';
import { readManifest } from '../src/publish/tree-parts.ts';
import { readHeartbeat } from '../src/state/heartbeat.ts';
import { ScriptedFeed, tempDir, until } from './scripted-feed.ts';

const BIN = fileURLToPath(new URL('../../bin/outage.js', import.meta.url));
const MIAMI = { x: -80.45, y: 25.6 };
const layer = { features: [{ attributes: { OUTAGE_ID: 'a', EST_CUSTOMERS: 40 }, geometry: MIAMI }] };

describe('poll loop as the production process', () => {
  const feed = new ScriptedFeed();
  const tmp = tempDir('deploy');
  beforeAll(() => feed.start());
  afterAll(async () => {
    await feed.stop();
    tmp.remove();
  });

  it('serves /healthz, finishes the cycle in progress on SIGTERM, and publishes it whole', async () => {
    // The upstream drips its answer over about two seconds: the first cycle is still polling when the signal comes.
    const body = JSON.stringify(layer);
    feed.set('/dep/0/query', { body, dripMs: Math.ceil(2_000 / body.length) });
    const registry = path.join(tmp.dir, 'sources.csv');
    fs.writeFileSync(
      registry,
      `id,utility,state,connector,url,interval_min,tier\ndep,Dep Utility,FL,arcgis,${feed.base}/dep/0,5,3\n`,
    );
    const [state, out] = [path.join(tmp.dir, 'state'), path.join(tmp.dir, 'public')];
    const child = spawn(
      process.execPath,
      [
        BIN,
        'poll',
        '--no-deliveries',
        '--listen',
        '127.0.0.1:0',
        '--sources',
        registry,
        '--state',
        state,
        '--out',
        out,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let log = '';
    child.stdout.on('data', (d) => (log += d));
    child.stderr.on('data', (d) => (log += d));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      await until(() => /serving .* at (http:\S+)\//.test(log), 60_000);
      const url = /serving .* at (http:\S+)\//.exec(log)![1];
      const before = await fetch(`${url}/healthz`);
      expect(before.status).toBe(503);
      const b = (await before.json()) as { data: { status: string; problems: string[] } };
      expect(b.data.status).toBe('unavailable');
      expect(b.data.problems).toContain('nothing is published yet');
      expect(feed.hits).toContain('/dep/0/query'); // the first cycle is polling
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(log).toMatch(/SIGTERM: stopping after the cycle in progress/);
      expect(log).toMatch(/cycle:/);
      expect(log.indexOf('SIGTERM: stopping')).toBeLessThan(log.indexOf('cycle:')); // the signal came mid-cycle
      expect(log).toMatch(/poll loop stopped/);
    } finally {
      child.kill('SIGKILL');
    }
    // The cycle the signal interrupted was published whole, and its heartbeat names that generation.
    const manifest = readManifest(out)!;
    const beat = readHeartbeat(state)!;
    expect(beat.polled).toBe(1);
    expect(beat.failed).toBe(0);
    expect(beat.generation).toBe(manifest.generation);
    const map = JSON.parse(fs.readFileSync(path.join(out, 'api/v1/live/map.json'), 'utf8'));
    expect(map.data['12086'][0]).toBe(40);
    expect(fs.readdirSync(out, { recursive: true }).filter((f) => String(f).includes('.tmp'))).toEqual([]);

    const at = (ms: number) =>
      createApp({ outDir: out, stateDir: state, clock: () => new Date(Date.parse(beat.finished_at) + ms) });
    const fresh = await at(60_000).request('/healthz');
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('cache-control')).toBe('no-store');
    const f = ((await fresh.json()) as { data: Record<string, unknown> }).data;
    expect(f).toMatchObject({ status: 'ok', ready: true, last_cycle_age_s: 60, sources: 1, publish_lag_s: 0 });
    expect(f.generation).toBe(manifest.generation);
    const stopped = await at(3_600_000).request('/healthz');
    expect(stopped.status).toBe(503);
    const s = ((await stopped.json()) as { data: { problems: string[] } }).data;
    expect(s.problems[0]).toMatch(/last finished a cycle 3600 s ago \(limit 900 s\)/);
  });
});

describe('the systemd units in deploy/', () => {
  const units = ['outage-poll.service', 'outage-serve.service'].map((f) => path.join('deploy', f));
  it('start commands and options the CLI really has', () => {
    const program = buildProgram();
    for (const unit of units) {
      const exec = /^ExecStart=(.*)$/m.exec(fs.readFileSync(unit, 'utf8'))?.[1].split(/\s+/) ?? [];
      expect(exec.slice(0, 2), unit).toEqual(['/usr/bin/node', 'dist/outage.js']);
      const cmd = program.commands.find((c) => c.name() === exec[2]);
      expect(cmd, `${unit}: ${exec[2]}`).toBeDefined();
      const flags = exec.filter((a) => a.startsWith('--'));
      expect(flags.length).toBeGreaterThan(3);
      for (const f of flags)
        expect(
          cmd!.options.map((o) => o.long),
          `${unit}: ${f}`,
        ).toContain(f);
    }
  });
  it('pass systemd-analyze verify where systemd is installed', () => {
    const found = spawnSync('systemd-analyze', ['--version']);
    if (found.error) return void console.warn('deploy units: systemd-analyze not installed, verify skipped');
    const r = spawnSync('systemd-analyze', ['verify', ...units], { encoding: 'utf8' });
    expect(`${r.stdout}${r.stderr}`.trim()).toBe('');
    expect(r.status).toBe(0);
  });
});
