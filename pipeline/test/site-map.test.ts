// The live national county map on `/` (issue #13), in a real browser: a small simulated storm → two pipeline cycles
// → the local server → Debian's Chromium. Fills against /live/map, legend, headline against /live/summary, the
// SIMULATED banner, tooltip and keyboard order, a second cycle without a reload, a screenshot checked for colour.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { PNG } from 'pngjs';
import type { Browser, Page } from 'playwright-core';
import { manualClock } from '../src/clock.ts';
import { Simulator } from '../src/simulator/server.ts';
import { parseRegistry } from '../src/registry/registry.ts';
import { Pipeline } from '../src/pipeline.ts';
import { LOOPBACK_HTTP } from '../src/sources/http.ts';
import { startServer } from '../src/serve/server.ts';
import { loadAtlas } from '../src/geo/counties.ts';
import { closeAll, makeTempDir, removeTempDir } from './clean-machine.ts';
import { findChromium, launchChromium } from './browser.ts';

type MapEntry = [number, number | null, number, number, number];
const T0 = new Date('2026-09-01T04:00:00Z');
// The documented palette (docs/live-map.md): ColorBrewer YlOrRd for bands 0–5, then nothing out and no feed.
const BAND_HEX = ['#ffffb2', '#fed976', '#feb24c', '#fd8d3c', '#f03b20', '#bd0026'];
const NOTHING_OUT_HEX = '#f2f2ef';
const NO_FEED_HEX = '#c2c2c2';
const NO_FEED_STATE = 'WA'; // its sources are left out of the registry, so its counties have no feed
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
/** Every county the map draws: us-atlas's, the territories' included (drawn in insets, site/src/map/topology.ts). */
const ATLAS = createRequire(import.meta.url)('us-atlas/counties-10m.json') as {
  objects: { counties: { geometries: Array<{ id: string }> } };
};

const chromiumPath = await findChromium();
if (!chromiumPath.path) console.warn(`site-map: SKIPPED, no Chromium: ${chromiumPath.reason}`);

const clock = manualClock(T0);
let dir = '';
let sim: Simulator;
let pipeline: Pipeline;
let server: Awaited<ReturnType<typeof startServer>>;
let browser: Browser;
let page: Page;
const problems: string[] = [];

const api = async <T>(p: string): Promise<{ data: T; cacheControl: string }> => {
  const res = await fetch(`${server.url}${p}`);
  return { data: ((await res.json()) as { data: T }).data, cacheControl: res.headers.get('cache-control') ?? '' };
};
const fills = () =>
  page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll('path.county')].map((p) => [p.getAttribute('data-fips'), getComputedStyle(p).fill]),
    ),
  );
const counties = (m: Record<string, MapEntry>) => Object.entries(m).filter(([k]) => /^\d{5}$/.test(k));
/** A point inside the county's shape (not just its box), in page coordinates, for a real pointer move. */
const insidePoint = (fips: string) =>
  page.evaluate((f) => {
    const p = document.querySelector<SVGPathElement>(`path.county[data-fips="${f}"]`)!;
    const b = p.getBBox();
    const m = p.getScreenCTM()!;
    for (let i = 1; i < 10; i++) {
      for (let j = 1; j < 10; j++) {
        const pt = new DOMPoint(b.x + (b.width * i) / 10, b.y + (b.height * j) / 10);
        if (p.isPointInFill(pt)) return { x: pt.matrixTransform(m).x, y: pt.matrixTransform(m).y };
      }
    }
    throw new Error(`no point found inside county ${f}`);
  }, fips);

describe.skipIf(!chromiumPath.path)('live county map in Chromium', () => {
  beforeAll(async () => {
    dir = makeTempDir('site-map');
    sim = new Simulator({ clock, seed: 1, epoch: new Date('2026-09-01T00:00:00Z'), sources: 10, areasPerCounty: 1 });
    await sim.start();
    const sources = parseRegistry(sim.registryCsv()).sources.filter((s) => !s.states.includes(NO_FEED_STATE));
    pipeline = await Pipeline.open({
      stateDir: path.join(dir, 'state'),
      outDir: path.join(dir, 'public'),
      sources,
      clock,
      simulated: true,
      http: LOOPBACK_HTTP,
    });
    await pipeline.cycle({ all: true });
    server = await startServer({ outDir: path.join(dir, 'public'), port: 0 });
    browser = await launchChromium(chromiumPath.path!);
    page = await browser.newPage({ viewport: { width: 1100, height: 1250 } });
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    // The page's clock stands still at the cycle's time: its refresh timer fires only when the test moves it.
    await page.clock.install({ time: T0 });
    await page.clock.pauseAt(new Date(T0.getTime() + 1_000));
    await page.goto(`${server.url}/`);
    await page.locator('#map-figure[aria-busy="false"]').waitFor({ timeout: 30_000 });
    await page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });
  });

  afterAll(() =>
    closeAll(
      () => browser?.close(),
      () => server?.close(),
      () => pipeline?.close(),
      () => sim?.stop(),
      () => removeTempDir(dir),
    ),
  );

  it('draws one shape per county and fills each by its band in /api/v1/live/map', async () => {
    const { data: map } = await api<Record<string, MapEntry>>('/api/v1/live/map');
    const shown = await fills();
    expect(Object.keys(shown).length).toBe(ATLAS.objects.counties.geometries.length);
    const pr = ATLAS.objects.counties.geometries.filter((g) => g.id.startsWith('72')).map((g) => g.id);
    expect(pr.length).toBe(78); // Puerto Rico's municipios are drawn, and filled like any county
    for (const f of pr)
      expect(shown[f], f).toBe(
        !map[f]
          ? rgb(NOTHING_OUT_HEX)
          : map[f][3] < 0 || map[f][1] === null
            ? 'url("#hatch-untrusted")'
            : rgb(BAND_HEX[map[f][3]]),
      );
    const out = counties(map).filter(([fips]) => fips in shown);
    expect(out.length).toBeGreaterThan(10);
    expect(new Set(out.map(([, e]) => e[3])).size).toBeGreaterThanOrEqual(3); // a storm, not one colour
    for (const [fips, [, pct, , band]] of out) {
      expect(shown[fips], fips).toBe(band < 0 || pct === null ? 'url("#hatch-untrusted")' : rgb(BAND_HEX[band]));
    }
    const stateFips = '53'; // Washington
    const noFeed = Object.keys(shown).filter((f) => f.startsWith(stateFips) && !map[f]);
    expect(noFeed.length).toBeGreaterThan(30);
    for (const f of noFeed) expect(shown[f], f).toBe(rgb(NO_FEED_HEX));
    const quiet = Object.keys(shown).filter((f) => f.startsWith('48') && !map[f]); // Texas: polled, mostly nothing out
    expect(quiet.length).toBeGreaterThan(100);
    for (const f of quiet) expect(shown[f], f).toBe(rgb(NOTHING_OUT_HEX));
  });

  it('shows a legend with the band thresholds 1, 3, 10, 25 and 50 % and the three non-band fills', async () => {
    const items = await page.locator('.legend li').evaluateAll((lis) =>
      lis.map((li) => ({
        text: li.textContent!.trim(),
        fill: getComputedStyle(li.querySelector('rect')!).fill,
      })),
    );
    expect(items.slice(0, 6).map((i) => i.text)).toEqual([
      'under 1 % out',
      '1–3 % out',
      '3–10 % out',
      '10–25 % out',
      '25–50 % out',
      '50 % or more out',
    ]);
    expect(items.slice(0, 6).map((i) => i.fill)).toEqual(BAND_HEX.map(rgb));
    expect(items.slice(6)).toEqual([
      { text: 'nothing reported out', fill: rgb(NOTHING_OUT_HEX) },
      { text: 'out, no trusted customer count (band −1)', fill: 'url("#hatch-untrusted")' },
      { text: 'no feed covers this county', fill: rgb(NO_FEED_HEX) },
    ]);
  });

  it('shows the headline figures of /api/v1/live/summary under the SIMULATED banner', async () => {
    const { data: s } = await api<{ simulated: boolean; generated_at: string; national: Record<string, number> }>(
      '/api/v1/live/summary',
    );
    const { data: src } = await api<{ sources: Array<{ freshness: string }> }>('/api/v1/live/sources');
    expect(s.simulated).toBe(true);
    await expect.poll(() => page.locator('#simulated-banner').isVisible()).toBe(true);
    expect(await page.locator('#simulated-banner').textContent()).toContain('SIMULATED DATA');
    const figure = (name: string) => page.locator(`[data-figure="${name}"]`).textContent();
    expect(s.national.customers_out).toBeGreaterThan(0);
    expect(await figure('customers_out')).toBe(`${s.national.customers_out.toLocaleString('en-US')} customers out`);
    expect(await figure('counties_out')).toBe(`${s.national.counties_out.toLocaleString('en-US')} counties out`);
    expect(await figure('states_out')).toBe(`${s.national.states_out.toLocaleString('en-US')} states out`);
    expect(await page.locator('[data-figure="as_of"] time').getAttribute('datetime')).toBe(s.generated_at);
    expect(await figure('as_of')).toContain('(just now)');
    const fresh = src.sources.filter((x) => x.freshness === 'fresh').length;
    expect(await figure('freshness')).toBe(`${fresh} of ${src.sources.length} feeds fresh`);
  });

  it('names the county, customers out, pct_out and band on hover and on keyboard focus, worst county first', async () => {
    const { data: map } = await api<Record<string, MapEntry>>('/api/v1/live/map');
    const names = loadAtlas().byFips;
    const [fips, [customers, pct, , band]] = counties(map)
      .filter(([f]) => names.has(f))
      .sort((a, b) => b[1][0] - a[1][0])[0];
    const point = await insidePoint(fips);
    await page.mouse.move(point.x, point.y);
    const tip = page.locator('#map-tooltip');
    await expect.poll(() => tip.getAttribute('data-fips')).toBe(fips);
    const text = (await tip.locator('strong, dt, dd').allTextContents()).join(' ');
    expect(text).toContain(`${names.get(fips)!.name}, ${names.get(fips)!.state}`);
    expect(text).toContain(`Customers out ${customers.toLocaleString('en-US')}`);
    expect(text).toContain(`Share out ${pct} %`);
    expect(text).toContain(`Band ${band} (`);
    await page.mouse.move(2, 2); // off the map: the tooltip goes
    await expect.poll(() => tip.isVisible()).toBe(false);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    // The navigation is on top: the first Tab reaches "Skip to the map", which leads to the worst county.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to the map');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-fips'))).toBe(fips);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe(`/counties/${fips}`);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toContain(
      customers.toLocaleString('en-US'),
    );
    expect(await tip.getAttribute('data-fips')).toBe(fips);
    expect(await page.locator('#top-counties-body tr').first().getAttribute('data-fips')).toBe(fips);
  });

  it("shows the next cycle on the interval of the map's Cache-Control, without a reload", async () => {
    const before = await api<Record<string, MapEntry>>('/api/v1/live/map');
    clock.advance(30 * 60_000);
    await pipeline.cycle({ all: true });
    const after = await api<Record<string, MapEntry>>('/api/v1/live/map');
    const { data: s } = await api<{ generated_at: string; national: Record<string, number> }>('/api/v1/live/summary');
    const maxAge = Number(/max-age=(\d+)/.exec(after.cacheControl)![1]);
    const drawn = new Set(Object.keys(await fills()));
    const changed = counties(after.data).filter(([f, e]) => before.data[f]?.[3] !== e[3] && drawn.has(f));
    const gone = counties(before.data)
      .filter(([f]) => !after.data[f] && drawn.has(f))
      .map(([f]) => f);
    expect(changed.length).toBeGreaterThan(0);
    await page.clock.fastForward(maxAge * 1000 - 2_000);
    expect(await page.locator('#map-figure').getAttribute('data-generated-at')).not.toBe(s.generated_at); // not yet
    await page.clock.fastForward(3_000);
    await page.waitForFunction(
      (at) => document.getElementById('map-figure')!.dataset.generatedAt === at,
      s.generated_at,
      { timeout: 20_000 },
    );
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(await page.locator('[data-figure="customers_out"]').textContent()).toBe(
      `${s.national.customers_out.toLocaleString('en-US')} customers out`,
    );
    const shown = await fills();
    for (const [fips, [, pct, , band]] of changed) {
      expect(shown[fips], fips).toBe(band < 0 || pct === null ? 'url("#hatch-untrusted")' : rgb(BAND_HEX[band]));
    }
    for (const fips of gone) expect(shown[fips], `${fips} restored`).toBe(rgb(NOTHING_OUT_HEX));
  });

  it('hatches a county of band −1 and says why its pct_out is missing', async () => {
    // The simulator's denominators are all trusted, so one map answer gets a documented band −1 entry (pct_out null).
    const { data: map, cacheControl } = await api<Record<string, MapEntry>>('/api/v1/live/map');
    const quietTexas = Object.keys(await fills()).filter((f) => f.startsWith('48') && !map[f]);
    const target = quietTexas.includes('48043') ? '48043' : quietTexas[0]; // Brewster, the largest, when quiet
    await page.route('**/api/v1/live/map', async (route) => {
      const { 'if-none-match': _, ...headers } = route.request().headers(); // a full answer, not a 304
      const res = await route.fetch({ headers });
      const body = (await res.json()) as { data: Record<string, MapEntry> };
      body.data[target] = [1500, null, 0, -1, 1];
      await route.fulfill({ response: res, json: body });
    });
    await page.clock.fastForward(Number(/max-age=(\d+)/.exec(cacheControl)![1]) * 1000 + 1_000);
    await page.waitForFunction(
      (f) => document.querySelector(`path.county[data-fips="${f}"]`)?.classList.contains('fill-untrusted'),
      target,
      { timeout: 20_000 },
    );
    await page.unroute('**/api/v1/live/map');
    expect((await fills())[target]).toBe('url("#hatch-untrusted")');
    const point = await insidePoint(target);
    await page.mouse.move(point.x, point.y);
    const tip = page.locator('#map-tooltip');
    await expect.poll(() => tip.getAttribute('data-fips')).toBe(target);
    const text = (await tip.locator('strong, dt, dd').allTextContents()).join(' ');
    expect(text).toContain('Customers out 1,500');
    expect(text).toContain('Share out — (no trusted customer count');
    expect(text).toContain('Band untrusted');
  });

  it('takes a screenshot showing the storm in the band colours, and opens a county page on click', async () => {
    const file = path.join(dir, 'live-map.png');
    await page.mouse.move(2, 2);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur()); // the whole map, no tooltip
    await page.screenshot({ path: file });
    if (process.env.OUTAGE_SCREENSHOT_DIR)
      fs.copyFileSync(file, path.join(process.env.OUTAGE_SCREENSHOT_DIR, 'live-map.png'));
    expect(PNG.sync.read(fs.readFileSync(file)).width).toBe(1100);
    // The map alone (the legend's swatches would hold every colour anyway): pixels of the worst county's band,
    // of "no feed" (Washington) and of "nothing out" are on screen.
    const png = PNG.sync.read(await page.locator('#county-map').screenshot());
    const pixels = new Map<string, number>();
    for (let i = 0; i < png.data.length; i += 4) {
      const hex = `#${[0, 1, 2].map((k) => png.data[i + k].toString(16).padStart(2, '0')).join('')}`;
      pixels.set(hex, (pixels.get(hex) ?? 0) + 1);
    }
    const { data: map } = await api<Record<string, MapEntry>>('/api/v1/live/map');
    const worst = counties(map).sort((a, b) => b[1][0] - a[1][0])[0][1][3];
    for (const hex of [BAND_HEX[worst], NO_FEED_HEX, NOTHING_OUT_HEX])
      expect(pixels.get(hex) ?? 0, hex).toBeGreaterThan(50);
    expect(problems).toEqual([]); // no console errors while the map was used
    const first = page.locator('.out a').first();
    const fips = await first.getAttribute('data-fips');
    await first.click({ force: true });
    await page.waitForURL(`**/counties/${fips}`); // the county page itself is a later increment
  });
});
