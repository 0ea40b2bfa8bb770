// `npm run build` (scripts/build.mjs): the bundle runs the CLI without tsx, from the checkout's files; bin/outage.js
// takes it only while it is as new as every source file.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript build script, no declarations
import { build, buildIsFresh } from '../../scripts/build.mjs';
import { makeTempDir, removeTempDir } from './clean-machine.ts';

// Built outside the checkout, as a test must: the packages resolve through a link, the checkout's files through the
// working directory (pipeline/src/package-root.ts).
const out = makeTempDir('build');
fs.symlinkSync(path.resolve('node_modules'), path.join(out, 'node_modules'));
afterAll(() => removeTempDir(out));

const run = (...args: string[]) =>
  spawnSync(process.execPath, [path.join(out, 'outage.js'), ...args], { encoding: 'utf8', env: { ...process.env } });

describe('the build', () => {
  it('bundles the CLI and the server thread, and the bundle runs every command from the checkout', async () => {
    const files: string[] = await build(out);
    expect(files.map((f) => path.basename(f))).toEqual(expect.arrayContaining(['outage.js', 'worker.js']));
    const source = fs.readFileSync(path.join(out, 'outage.js'), 'utf8');
    expect(source).not.toMatch(/\btsx\b/);
    const help = run('--help');
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^\s+poll \[options\]/m);
    // a command that reads files beside the code (data/, the EIA tables) answers as it does from the sources
    const fromBuild = run('coverage', '--json');
    expect(fromBuild.status, fromBuild.stderr).toBe(0);
    const fromSources = spawnSync(process.execPath, ['bin/outage.js', 'coverage', '--json'], {
      encoding: 'utf8',
      env: { ...process.env, OUTAGE_FROM_SOURCES: '1' },
    });
    expect(JSON.parse(fromBuild.stdout)).toEqual(JSON.parse(fromSources.stdout));
  });

  it('runs `start` with its server on a thread of its own, from the bundle', async () => {
    const dir = makeTempDir('build-start');
    const args = [
      'start',
      '--no-history',
      '--sim-sources',
      '6',
      '--port',
      '0',
      '--state',
      `${dir}/state`,
      '--out',
      `${dir}/public`,
    ];
    const child = spawn(process.execPath, [path.join(out, 'outage.js'), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout.on('data', (d) => (log += d));
    child.stderr.on('data', (d) => (log += d));
    try {
      await expect.poll(() => child.exitCode !== null || /is running at/.test(log), { timeout: 170_000 }).toBe(true);
      const url = /is running at (http:\/\/\S+)\//.exec(log)?.[1];
      expect(url, log).toBeDefined();
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/<svg|<canvas|id="map"/);
      expect((await fetch(`${url}/api/v1/live/map`)).status).toBe(200);
      expect(log).not.toMatch(/thread failed/);
    } finally {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      removeTempDir(dir);
    }
  });

  it('is fresh until a source file is newer than the sources it saw', () => {
    const root = makeTempDir('build-fresh');
    const dist = path.join(root, 'dist');
    for (const dir of ['pipeline/src', 'site/src', 'dist']) fs.mkdirSync(path.join(root, dir), { recursive: true });
    const file = path.join(root, 'pipeline/src/a.ts');
    fs.writeFileSync(file, '');
    fs.utimesSync(file, 1_000, 1_000);
    const stamp = path.join(dist, '.build-stamp');
    fs.writeFileSync(stamp, String(1_000_000));
    expect(buildIsFresh(dist, root)).toBe(true);
    fs.utimesSync(file, 2_000, 2_000); // an edit after the build
    expect(buildIsFresh(dist, root)).toBe(false);
    fs.rmSync(stamp);
    expect(buildIsFresh(dist, root)).toBe(false);
    removeTempDir(root);
  });
});
