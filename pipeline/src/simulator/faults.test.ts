// The fault proxy's per-request scale: 0 lets every request through untouched, 1 is the unscaled proxy exactly.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../clock.ts';
import type { SourceDef } from '../sources/source-def.ts';
import { FaultProxy, type FaultProxyOptions } from './faults.ts';

const BODY = '{"ok":true}';
const RATES = { http5xx: 0.2, timeout: 0.1, garbage: 0.2 };
const PATHS = Array.from({ length: 120 }, (_, i) => (i % 2 ? `/src-a/tiles/${i}.json` : `/src-a/data/${i}.json`));

let target: http.Server;
let base: string;

beforeAll(async () => {
  target = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': BODY.length });
    res.end(BODY);
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
});

afterAll(async () => {
  target.closeAllConnections();
  await new Promise<void>((resolve) => target.close(() => resolve()));
});

/** What each path got through a fresh proxy (same seed, same instant): 'ok', the 5xx status, 'garbage' or 'stall'. */
async function outcomes(scale?: FaultProxyOptions['scale']): Promise<{ seen: string[]; injected: number }> {
  const proxy = new FaultProxy({
    target: base,
    clock: manualClock(new Date('2026-09-01T04:00:00Z')),
    seed: 7,
    rates: RATES,
    holdMs: 30,
    scale,
  });
  const source = { id: 'src-a', url: `${base}/src-a/` } as SourceDef;
  try {
    const [{ url }] = await proxy.start([source]);
    const origin = new URL(url).origin;
    const seen = await Promise.all(
      PATHS.map(async (p) => {
        try {
          const res = await fetch(origin + p);
          const text = await res.text();
          if (res.status >= 500) return String(res.status);
          return text === BODY ? 'ok' : 'garbage';
        } catch {
          return 'stall';
        }
      }),
    );
    return { seen, injected: Object.values(proxy.injected).reduce((a, b) => a + b, 0) };
  } finally {
    await proxy.stop();
  }
}

describe('FaultProxy scale', () => {
  it('never faults a request scaled by 0', async () => {
    const { seen, injected } = await outcomes(() => 0);
    expect(seen).toHaveLength(PATHS.length);
    expect(seen.filter((s) => s !== 'ok')).toEqual([]);
    expect(injected).toBe(0);
  });

  it('faults exactly as without a scale when the scale is 1', async () => {
    const plain = await outcomes();
    const one = await outcomes(() => 1);
    // half the requests should fault at these rates: a few dozen at least, of every kind
    const faulted = plain.seen.filter((s) => s !== 'ok');
    expect(faulted.length).toBeGreaterThan(30);
    expect(new Set(faulted.map((s) => (/^5\d\d$/.test(s) ? '5xx' : s)))).toEqual(new Set(['5xx', 'garbage', 'stall']));
    expect(one.seen).toEqual(plain.seen);
    expect(one.injected).toBe(plain.injected);
  });

  it('scales per URL: a scaled-down request faults less, and only where the unscaled one did', async () => {
    const plain = await outcomes();
    const tiles = (_id: string, url: string) => (url.includes('/tiles/') ? 0.25 : 1);
    const scaled = await outcomes(tiles);
    const isTile = PATHS.map((p) => p.includes('/tiles/'));
    const faults = (r: { seen: string[] }, tile: boolean) =>
      r.seen.filter((s, i) => isTile[i] === tile && s !== 'ok').length;
    expect(faults(scaled, false)).toBe(faults(plain, false));
    expect(faults(plain, true)).toBeGreaterThan(10);
    expect(faults(scaled, true)).toBeLessThan(faults(plain, true) / 2);
    scaled.seen.forEach((s, i) => {
      if (s !== 'ok') expect(plain.seen[i], PATHS[i]).not.toBe('ok');
    });
  });
});
