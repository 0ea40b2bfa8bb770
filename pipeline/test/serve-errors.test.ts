// Issue 38 part 5, through a real socket on 127.0.0.1 against a simulated run: a browser's 404 is the site's 404 page
// (readable at 390 px in Debian's Chromium), a program's the JSON error; an unknown query name on every endpoint the
// function layer answers is a 400 `unknown_parameter` listing what the OpenAPI document says it takes, the cache
// busters aside; function answers carry an ETag and a charset and answer If-None-Match with 304.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { manualClock } from '../src/clock.ts';
import { Simulator } from '../src/simulator/server.ts';
import { parseRegistry } from '../src/registry/registry.ts';
import { Pipeline } from '../src/pipeline.ts';
import { LOOPBACK_HTTP } from '../src/sources/http.ts';
import { startServer } from '../src/serve/server.ts';
import { prefersHtml } from '../src/serve/html-errors.ts';
import { CATALOGUE, FUNCTION_ENDPOINTS } from '../src/contract/catalogue.ts';
import { checksQuery, IGNORED_QUERY_NAMES } from '../src/contract/query-params.ts';
import { exampleUrl } from '../src/contract/urls.ts';
import { buildOpenApi } from '../src/publish/openapi.ts';
import { nginxConfig } from '../src/publish/nginx-config.ts';
import { findChromium, launchChromium } from './browser.ts';
import { saveScreenshot } from './site-support.ts';
import { closeAll, makeTempDir, removeTempDir } from './clean-machine.ts';

/** What Chromium sends when it navigates to a page. */
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const chromium = await findChromium();
if (!chromium.path) console.warn(`serve-errors: the 390 px check SKIPPED, no Chromium: ${chromium.reason}`);

const clock = manualClock(new Date('2026-09-01T10:00:00Z'));
let dir: string | undefined;
let sim: Simulator | undefined;
let pipeline: Pipeline | undefined;
let server: Awaited<ReturnType<typeof startServer>> | undefined;
let areaCounty = '';
let incidentCounty = '';

const get = async (p: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${server!.url}${p}`, { headers: { 'Accept-Encoding': 'identity', ...headers } });
  return { status: res.status, headers: res.headers, text: await res.text() };
};

beforeAll(async () => {
  dir = makeTempDir('serve-errors');
  sim = new Simulator({ clock, seed: 3, epoch: new Date('2026-09-01T00:00:00Z'), sources: 20, areasPerCounty: 3 });
  await sim.start();
  pipeline = await Pipeline.open({
    stateDir: path.join(dir, 'state'),
    outDir: path.join(dir, 'public'),
    sources: parseRegistry(sim.registryCsv()).sources,
    clock,
    simulated: true,
    http: LOOPBACK_HTTP,
  });
  for (let i = 0; i < 2; i++) {
    if (i) clock.advance(30 * 60_000);
    await pipeline.cycle({ all: true });
  }
  server = await startServer({ outDir: path.join(dir, 'public'), port: 0 });
  const pick = async (sql: string) => (await pipeline!.db.all<{ fips: string }>(sql))[0]?.fips ?? '';
  areaCounty = await pick('SELECT fips FROM obs_area GROUP BY fips ORDER BY count(*) DESC, fips LIMIT 1');
  incidentCounty = await pick('SELECT fips FROM obs_incident GROUP BY fips ORDER BY count(*) DESC, fips LIMIT 1');
});

afterAll(() =>
  closeAll(
    () => server?.close(),
    () => pipeline?.close(),
    () => sim?.stop(),
    () => removeTempDir(dir),
  ),
);

describe('the Accept rule', () => {
  it('takes a browser navigation for a person, and curl, fetch(), apps and ties for programs', () => {
    expect(prefersHtml(BROWSER)).toBe(true);
    expect(prefersHtml('text/html')).toBe(true);
    expect(prefersHtml('application/json;q=0.5, text/html')).toBe(true);
    for (const program of [
      undefined,
      '',
      '*/*',
      'application/json',
      'text/html, application/json', // a tie: the API's own answer
      'application/json, text/html;q=0.9',
      'text/*', // html only through a wildcard
      'text/html;q=0, */*',
    ])
      expect(prefersHtml(program), String(program)).toBe(false);
  });
});

describe('a path that does not exist', () => {
  const missing = ['/counties/99999', '/states/zz', '/api/v1/counties/99999', '/api/v1/nope', '/no/such/page'];

  it("is the site's 404 page, in its layout, for a browser", async () => {
    for (const p of missing) {
      const r = await get(p, { Accept: BROWSER });
      expect(r.status, p).toBe(404);
      expect(r.headers.get('content-type'), p).toMatch(/^text\/html; charset=utf-8$/i);
      expect(r.headers.get('vary'), p).toMatch(/\bAccept\b/);
      expect(r.headers.get('cache-control'), p).toBe('no-store');
      expect(r.text, p).toContain('<title>Page not found · US Power Outage Data</title>');
      expect(r.text, p).toContain('<nav class="site-nav"');
      expect(r.text, p).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
      expect(r.text, p).toContain(`There is no page at <code>${p}</code>`);
    }
    const api = await get('/api/v1/counties/99999', { Accept: BROWSER });
    expect(api.text).toContain('The API says: No county has FIPS code <code>99999</code>.');
    // a page path is a page's: the API's wording is not shown there
    expect((await get('/counties/99999', { Accept: BROWSER })).text).not.toContain('The API says');
  });

  it('echoes the path escaped, and cut when long', async () => {
    const r = await get(`/counties/'&"><script>alert(1)</script>`, { Accept: BROWSER });
    expect(r.status).toBe(404);
    expect(r.text).not.toContain('<script>alert');
    expect(r.text).not.toMatch(/<code>[^<]*'/);
    expect(r.text).toContain(
      'There is no page at <code>/counties/&#39;&amp;%22%3E%3Cscript%3Ealert(1)%3C/script%3E</code>',
    );
    const long = await get(`/counties/${'x'.repeat(1000)}`, { Accept: BROWSER });
    expect(long.text).toContain(`<code>/counties/${'x'.repeat(190)}…</code>`);
    expect(long.text).not.toContain('x'.repeat(300));
  });

  it('is the one JSON error body for a program', async () => {
    for (const p of missing)
      for (const accept of [undefined, '*/*', 'application/json', 'text/html, application/json']) {
        const r = await get(p, accept === undefined ? {} : { Accept: accept });
        expect(r.status, `${p} ${accept}`).toBe(404);
        expect(r.headers.get('content-type'), p).toBe('application/json; charset=utf-8');
        expect(r.headers.get('vary'), p).toMatch(/\bAccept\b/);
        const error = JSON.parse(r.text).data.error;
        expect(Object.keys(JSON.parse(r.text))).toEqual(['data']);
        expect(error).toMatchObject({ status: 404, code: expect.stringMatching(/^(not_found|unknown_county)$/) });
      }
  });

  it('keeps other errors JSON for a browser too (a 400 is for whoever wrote the URL)', async () => {
    const r = await get('/api/v1/live/counties/123', { Accept: BROWSER });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text).data.error.code).toBe('invalid_fips');
  });

  describe.skipIf(!chromium.path)('on a 390 px phone', () => {
    let browser: Browser | undefined;
    beforeAll(async () => {
      browser = await launchChromium(chromium.path!);
    });
    afterAll(() => browser?.close());

    it('reads without scrolling sideways, a long path included', async () => {
      const page = await browser!.newPage({ viewport: { width: 390, height: 844 } });
      try {
        for (const [p, shot] of [
          ['/counties/99999', 'not-found-county-390.png'],
          ['/api/v1/counties/99999', 'not-found-api-390.png'],
          [`/states/${'z'.repeat(400)}`, 'not-found-long-390.png'],
        ]) {
          const res = await page.goto(`${server!.url}${p}`);
          expect(res?.status(), p).toBe(404);
          await page.locator('h1').waitFor();
          expect(await page.locator('h1').textContent()).toBe('Page not found');
          const layout = await page.evaluate(() => ({
            over: document.scrollingElement!.scrollWidth - innerWidth,
            font: Number.parseFloat(getComputedStyle(document.querySelector('main p')!).fontSize),
            nav: document.querySelectorAll('.site-nav a').length,
          }));
          expect(layout.over, p).toBeLessThanOrEqual(0);
          expect(layout.font, p).toBeGreaterThanOrEqual(14);
          expect(layout.nav, p).toBeGreaterThan(3);
          saveScreenshot(await page.screenshot({ fullPage: true }), shot);
        }
      } finally {
        await page.close();
      }
    });
  });
});

/** A catalogue entry's or function route's path with example values (ids for the account routes). */
const filled = (p: string) => exampleUrl({ path: p } as Parameters<typeof exampleUrl>[0]).replace(/\{\w+\}/g, 'x_1');

/** The query parameters the OpenAPI document lists for an operation. */
const documented = (doc: ReturnType<typeof buildOpenApi>, p: string, method: string) => {
  const op = (doc.paths as Record<string, Record<string, { parameters: Array<{ name: string; in: string }> }>>)[p][
    method
  ];
  return op.parameters.filter((x) => x.in === 'query').map((x) => x.name);
};

describe('an unknown query parameter', () => {
  const doc = buildOpenApi(true);
  type Op = { responses: Record<string, { description: string }> };
  const op = (p: string, method: string) => (doc.paths as Record<string, Record<string, Op>>)[p][method];

  it('is a 400 naming the parameters /api/v1/events takes (the issue: ?cursor= answered the first page forever)', async () => {
    const r = await get('/api/v1/events?cursor=ZXYxOjA');
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const error = JSON.parse(r.text).data.error;
    expect(error).toMatchObject({ status: 400, code: 'unknown_parameter', param: 'cursor' });
    expect(error.allowed).toContain('after');
    expect(error.message).toContain('`after`');
    expect(error.message).toContain('`cursor`');
    const two = JSON.parse((await get('/api/v1/events?limit=5&foo=1&bar=2')).text).data.error;
    expect(two.message).toMatch(/`foo`, `bar`/);
  });

  it('is a 400 on every endpoint the function layer answers, listing exactly what the OpenAPI document does', async () => {
    const checked = CATALOGUE.filter(checksQuery);
    expect(checked.length).toBeGreaterThan(10);
    for (const e of checked) {
      const r = await get(`${filled(e.path)}?nonsense=1`);
      expect(r.status, e.id).toBe(400);
      const error = JSON.parse(r.text).data.error;
      expect(error.code, e.id).toBe('unknown_parameter');
      expect(new Set(error.allowed), e.id).toEqual(new Set(documented(doc, e.path, 'get')));
      expect(op(e.path, 'get').responses['400'].description, e.id).toContain('`unknown_parameter`');
    }
    for (const f of FUNCTION_ENDPOINTS.filter((x) => !x.kind)) {
      const res = await fetch(`${server!.url}${filled(f.path)}?nonsense=1`, { method: f.method });
      const error = ((await res.json()) as { data: { error: { code: string; allowed: string[] } } }).data.error;
      expect([res.status, error.code], f.id).toEqual([400, 'unknown_parameter']);
      expect(new Set(error.allowed), f.id).toEqual(new Set(documented(doc, f.path, f.method.toLowerCase())));
      expect(op(f.path, f.method.toLowerCase()).responses['400'].description, f.id).toContain('`unknown_parameter`');
    }
    const codes = (doc.components as { schemas: Record<string, unknown> }).schemas.ErrorBody;
    expect(JSON.stringify(codes)).toContain('"unknown_parameter"');
  });

  it('is not checked where nothing is filtered: /healthz, the 410 and prebuilt-only files answer as before', async () => {
    expect((await get('/healthz?probe=1')).status).not.toBe(400);
    const gone = await fetch(`${server!.url}/api/v1/alerts/subscribe?x=1`, { method: 'POST' });
    expect(gone.status).toBe(410);
    await gone.body?.cancel();
    expect((await get('/api/v1/live/summary?whatever=1')).status).toBe(200);
  });

  it('except the cache busters, which change nothing: not the answer, its ETag or its links', async () => {
    expect(IGNORED_QUERY_NAMES).toEqual(['_', 'cb']);
    for (const p of [
      '/api/v1/events?limit=5',
      '/feeds/events.atom?limit=5',
      '/api/v1/live/timeline?hours=2',
      `/api/v1/live/counties/${areaCounty}/areas?min_customers=0&format=geojson`,
    ]) {
      const plain = await get(p);
      const busted = await get(`${p}&_=1767225600000&cb=42`);
      expect(plain.status, p).toBe(200);
      expect(busted.status, p).toBe(200);
      expect(busted.text, p).toBe(plain.text);
      expect(busted.headers.get('etag'), p).toBe(plain.headers.get('etag'));
      expect(busted.text, p).not.toMatch(/[?&;]_=|cb=42/);
    }
    const file = await get('/api/v1/live/summary');
    const bustedFile = await get('/api/v1/live/summary?_=1');
    expect([bustedFile.status, bustedFile.headers.get('etag')]).toEqual([200, file.headers.get('etag')]);
  });

  it('reaches the function layer through nginx too (its routing map sends any other name there)', () => {
    const conf = nginxConfig({ root: '/srv/tree', upstream: '127.0.0.1:8787', listen: '80', simulated: true });
    const map = /map \$args \$outage_fnq_events \{\n {2}default 0;\n {2}"~(.*)" 1;\n\}/.exec(conf);
    expect(map).not.toBeNull();
    const toFunction = new RegExp(map![1]);
    for (const args of ['cursor=x', 'after=x', 'limit=5', 'format=json&cursor=x', 'formats=1', '_x=1'])
      expect(toFunction.test(args), args).toBe(true);
    for (const args of ['', 'format=json', '_=1', 'cb=2', '_=1&cb=2&format=json'])
      expect(toFunction.test(args), args).toBe(false);
  });
});

describe('function answers', () => {
  const filtered = () => [
    '/api/v1/events?limit=5',
    '/feeds/events.rss?limit=5',
    '/api/v1/live/timeline?hours=2',
    `/api/v1/live/counties/${areaCounty}/areas?min_customers=0`,
    `/api/v1/live/counties/${areaCounty}/areas?min_customers=0&format=csv`,
    `/api/v1/live/counties/${areaCounty}/areas?min_customers=0&format=geojson`,
    `/api/v1/live/counties/${incidentCounty}/incidents?min_customers=1&format=csv`,
    `/api/v1/live/counties/${areaCounty}/alerts?min_customers=1`,
  ];

  it('carry an ETag and charset=utf-8, and answer If-None-Match with 304 and no body', async () => {
    expect(areaCounty).toMatch(/^\d{5}$/);
    expect(incidentCounty).toMatch(/^\d{5}$/);
    for (const p of filtered()) {
      const r = await get(p);
      expect(r.status, p).toBe(200);
      expect(r.headers.get('content-type'), p).toMatch(/; charset=utf-8$/);
      const etag = r.headers.get('etag');
      expect(etag, p).toMatch(/^(W\/)?"[^"]+"$/);
      const held = await get(p, { 'If-None-Match': etag! });
      expect([held.status, held.text, held.headers.get('etag')], p).toEqual([304, '', etag]);
      const stale = await get(p, { 'If-None-Match': '"not-this-one"' });
      expect([stale.status, stale.text], p).toEqual([200, r.text]);
    }
  });

  it('name other bytes by another ETag, and a compressed answer by its own', async () => {
    const all = await get(`/api/v1/live/counties/${areaCounty}/areas?min_customers=0`);
    const one = await get(`/api/v1/live/counties/${areaCounty}/areas?min_customers=0&limit=1`);
    expect(one.text).not.toBe(all.text);
    expect(one.headers.get('etag')).not.toBe(all.headers.get('etag'));
    const p = '/api/v1/live/timeline?hours=2'; // every state's frames: above the compression floor
    const gz = await fetch(`${server!.url}${p}`, { headers: { 'Accept-Encoding': 'gzip' } });
    await gz.arrayBuffer();
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    const tag = gz.headers.get('etag')!;
    expect(tag).toMatch(/-gzip"$/);
    const held = await fetch(`${server!.url}${p}`, { headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': tag } });
    expect([held.status, (await held.arrayBuffer()).byteLength]).toEqual([304, 0]);
  });
});
