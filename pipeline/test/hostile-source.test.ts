// One hostile source never stops a cycle: a 64-bit sentinel is quarantined, a slow-drip body hits its deadline, and the
// healthy neighbour's data is stored and published by `poll --once`, which exits 0.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ScriptedFeed, tempDir } from './scripted-feed.ts';

const BIN = fileURLToPath(new URL('../../bin/outage.js', import.meta.url));
const feed = new ScriptedFeed();
const tmp = tempDir('hostile');
const out = path.join(tmp.dir, 'public');
let run: { status: number | null; stdout: string; stderr: string };
let wallMs = 0;

beforeAll(async () => {
  await feed.start();
  feed.set('/good/0/query', {
    features: [{ attributes: { OUTAGE_ID: 'g', EST_CUSTOMERS: 700 }, geometry: { x: -80.45, y: 25.6 } }],
  });
  feed.set('/sentinel/0/query', {
    body: '{"features":[{"attributes":{"OUTAGE_ID":"s","EST_CUSTOMERS":9223372036854776000},"geometry":{"x":-82.46,"y":27.95}}]}',
  });
  feed.set('/negative/0/query', {
    features: [{ attributes: { OUTAGE_ID: 'n', EST_CUSTOMERS: -999999 }, geometry: { x: -81.38, y: 28.54 } }],
  });
  feed.set('/drip/0/query', { body: JSON.stringify({ features: [] }), dripMs: 5000 });
  const registry = path.join(tmp.dir, 'sources.csv');
  fs.writeFileSync(
    registry,
    [
      'id,utility,state,connector,url,interval_min,tier',
      ...['good', 'sentinel', 'negative', 'drip'].map((id) => `${id},${id} power,FL,arcgis,${feed.base}/${id}/0,10,2`),
    ].join('\n'),
  );
  const t0 = Date.now();
  // Async: the scripted upstream answers from this process's event loop.
  run = await runCli(
    [
      BIN,
      'poll',
      '--once',
      '--no-deliveries',
      '--sources',
      registry,
      '--state',
      path.join(tmp.dir, 'state'),
      '--out',
      out,
    ],
    { OUTAGE_REQUEST_DEADLINE_MS: '4000', OUTAGE_SOURCE_DEADLINE_MS: '6000' },
  );
  wallMs = Date.now() - t0;
});
afterAll(async () => {
  await feed.stop();
  tmp.remove();
});

const data = (rel: string) => JSON.parse(fs.readFileSync(path.join(out, 'api/v1', rel), 'utf8')).data;

describe('poll --once beside hostile sources', () => {
  it("exits 0 and finishes near its deadline, not the drip's pace", () => {
    expect(run.status, String(run.stderr)).toBe(0);
    expect(wallMs).toBeLessThan(60_000);
  });
  it('publishes the healthy source and marks the others with their reasons', () => {
    expect(data('live/map.json')['12086'][0]).toBe(700);
    const reasons = Object.fromEntries(
      (data('live/sources.json').sources as Array<{ id: string; last_error: { reason: string } | null }>).map((s) => [
        s.id,
        s.last_error?.reason ?? null,
      ]),
    );
    // A negative count is no count, and never 0: the layer's only outage unreadable fails the poll naming the field
    // (issue 36); quarantine catches what a connector passes on.
    expect(reasons).toEqual({ good: null, sentinel: 'implausible_value', negative: 'schema', drip: 'timeout' });
  });
  it("publishes each source's health over 24 h and 7 days, also in `outage sources`", async () => {
    const byId = Object.fromEntries(
      (
        data('live/sources.json').sources as Array<{
          id: string;
          health: { last_24h: { polls: number; success_rate: number } };
        }>
      ).map((s) => [s.id, s.health.last_24h]),
    );
    expect(byId.good).toMatchObject({ polls: 1, success_rate: 1 });
    expect(byId.sentinel).toMatchObject({ polls: 1, success_rate: 0 });
    const listed = await runCli(
      [
        BIN,
        'sources',
        '--json',
        '--sources',
        path.join(tmp.dir, 'sources.csv'),
        '--state',
        path.join(tmp.dir, 'state'),
      ],
      {},
    );
    const rows = JSON.parse(listed.stdout) as Array<{
      id: string;
      health: { last_7d: { polls: number; success_rate: number } };
    }>;
    expect(rows.find((r) => r.id === 'drip')?.health.last_7d).toMatchObject({ polls: 1, success_rate: 0 });
  });
  it('publishes nothing absurd', () => {
    const map = data('live/map.json') as Record<string, [number, number | null, number, number, number]>;
    for (const [k, [n, pct, , band]] of Object.entries(map)) {
      expect(Number.isSafeInteger(n) && n >= 0, k).toBe(true);
      expect(pct === null || (pct >= 0 && pct <= 100), k).toBe(true);
      expect(band >= -1 && band <= 5, k).toBe(true);
    }
    expect(Object.keys(map).filter((k) => /^\d{5}$/.test(k))).toEqual(['12086']);
  });
});

function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('exit', (status) => {
      clearTimeout(killer);
      resolve({ status, stdout, stderr });
    });
  });
}
