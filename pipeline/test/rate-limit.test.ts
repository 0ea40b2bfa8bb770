// Function-layer limits (spec: Limits; issue 9 part 10): a per-client token bucket answers 429 with Retry-After and the
// standard error body on query-filtered requests and the account endpoints; prebuilt files are never limited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { manualClock } from '../src/clock.ts';
import { createApp } from '../src/serve/app.ts';
import { startServer } from '../src/serve/server.ts';
import { buildOpenApi } from '../src/publish/openapi.ts';
import { FsTreeWriter } from '../src/publish/tree-writer.ts';
import { FRAMES_FILE } from '../src/publish/publish.ts';
import { CATALOGUE, FUNCTION_ENDPOINTS } from '../src/contract/catalogue.ts';
import { rateLimitsFromEnv } from '../src/serve/rate-limit.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rate-limit-'));
const T0 = new Date('2026-09-01T08:00:00Z');
const limits = {
  query: { perMinute: 6, burst: 3 },
  account: { perMinute: 2, burst: 2 },
  clientHeader: 'x-forwarded-for',
  trustedProxies: [] as string[],
};

beforeAll(async () => {
  const w = new FsTreeWriter(dir, T0);
  const body = Buffer.from(
    JSON.stringify({ data: { generated_at: T0.toISOString(), frames: [{ at: T0.toISOString(), states: {} }] } }),
  );
  for (const f of ['api/v1/live/summary.json', 'api/v1/live/timeline.json', FRAMES_FILE]) w.put(f, () => body, body);
  await w.commit({ simulated: false, notice: 'test' });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const from = (ip: string, init: RequestInit = {}) => ({
  ...init,
  headers: { 'X-Forwarded-For': ip, ...(init.headers ?? {}) },
});
const statuses = async (n: number, go: () => Response | Promise<Response>) => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await go()).status);
  return out;
};

describe('per-client rate limits', () => {
  it('answers 429 with Retry-After and the error body past the burst, then refills', async () => {
    const clock = manualClock(T0);
    const app = createApp({ outDir: dir, clock, rateLimits: limits });
    const filtered = () => app.request('/api/v1/live/timeline?hours=1', from('203.0.113.7'));
    expect(await statuses(3, filtered)).toEqual([200, 200, 200]);
    const limited = await filtered();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('10'); // one token at 6 a minute: 10 s
    expect(limited.headers.get('cache-control')).toBe('no-store');
    expect(limited.headers.get('x-request-id')).toBeTruthy();
    const { data } = await limited.json();
    expect(data.error).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(data.error.message).toMatch(/6 a minute, bursts of 3.*Retry after 10 s/);
    clock.advance(9_000);
    expect((await filtered()).status).toBe(429);
    clock.advance(1_000);
    expect((await filtered()).status).toBe(200);
  });

  it('keeps one bucket per client, and another for the account endpoints', async () => {
    const app = createApp({ outDir: dir, clock: manualClock(T0), rateLimits: limits });
    await statuses(3, () => app.request('/api/v1/live/timeline?hours=2', from('203.0.113.7')));
    expect((await app.request('/api/v1/live/timeline?hours=2', from('203.0.113.7'))).status).toBe(429);
    expect((await app.request('/api/v1/live/timeline?hours=2', from('198.51.100.4'))).status).toBe(200);
    // the account routes: 503 without an account database, until the bucket of 2 is spent
    const account = () => app.request('/api/v1/rules', from('203.0.113.7'));
    expect(await statuses(3, account)).toEqual([503, 503, 429]);
    expect((await app.request('/api/v1/accounts', from('203.0.113.7', { method: 'POST', body: '{}' }))).status).toBe(
      429,
    );
  });

  it('never limits prebuilt files, bad requests or the 410', async () => {
    const app = createApp({ outDir: dir, clock: manualClock(T0), rateLimits: limits });
    await statuses(3, () => app.request('/api/v1/live/timeline?hours=3', from('203.0.113.9')));
    expect((await app.request('/api/v1/live/timeline?hours=3', from('203.0.113.9'))).status).toBe(429);
    expect(await statuses(20, () => app.request('/api/v1/live/summary', from('203.0.113.9')))).toEqual(
      Array(20).fill(200),
    );
    expect(await statuses(5, () => app.request('/api/v1/live/counties/123', from('203.0.113.9')))).toEqual(
      Array(5).fill(400),
    );
    expect(
      await statuses(5, () => app.request('/api/v1/alerts/subscribe', from('203.0.113.9', { method: 'POST' }))),
    ).toEqual(Array(5).fill(410));
  });

  it('does not limit requests from this machine (tests, benchmarks) and ignores a forged header from a public peer', async () => {
    const app = createApp({ outDir: dir, clock: manualClock(T0), rateLimits: limits });
    expect(await statuses(6, () => app.request('/api/v1/live/timeline?hours=4'))).not.toContain(429);
    expect(await statuses(6, () => app.request('/api/v1/live/timeline?hours=4', from('127.0.0.1')))).not.toContain(429);
    // A peer on a public address is the client, whatever X-Forwarded-For it sends (one bucket despite four names).
    const peer = { incoming: { socket: { remoteAddress: '192.0.2.50' } } };
    let n = 0;
    const spoofed = await statuses(4, () =>
      app.request('/api/v1/live/timeline?hours=5', from(`198.51.100.${++n}`), peer),
    );
    expect(spoofed).toEqual([200, 200, 200, 429]);
  });
});

describe('over a real socket', () => {
  it('takes the client from X-Forwarded-For behind a configured proxy, and leaves local callers alone', async () => {
    const rateLimits = { ...limits, trustedProxies: ['127.0.0.1', '10.0.0.0/8'] };
    const server = await startServer({ outDir: dir, port: 0, clock: manualClock(T0), rateLimits });
    try {
      const get = (headers: Record<string, string> = {}) =>
        fetch(`${server.url}/api/v1/live/timeline?hours=6`, { headers });
      expect(await statuses(4, () => get())).toEqual([200, 200, 200, 200]);
      // the nearest untrusted address: 10.0.0.2 is a trusted proxy hop, 203.0.113.77 the client; what the client put
      // in front of it (198.51.100.n) is its own invention and changes nothing
      let n = 0;
      const proxied = await statuses(4, () => get({ 'X-Forwarded-For': `198.51.100.${++n}, 203.0.113.77, 10.0.0.2` }));
      expect(proxied).toEqual([200, 200, 200, 429]);
    } finally {
      await server.close();
    }
  });
});

describe('X-Forwarded-For from an unconfigured peer (issue 24)', () => {
  it('is ignored from a private or loopback peer unless that peer is a configured proxy', async () => {
    const app = createApp({ outDir: dir, clock: manualClock(T0), rateLimits: limits });
    for (const [i, address] of ['10.0.0.5', '::ffff:192.168.1.9'].entries()) {
      let n = 0;
      const peer = { incoming: { socket: { remoteAddress: address } } };
      // before the fix each forged address was its own bucket: [200, 200, 200, 200]
      const forged = await statuses(4, () =>
        app.request(`/api/v1/live/timeline?hours=${10 + i}`, from(`198.51.100.${++n}`), peer),
      );
      expect(forged, address).toEqual([200, 200, 200, 429]);
    }
    const behindProxy = createApp({
      outDir: dir,
      clock: manualClock(T0),
      rateLimits: { ...limits, trustedProxies: ['10.0.0.0/8'] },
    });
    let n = 0;
    const peer = { incoming: { socket: { remoteAddress: '10.0.0.5' } } };
    const named = await statuses(4, () =>
      behindProxy.request('/api/v1/live/timeline?hours=12', from(`198.51.100.${++n}`), peer),
    );
    expect(named).toEqual([200, 200, 200, 200]);
  });

  it('rejects a trusted-proxy list that is not addresses or CIDRs', () => {
    expect(rateLimitsFromEnv({ RATE_LIMIT_TRUSTED_PROXIES: ' 127.0.0.1, 10.0.0.0/8 ,::1' }).trustedProxies).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
    ]);
    expect(() => rateLimitsFromEnv({ RATE_LIMIT_TRUSTED_PROXIES: 'nginx' })).toThrow(/RATE_LIMIT_TRUSTED_PROXIES/);
    expect(() => rateLimitsFromEnv({ RATE_LIMIT_TRUSTED_PROXIES: '10.0.0.0/33' })).toThrow(
      /RATE_LIMIT_TRUSTED_PROXIES/,
    );
  });
});

/** The generated OpenAPI document, as far as the test below reads it: each operation's responses. */
type Responses = Record<string, { headers?: Record<string, unknown> } | undefined>;
type OpenApi = { paths: Record<string, Record<string, { responses: Responses }>> };

describe('configuration and documentation', () => {
  it('has documented defaults, overridable by the environment', () => {
    expect(rateLimitsFromEnv({})).toEqual({
      query: { perMinute: 120, burst: 60 },
      account: { perMinute: 30, burst: 10 },
      clientHeader: 'x-forwarded-for',
      trustedProxies: [],
    });
    expect(
      rateLimitsFromEnv({
        RATE_LIMIT_QUERY_PER_MIN: '0',
        RATE_LIMIT_ACCOUNT_BURST: '4',
        RATE_LIMIT_CLIENT_HEADER: 'X-Real-IP',
      }),
    ).toEqual({
      query: { perMinute: 0, burst: 60 },
      account: { perMinute: 30, burst: 4 },
      clientHeader: 'x-real-ip',
      trustedProxies: [],
    });
    expect(() => rateLimitsFromEnv({ RATE_LIMIT_QUERY_BURST: 'lots' })).toThrow(
      /`RATE_LIMIT_QUERY_BURST` to be a whole number/,
    );
    const readme = fs.readFileSync(new URL('../../docs/guardrails.md', import.meta.url), 'utf8');
    for (const v of [
      'RATE_LIMIT_QUERY_PER_MIN',
      'RATE_LIMIT_QUERY_BURST',
      'RATE_LIMIT_ACCOUNT_PER_MIN',
      'RATE_LIMIT_ACCOUNT_BURST',
      'RATE_LIMIT_CLIENT_HEADER',
      'RATE_LIMIT_TRUSTED_PROXIES',
    ])
      expect(readme, v).toContain(`\`${v}\``);
  });

  it('documents the 429 on exactly the limited operations', () => {
    const doc = buildOpenApi(false) as OpenApi;
    const filtered = CATALOGUE.filter((e) => e.functionParams?.length);
    const accounts = FUNCTION_ENDPOINTS.filter((f) => !f.kind);
    expect(filtered.length).toBeGreaterThan(5);
    for (const e of filtered)
      expect(doc.paths[e.path].get.responses['429']?.headers?.['Retry-After'], e.id).toBeDefined();
    for (const f of accounts)
      expect(doc.paths[f.path][f.method.toLowerCase()].responses['429']?.headers?.['Retry-After'], f.id).toBeDefined();
    for (const e of CATALOGUE.filter((x) => !x.functionParams?.length))
      expect(doc.paths[e.path].get.responses['429'], e.id).toBeUndefined();
    expect(doc.paths['/api/v1/alerts/subscribe'].post.responses['429']).toBeUndefined();
    expect(doc.paths['/healthz'].get.responses['429']).toBeUndefined();
  });
});
