// Issue #13 on `/` in a real browser: the 24-hour animation from /api/v1/live/timeline (play, pause, scrub, keyboard,
// the frame's time shown, fills that follow each frame), the map's keyboard order, axe-core, the screenshot of `/`,
// and the figures the issue sets targets for: bytes before the map is drawn, time to draw, frames per second.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import type { Page } from 'playwright-core';
import { findChromium } from './browser.ts';
import { axeViolations, saveScreenshot, type Site, startSite, T0, watchedPage } from './site-support.ts';

type Entry = [number, number | null, number];
interface Timeline {
  frames: Array<{ at: string; states: Record<string, Entry> }>;
}
/** The fill a county takes from its state's entry in a frame: the same rule as the live map's. */
const fillOf = (e: Entry | undefined) =>
  !e
    ? 'fill-nofeed'
    : e[0] === 0
      ? 'fill-none'
      : e[2] < 0 || e[1] === null
        ? 'fill-untrusted'
        : `fill-b${Math.min(5, e[2])}`;

const chromium = await findChromium();
if (!chromium.path) console.warn(`site-animation: SKIPPED, no Chromium: ${chromium.reason}`);

let site: Site;
let page: Page;
let problems: string[];
const figures: Record<string, number> = {};

/** The animation layer: one shape per state, filled from the frame. */
const stateFills = () =>
  page
    .locator('.frame-states path')
    .evaluateAll((ps) =>
      ps.map((p) => [p.getAttribute('data-state')!, p.getAttribute('class')!.replace('frame-state ', '')] as const),
    );
const countiesShown = () => page.locator('#county-map .quiet').isVisible();

const classes = () =>
  page
    .locator('path.county')
    .evaluateAll((ps) =>
      ps.map((p) => [p.getAttribute('data-fips')!, p.getAttribute('class')!.replace('county ', '')] as const),
    );
const norm = (s: string | null) => (s ?? '').replace(/\s+/g, ' ');

describe.skipIf(!chromium.path)('the 24-hour animation on the live map', () => {
  beforeAll(async () => {
    site = await startSite('site-animation', chromium.path!, 4);
    ({ page, problems } = await watchedPage(site));
    await page.goto(`${site.url}/`);
    await page.locator('#map-figure[aria-busy="false"]').waitFor({ timeout: 30_000 });
    await page.locator('#timeline-play:not([disabled])').waitFor({ timeout: 30_000 });
  });
  afterAll(() => site?.close());

  it('needs at most 300 KB compressed before the map is drawn, and draws it soon after load', async () => {
    const m = await page.evaluate(() => {
      const drawn = performance.getEntriesByName('map-drawn')[0].startTime;
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const before = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
        (r) => r.responseEnd <= drawn,
      );
      return {
        urls: [nav.name, ...before.map((r) => r.name)],
        transferred: nav.transferSize + before.reduce((a, r) => a + r.transferSize, 0),
        drawn,
        load: nav.loadEventEnd,
      };
    });
    // The local server gzips the site's own files; its API answers are not compressed (a CDN compresses them), so
    // the budget counts every body gzipped, as a CDN would send it.
    let compressed = 0;
    for (const url of [...new Set(m.urls)]) {
      const body = Buffer.from(await (await fetch(url)).arrayBuffer());
      compressed += zlib.gzipSync(body, { level: 6 }).length;
    }
    expect(m.urls.some((u) => u.endsWith('.topo.json'))).toBe(true); // the geometry is counted
    figures.kb_compressed_before_map = Math.round(compressed / 1024);
    figures.kb_transferred_before_map = Math.round(m.transferred / 1024);
    figures.map_drawn_ms = Math.round(m.drawn);
    figures.map_drawn_after_load_ms = Math.round(m.drawn - m.load);
    expect(compressed).toBeLessThanOrEqual(300 * 1024);
  });

  it('plays, pauses and scrubs with the keyboard, shows the frame time, and fills counties from each frame', async () => {
    const timeline = await site.api<Timeline>('/api/v1/live/timeline');
    expect(timeline.frames.length).toBeGreaterThanOrEqual(3);
    const live = new Map(await classes());
    // Scrub: the range input answers the arrow keys and Home; each frame's time is shown.
    const range = page.locator('#timeline-range');
    await range.focus();
    await page.keyboard.press('Home');
    expect(await range.inputValue()).toBe('0');
    const first = timeline.frames[0];
    expect(await page.locator('#map-figure').getAttribute('data-frame')).toBe(first.at);
    const hour = `${new Date(first.at).toISOString().slice(11, 16)} UTC`; // the site's 24-hour UTC clock (times.js)
    expect(norm(await page.locator('#timeline-time').textContent())).toContain(hour);
    const atFirst = await stateFills();
    expect(atFirst.length).toBe(56); // the 50 states, DC and the five territories (drawn in insets)
    for (const [code, cls] of atFirst) expect(cls, code).toBe(fillOf(first.states[code]));
    expect(await countiesShown()).toBe(false);
    await page.keyboard.press('End');
    const last = timeline.frames.at(-1)!;
    const atLast = await stateFills();
    for (const [code, cls] of atLast) expect(cls, code).toBe(fillOf(last.states[code]));
    const changed = atLast.filter(([code, c], i) => atFirst[i][0] === code && atFirst[i][1] !== c);
    expect(changed.length).toBeGreaterThan(0); // the animation changes fills between frames
    await page.keyboard.press('ArrowLeft');
    expect(await range.inputValue()).toBe(String(timeline.frames.length - 2));
    // Play and pause from the keyboard: the frame moves while playing and stands still once paused.
    await page.locator('#timeline-play').focus();
    await page.keyboard.press('Enter');
    expect(await page.locator('#timeline-play').getAttribute('aria-pressed')).toBe('true');
    const seen = new Set<string>();
    for (let i = 0; i < 20 && seen.size < 3; i++) {
      seen.add((await page.locator('#map-figure').getAttribute('data-frame'))!);
      await page.waitForTimeout(60);
    }
    expect(seen.size).toBeGreaterThanOrEqual(2);
    await page.keyboard.press('Enter');
    expect(await page.locator('#timeline-play').getAttribute('aria-pressed')).toBe('false');
    const paused = await page.locator('#map-figure').getAttribute('data-frame');
    await page.waitForTimeout(300);
    expect(await page.locator('#map-figure').getAttribute('data-frame')).toBe(paused);
    // Back to live: the live fills again.
    await page.locator('#timeline-live').click();
    expect(await countiesShown()).toBe(true);
    expect(new Map(await classes())).toEqual(live);
    expect(await page.locator('#timeline-time').textContent()).toBe('Live');
  });

  it('paints at least 20 animation frames per second', async () => {
    const fps = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const t = (window as unknown as { outageTimeline: { frames: unknown[]; show(i: number): void } })
            .outageTimeline;
          let painted = 0;
          const t0 = performance.now();
          const tick = () => {
            t.show(painted % t.frames.length); // a new frame on every animation frame the browser gives
            painted += 1;
            if (performance.now() - t0 < 2000) requestAnimationFrame(tick);
            else resolve(painted / ((performance.now() - t0) / 1000));
          };
          requestAnimationFrame(tick);
        }),
    );
    figures.animation_fps = Math.round(fps);
    expect(fps).toBeGreaterThanOrEqual(20);
    await page.locator('#timeline-live').click();
  });

  it('takes the map with one tab stop and arrow keys, passes axe-core, and leaves a screenshot of /', async () => {
    await page.locator('h1').click(); // focus navigation starts above the map
    await page.keyboard.press('Tab');
    const first = await page.evaluate(() => document.activeElement?.getAttribute('data-fips'));
    expect(first).toBe(await page.locator('#top-counties-body tr').first().getAttribute('data-fips'));
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-fips'))).toBe(
      await page.locator('#top-counties-body tr').nth(1).getAttribute('data-fips'),
    );
    await page.keyboard.press('Tab'); // out of the map, to the animation controls
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('timeline-play');
    expect(await axeViolations(page)).toEqual([]);
    await page.mouse.move(2, 2);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    saveScreenshot(await page.screenshot(), 'live-map.png');
    expect(problems).toEqual([]);
    console.log(`site figures: ${JSON.stringify({ ...figures, simulated_at: T0.toISOString() })}`);
  });
});
