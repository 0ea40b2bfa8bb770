// Per-source cadence and staleness on the interval a source is actually polled at (and publishes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { manualClock } from '../src/clock.ts';
import { Pipeline } from '../src/pipeline.ts';
import { LOOPBACK_HTTP } from '../src/sources/http.ts';
import { freshness, nextInterval, publishedInterval, staleAt, wakeReason } from '../src/sources/scheduler.ts';
import { blankStatus } from '../src/state/status.ts';
import { ScriptedFeed, tempDir, until } from './scripted-feed.ts';
import { sourceDef } from './shared-data.ts';

const BIN = fileURLToPath(new URL('../../bin/outage.js', import.meta.url));
const MIAMI = { x: -80.45, y: 25.6 };
const layer = (n: number) => ({ features: [{ attributes: { OUTAGE_ID: 'a', EST_CUSTOMERS: n }, geometry: MIAMI }] });

describe('a cycle wakes for each archive quarter', () => {
  it('a cycle in a new quarter hour is evaluated; another in the same quarter has nothing new to archive', () => {
    const src = sourceDef({ interval_min: 30 });
    const at = (t: string) => new Date(`2026-09-01T${t}:00Z`);
    // 10:14 wrote the 10:00 quarter; 10:15 begins the 10:15 quarter (state/archive.ts quarterOf): it must be evaluated.
    expect(wakeReason([src], new Map(), at('10:14'), at('10:15'))).toBe('new quarter');
    // 10:00, 10:05 and 10:14 all write the 10:00 quarter: nothing new to archive.
    expect(wakeReason([src], new Map(), at('10:00'), at('10:05'))).toBeNull();
    expect(wakeReason([src], new Map(), at('10:05'), at('10:14'))).toBeNull();
  });
});

describe('staleness follows the published interval', () => {
  const src = sourceDef({ interval_min: 30 });
  const now = new Date('2026-09-01T12:00:00Z');
  const status = {
    ...blankStatus('test'),
    hardened: true,
    last_success_at: new Date(now.getTime() - 30 * 60_000).toISOString(),
  };
  it('a hardened 30-minute source publishes 10 and is stale after max(20, 2 × 10 + 5) = 25 minutes', () => {
    expect(publishedInterval(src, status)).toBe(10);
    expect(staleAt(src, status)).toBe('2026-09-01T11:55:00.000Z');
    expect(freshness(src, status, now)).toBe('stale');
    expect(freshness(src, { ...status, hardened: false }, now)).toBe('fresh');
  });
});

describe('back-off', () => {
  it('doubles on consecutive 429/403, caps at an hour, honours Retry-After, never polls faster than the row', () => {
    expect(nextInterval(5, { consecutive_failures: 1, last_reason: 'http_status' }, { status: 429 })).toBe(10);
    expect(nextInterval(5, { consecutive_failures: 3, last_reason: 'http_status' }, { status: 403 })).toBe(40);
    expect(nextInterval(5, { consecutive_failures: 9, last_reason: 'http_status' }, { status: 429 })).toBe(60);
    expect(
      nextInterval(5, { consecutive_failures: 1, last_reason: 'http_status' }, { status: 503, retryAfter: 1200 }),
    ).toBe(20);
    expect(
      nextInterval(15, { consecutive_failures: 1, last_reason: 'http_status' }, { status: 503, retryAfter: 1 }),
    ).toBe(15);
    expect(nextInterval(5, { consecutive_failures: 1, last_reason: 'timeout' }, null)).toBe(5);
  });
});

describe('cadence over a simulated hour', () => {
  const feed = new ScriptedFeed();
  const tmp = tempDir('cadence');
  beforeAll(() => feed.start());
  afterAll(async () => {
    await feed.stop();
    tmp.remove();
  });

  const hour = async (name: string, out: number) => {
    feed.hits.length = 0;
    feed.set(`/${name}-15/0/query`, layer(out));
    feed.set(`/${name}-60/0/query`, layer(out));
    const clock = manualClock(new Date('2026-09-01T00:00:00Z'));
    const mk = (id: string, interval: number) =>
      sourceDef({
        id,
        connector: 'arcgis',
        states: ['FL'],
        url: `${feed.base}/${id}/0`,
        interval_min: interval,
        customers: 10_000,
        options: {},
      });
    const sources = [mk(`${name}-15`, 15), mk(`${name}-60`, 60)];
    const p = await Pipeline.open({
      stateDir: path.join(tmp.dir, name),
      outDir: path.join(tmp.dir, `${name}-public`),
      sources,
      clock,
      simulated: false,
      http: LOOPBACK_HTTP,
    });
    const polled: string[] = [];
    try {
      for (let minute = 0; minute < 60; minute += 1) {
        const s = await p.cycle();
        if (s.polled) polled.push(`${minute}:${s.polled}`);
        clock.advance(60_000);
      }
    } finally {
      await p.close();
    }
    const count = (id: string) => feed.hits.filter((h) => h.startsWith(`/${id}/`)).length;
    return { quiet: count(`${name}-15`), slow: count(`${name}-60`), polled };
  };

  it('polls only due sources: interval 15 four times, interval 60 once', async () => {
    const r = await hour('calm', 10);
    expect(r.quiet).toBe(4);
    expect(r.slow).toBe(1);
    expect(r.polled).toEqual(['0:2', '15:1', '30:1', '45:1']);
  });
  it('hardened polling (≥ 1 % out) raises it: every 5 minutes after the first poll', async () => {
    const r = await hour('storm', 500);
    expect(r.quiet).toBe(12); // 5 % out from the first poll: every 5 minutes, 0 … 55
    expect(r.slow).toBe(3); // every 20 minutes: 0, 20, 40
  });
});

describe('poll loop', () => {
  const feed = new ScriptedFeed();
  const tmp = tempDir('loop');
  beforeAll(() => feed.start());
  afterAll(async () => {
    await feed.stop();
    tmp.remove();
  });

  for (const [signal, cycles] of [
    ['SIGTERM', 3],
    ['SIGINT', 1],
  ] as const) {
    it(`sleeps between due sources and stops cleanly on ${signal}`, async () => {
      feed.set('/loop/0/query', layer(10));
      feed.hits.length = 0;
      const registry = path.join(tmp.dir, 'sources.csv');
      fs.writeFileSync(
        registry,
        `id,utility,state,connector,url,interval_min,tier\nloop,Loop Utility,FL,arcgis,${feed.base}/loop/0,1,3\n`,
      );
      const child = spawn(
        process.execPath,
        [
          BIN,
          'poll',
          '--no-deliveries',
          '--sources',
          registry,
          '--state',
          path.join(tmp.dir, `state-${signal}`),
          '--out',
          path.join(tmp.dir, `public-${signal}`),
          '--speed',
          '30',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let log = '';
      child.stdout.on('data', (d) => (log += d));
      child.stderr.on('data', (d) => (log += d));
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      try {
        await until(() => (log.match(/cycle:/g) ?? []).length >= cycles, 150_000);
        // interval 1 min at 30× speed: one poll every 2 s of wall time, not a busy loop
        expect(feed.hits.length).toBeGreaterThanOrEqual(cycles);
        expect(feed.hits.length).toBeLessThanOrEqual((log.match(/cycle:/g) ?? []).length + 1);
        child.kill(signal);
        expect(await exited).toBe(0);
        expect(log).toMatch(/poll loop stopped/);
      } finally {
        child.kill('SIGKILL');
      }
    });
  }
});
