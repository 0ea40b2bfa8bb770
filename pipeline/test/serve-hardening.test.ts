// Issue 24, the local server's rows: security headers (and the same in the Vercel and nginx configs), absolute links
// from --base-url only, HEAD on every GET route with Content-Length, weak and listed If-None-Match. In-process with
// app.request(), plus one real socket for what Node's HTTP server does to HEAD.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/serve/app.ts';
import { startServer } from '../src/serve/server.ts';
import { FsTreeWriter } from '../src/publish/tree-writer.ts';
import { FRAMES_FILE } from '../src/publish/publish.ts';
import { INDEX_FILE } from '../src/publish/events.ts';
import { vercelConfig } from '../src/publish/host-config.ts';
import { nginxConfig } from '../src/publish/nginx-config.ts';
import { cspValue } from '../src/contract/security-headers.ts';
import { closeAll, makeTempDir, removeTempDir } from './clean-machine.ts';

const T0 = new Date('2026-09-01T08:00:00Z');
let dir: string | undefined;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  dir = makeTempDir('serve-hardening');
  const w = new FsTreeWriter(dir, T0);
  const doc = (data: unknown) => Buffer.from(JSON.stringify({ data }));
  const frames = doc({ generated_at: T0.toISOString(), frames: [{ at: T0.toISOString(), states: {} }] });
  for (const f of ['api/v1/live/summary.json', 'api/v1/live/timeline.json', FRAMES_FILE])
    w.put(f, () => frames, frames);
  const index = doc({ generated_at: T0.toISOString(), max_id: 0, first_id: 0, chunks: [], utilities: [] });
  w.put(INDEX_FILE, () => index, index);
  await w.commit({ simulated: false, notice: 'test' });
  app = createApp({ outDir: dir, baseUrl: 'https://outage.example.org' });
});
afterAll(() => closeAll(() => removeTempDir(dir)));

describe('security headers (issue 24: no CSP, nosniff, Referrer-Policy or frame-ancestors on any answer)', () => {
  it('puts CSP, nosniff and Referrer-Policy on files, function answers, errors and pages; only embeds may be framed', async () => {
    for (const url of [
      '/api/v1/live/summary',
      '/api/v1/live/timeline?hours=2',
      '/api/v1/nope',
      '/healthz',
      '/sources',
    ]) {
      const res = await app.request(url);
      expect(res.headers.get('content-security-policy'), url).toBe(cspValue(false));
      expect(res.headers.get('x-content-type-options'), url).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), url).toBe('strict-origin-when-cross-origin');
      // chart hotlinks must keep working from other sites: no Cross-Origin-Resource-Policy: same-origin
      expect(res.headers.get('cross-origin-resource-policy'), url).toBeNull();
    }
    const csp = cspValue(false);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    const embed = await app.request('/embed/map');
    expect(embed.status).toBe(200);
    expect(embed.headers.get('content-security-policy')).toBe(cspValue(true));
    expect(cspValue(true)).not.toContain('frame-ancestors'); // framed by anyone, opaque origins included
  });

  it('are in the Vercel routes and on every nginx file location', () => {
    const routes = vercelConfig(false).routes;
    const site = routes.find((r) => r.headers?.['Content-Security-Policy'] === cspValue(false))!;
    const embeds = routes.find((r) => r.headers?.['Content-Security-Policy'] === cspValue(true))!;
    expect(site).toMatchObject({ continue: true, headers: { 'X-Content-Type-Options': 'nosniff' } });
    expect(new RegExp(site.src).test('/api/v1/live/map')).toBe(true);
    expect(new RegExp(site.src).test('/embed/map')).toBe(false);
    expect(new RegExp(embeds.src).test('/embed/states/fl')).toBe(true);
    const conf = nginxConfig({ root: '/srv/tree', upstream: '127.0.0.1:8787', listen: '80', simulated: false });
    const fileLocations = conf.split('\n  location ').filter((b) => b.includes('try_files'));
    expect(fileLocations.length).toBeGreaterThan(10);
    for (const block of fileLocations) {
      expect(block).toContain(`add_header Content-Security-Policy "${cspValue(false)}";`);
      expect(block).toContain('add_header X-Content-Type-Options "nosniff";');
      expect(block).toContain('add_header Referrer-Policy "strict-origin-when-cross-origin";');
    }
  });
});

describe('absolute links (issue 24: the Host header was reflected into cacheable links)', () => {
  it('come from --base-url whatever Host the request names', async () => {
    for (const url of ['/feeds/events.rss?kind=outage_began', '/api/v1/feeds/events.atom?kind=outage_began']) {
      const res = await app.request(`http://evil.example${url}`, { headers: { Host: 'evil.example' } });
      expect(res.status, url).toBe(200);
      const body = await res.text();
      expect(body, url).not.toContain('evil.example');
      expect(body, url).toContain('https://outage.example.org/');
    }
    const json = await app.request('http://evil.example/feeds/events.json?kind=outage_began');
    expect(JSON.stringify(await json.json())).not.toContain('evil.example');
  });
});

describe('HEAD and conditional requests (issue 24: HEAD /healthz 405, no Content-Length, weak ETags 200)', () => {
  it('answers HEAD on every GET route, /healthz included, with the GET answer’s Content-Length', async () => {
    for (const url of [
      '/healthz',
      '/api/v1/live/summary',
      '/api/v1/live/timeline?hours=3',
      '/feeds/events.rss?kind=outage_began',
    ]) {
      const get = await app.request(url);
      const length = (await get.arrayBuffer()).byteLength;
      const head = await app.request(url, { method: 'HEAD' });
      expect([url, head.status], url).toEqual([url, get.status]);
      expect(head.headers.get('content-length'), url).toBe(String(length));
      expect(await head.text(), url).toBe('');
    }
    expect((await app.request('/healthz', { method: 'HEAD' })).status).toBe(200);
  });

  it('answers 304 to a weak ETag and to a list that names the ETag', async () => {
    const first = await app.request('/api/v1/live/summary');
    const etag = first.headers.get('etag')!;
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, `"a", W/${etag}, "b"`, '*'])
      expect((await app.request('/api/v1/live/summary', { headers: { 'If-None-Match': inm } })).status, inm).toBe(304);
    expect((await app.request('/api/v1/live/summary', { headers: { 'If-None-Match': '"other"' } })).status).toBe(200);
  });

  it('keeps Content-Length on HEAD through a real socket', async () => {
    const server = await startServer({ outDir: dir!, port: 0 });
    try {
      for (const url of ['/api/v1/live/summary', '/healthz']) {
        const get = await fetch(`${server.url}${url}`);
        const length = (await get.arrayBuffer()).byteLength;
        const head = await fetch(`${server.url}${url}`, { method: 'HEAD' });
        expect([url, head.status, head.headers.get('content-length')]).toEqual([url, 200, String(length)]);
      }
    } finally {
      await server.close();
    }
  });
});
