// X-Request-Id on every v1 response (spec: Versioning): the built edge middleware run through the host interpreter in
// front of a prebuilt file and of the function layer, and the local server on its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createApp } from '../src/serve/app.ts';
import { hostOutput, MIDDLEWARE, type HostRoute } from '../src/publish/host-config.ts';
import { FsTreeWriter } from '../src/publish/tree-writer.ts';
import { requestLikeHost, type Handler } from './host-router.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'request-id-'));
const out = path.join(dir, 'public');
const output = path.join(dir, '.vercel', 'output');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const SUMMARY = 'api/v1/live/summary.json';
let routes: HostRoute[];
let middleware: Handler;
const app = createApp({ outDir: out });

beforeAll(async () => {
  const w = new FsTreeWriter(out, new Date('2026-09-01T08:00:00Z'));
  const body = Buffer.from(JSON.stringify({ data: { generated_at: '2026-09-01T08:00:00Z' } }));
  w.put(SUMMARY, () => body, body);
  await w.commit({ simulated: false, notice: 'test' });
  // The build output exactly as `outage host-config` writes it, then the middleware loaded the way the host would.
  for (const [rel, text] of Object.entries(hostOutput(false))) {
    fs.mkdirSync(path.dirname(path.join(output, rel)), { recursive: true });
    fs.writeFileSync(path.join(output, rel), text);
  }
  routes = JSON.parse(fs.readFileSync(path.join(output, 'config.json'), 'utf8')).routes;
  const funcDir = path.join(output, 'functions', `${MIDDLEWARE}.func`);
  const vc = JSON.parse(fs.readFileSync(path.join(funcDir, '.vc-config.json'), 'utf8'));
  expect(vc.runtime).toBe('edge');
  middleware = (await import(pathToFileURL(path.join(funcDir, vc.entrypoint)).href)).default;
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const viaHost = (method: string, url: string, headers: Record<string, string> = {}) =>
  requestLikeHost(
    routes,
    { [MIDDLEWARE]: middleware },
    new Request(new URL(url, 'https://outage.example'), { method, headers }),
    {
      exists: (f) => f === SUMMARY,
      fn: (req) => app.fetch(req),
    },
  );

describe('X-Request-Id on the deployed host', () => {
  it('runs the middleware before any route, on v1 paths only', () => {
    expect(routes[0]).toMatchObject({ middlewarePath: MIDDLEWARE, continue: true });
    const src = new RegExp(routes[0].src);
    for (const p of ['/api/v1/live/summary', '/feeds/events.rss', '/llms.txt']) expect(src.test(p), p).toBe(true);
    for (const p of ['/', '/counties/12086', '/favicon.ico']) expect(src.test(p), p).toBe(false);
  });

  it('gives a prebuilt file a fresh id on every request', async () => {
    const a = await viaHost('GET', '/api/v1/live/summary');
    const b = await viaHost('GET', '/api/v1/live/summary');
    expect([a.kind, a.file, b.kind]).toEqual(['file', SUMMARY, 'file']);
    expect(a.headers.get('x-request-id')).toMatch(UUID);
    expect(b.headers.get('x-request-id')).toMatch(UUID);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
    expect(a.headers.get('x-api-version')).toBe('1');
  });

  it('has the function layer answer with the id the edge generated', async () => {
    const gone = await viaHost('POST', '/api/v1/alerts/subscribe');
    const bad = await viaHost('GET', '/api/v1/live/counties/123');
    expect([gone.kind, gone.status, bad.kind, bad.status]).toEqual(['function', 410, 'function', 400]);
    for (const r of [gone, bad]) {
      expect(r.headers.get('x-request-id')).toMatch(UUID);
      expect(r.fromFunction!.headers.get('x-request-id')).toBe(r.headers.get('x-request-id'));
    }
    expect(gone.headers.get('x-request-id')).not.toBe(bad.headers.get('x-request-id'));
  });

  it('replaces an id the client sent, and keeps the other request headers', async () => {
    const mine = '00000000-0000-4000-8000-000000000000';
    const r = await viaHost('GET', '/api/v1/live/counties/123', { 'X-Request-Id': mine, 'If-None-Match': '"x"' });
    expect(r.headers.get('x-request-id')).toMatch(UUID);
    expect(r.headers.get('x-request-id')).not.toBe(mine);
    const forwarded = await middleware(
      new Request('https://outage.example/api/v1/live/map', { headers: { 'If-None-Match': '"x"' } }),
    );
    expect(forwarded.headers.get('x-middleware-override-headers')!.split(',')).toEqual([
      'if-none-match',
      'x-request-id',
    ]);
    expect(forwarded.headers.get('x-middleware-request-if-none-match')).toBe('"x"');
  });

  it('never repeats an id across many requests', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++)
      ids.add(
        (
          await viaHost(i % 2 ? 'GET' : 'POST', i % 2 ? '/api/v1/live/summary' : '/api/v1/alerts/subscribe')
        ).headers.get('x-request-id')!,
      );
    expect(ids.size).toBe(20);
  });
});

describe('X-Request-Id on the local server', () => {
  it('sets a fresh UUID on files, function answers and errors alike', async () => {
    const responses = [
      await app.request('/api/v1/live/summary'),
      await app.request('/api/v1/live/summary'),
      await app.request('/api/v1/alerts/subscribe', { method: 'POST' }),
      await app.request('/api/v1/nope'),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 410, 404]);
    const ids = responses.map((r) => r.headers.get('x-request-id')!);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(4);
  });

  it('keeps the id the edge forwarded, and ignores one that is not a UUID', async () => {
    const edge = '3f2a9c1e-8b7d-4c6e-9f01-23456789abcd';
    expect(
      (await app.request('/api/v1/live/summary', { headers: { 'X-Request-Id': edge } })).headers.get('x-request-id'),
    ).toBe(edge);
    const r = await app.request('/api/v1/live/summary', { headers: { 'X-Request-Id': '<script>1</script>' } });
    expect(r.headers.get('x-request-id')).toMatch(UUID);
  });
});
