// Issue 27 parts 2, 3 and 5 in Debian's Chromium, on a desktop (1400 px) and a phone (390 px): no page scrolls sideways,
// even with every long table shown in full and every <details> open; long tables show their top rows and "Show all N";
// the events page names counties and utilities, says what happened in words, pages by the API's cursors and says
// "1 event"; feed items link to pages that answer; on a phone the map fills the width and a tap names a county and a
// second opens it; Puerto Rico is drawn; the navigation is on top; the state embed snippet is whole and copies.
// Screenshots of every page at both widths go to OUTAGE_SCREENSHOT_DIR (default test-results/), to be looked at.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_LABELS, type PublicEvent } from '../src/contract/events.ts';
import { findChromium } from './browser.ts';
import { RESULTS_DIR, type Site, startSite, watchedPage } from './site-support.ts';

type MapEntry = [number, number | null, number, number, number];
interface EventsPage {
  events: PublicEvent[];
  has_more: boolean;
  next_cursor: string;
  latest_cursor: string;
}

const chromium = await findChromium();
if (!chromium.path) console.warn(`site-widths: SKIPPED, no Chromium: ${chromium.reason}`);
const SHOTS = process.env.OUTAGE_SCREENSHOT_DIR ?? RESULTS_DIR;
const WIDTHS = [1400, 390];
/** Documents a page may find unpublished (no history, a quiet county): each page says so itself. */
const MAY_404 = /^\/api\/v1\//;

let site: Site;
let worst = '';
let pages: string[] = [];

/** A page at `width`, waiting on nothing but conditions (no per-step time budget: vitest's timeout guards hangs). */
async function open(p: string, width: number) {
  const w = await watchedPage(site, MAY_404);
  w.page.setDefaultTimeout(0);
  await w.page.setViewportSize({ width, height: width > 800 ? 1000 : 844 });
  await w.page.goto(`${site.url}${p}`);
  await w.page.locator('body[data-ready="true"], #map-figure[aria-busy="false"]').first().waitFor();
  return w;
}

/** How far the page scrolls sideways, and the elements sticking out (0 and none: it does not). */
const sideways = (page: Page) =>
  page.evaluate(() => {
    const over = document.scrollingElement!.scrollWidth - innerWidth;
    const out = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5 && !e.closest('.vh, .skip'))
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.getAttribute('class') ?? ''}`);
    return { over, out };
  });

/** Every collapsed table shown in full and every <details> opened: the page at its widest. */
const expandAll = (page: Page) =>
  page.evaluate(() => {
    for (const b of document.querySelectorAll<HTMLButtonElement>('button.show-all[aria-expanded="false"]')) b.click();
    for (const d of document.querySelectorAll('details')) d.open = true;
  });

const visibleRows = (page: Page, table: string) => page.locator(`${table} tbody tr:not([hidden])`).count();

describe.skipIf(!chromium.path)('the site at 1400 and 390 px', () => {
  beforeAll(async () => {
    site = await startSite('site-widths', chromium.path!, 2);
    const map = await site.api<Record<string, MapEntry>>('/api/v1/live/map');
    const out = Object.entries(map).filter(([f]) => /^\d{5}$/.test(f));
    worst = out.sort((a, b) => b[1][0] - a[1][0])[0][0];
    const pr = out.find(([f]) => f.startsWith('72'))?.[0] ?? '72127';
    pages = ['/', '/sources', '/events', '/reports', '/search?q=Orange%20County', '/docs/', '/states/fl'];
    pages.push(`/counties/${worst}`, `/counties/${pr}`, '/embed/states/fl');
  });
  afterAll(() => site?.close());

  for (const width of WIDTHS)
    it(`at ${width} px no page scrolls sideways, its long tables shown in full and its details open too`, async () => {
      fs.mkdirSync(SHOTS, { recursive: true });
      for (const p of pages) {
        const { page, problems } = await open(p, width);
        expect(await sideways(page), `${p} at ${width} px`).toEqual({ over: 0, out: [] });
        const name = p
          .replace(/^\/$/, 'home')
          .replace(/[^a-z0-9]+/gi, '-')
          .replace(/^-|-$/g, '');
        fs.writeFileSync(path.join(SHOTS, `page-${name}-${width}.png`), await page.screenshot({ fullPage: true }));
        await expandAll(page);
        expect(await sideways(page), `${p} at ${width} px, expanded`).toEqual({ over: 0, out: [] });
        expect(problems, p).toEqual([]);
        await page.close();
      }
    });

  it('shows the top 10 rows of a long table and "Show all N", and sorts all of them', async () => {
    const sources = await site.api<{ sources: Array<{ customers_out: number | null }> }>('/api/v1/live/sources');
    const n = sources.sources.length;
    expect(n).toBeGreaterThan(15);
    const { page } = await open('/sources', 390);
    const button = page.locator('#sources-table + button.show-all');
    expect(await visibleRows(page, '#sources-table')).toBe(10);
    expect(await button.textContent()).toBe(`Show all ${n}`);
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    await page.locator('#sources-table th button', { hasText: 'Customers out' }).click(); // largest first
    const top = [...sources.sources.map((s) => s.customers_out ?? -1)].sort((a, b) => b - a).slice(0, 10);
    const shown = await page.locator('#sources-table tbody tr:not([hidden]) td:last-child').allTextContents();
    expect(shown).toEqual(top.map((x) => (x < 0 ? '—' : x.toLocaleString('en-US'))));
    await button.click();
    expect(await visibleRows(page, '#sources-table')).toBe(n);
    expect(await button.textContent()).toBe('Show the top 10 only');
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    await button.click();
    expect(await visibleRows(page, '#sources-table')).toBe(10);
    // On a phone the wide table is stacked (each row a block), never scrolled sideways.
    expect(await page.locator('#sources-table').getAttribute('class')).toContain('stack');
    await page.close();
  });

  it('names counties and utilities on the events page, in words, one page of the API at a time', async () => {
    const first = await site.api<EventsPage>('/api/v1/events?limit=10');
    const second = await site.api<EventsPage>(`/api/v1/events?limit=10&after=${first.next_cursor}`);
    expect(first.has_more).toBe(true);
    const { page, problems } = await open('/events?limit=10', 1400);
    const keys = () =>
      page.locator('#events-table tbody tr').evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('data-key'))));
    expect(await keys()).toEqual(first.events.map((e) => e.id));
    expect(await page.locator('#events-status').textContent()).toBe(
      '10 events, newest first. Older events follow: “Older events” below.',
    );
    const cells = await page
      .locator('#events-table tbody tr')
      .evaluateAll((rs) => rs.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent ?? '')));
    first.events.forEach((e, i) => {
      const [, what, where, utility] = cells[i];
      expect(what, `${e.id}`).toEqual(
        e.kind === 'etr_changed' && e.etr
          ? expect.stringMatching(/^Restoration estimate changed: now /)
          : EVENT_LABELS[e.kind],
      );
      if (e.scope === 'county' && !['LA', 'AK', 'DC', 'PR'].includes(e.state!) && !/^(24|29|32|51)/.test(e.fips!))
        expect(where).toBe(`${e.county_name} County, ${e.state}`);
      expect(utility, `${e.id}`).toBe(e.utility ?? 'All utilities');
    });
    expect(cells.flat().join(' ')).not.toMatch(/outage_began|outage_grew|\d{5} \(/);
    expect(cells.some(([, , where]) => / County, [A-Z]{2}$/.test(where))).toBe(true);

    await page.locator('#events-older').click();
    await page.waitForFunction(() => document.querySelectorAll('#events-table tbody tr').length === 20);
    expect(await keys()).toEqual([...first.events, ...second.events].map((e) => e.id));
    expect(await page.locator('#events-status').textContent()).toMatch(/^20 events, newest first\./);

    // One event: "1 event".
    const all = await site.api<EventsPage>('/api/v1/events?limit=500');
    const perCounty = new Map<string, number>();
    for (const e of all.events) if (e.fips) perCounty.set(e.fips, (perCounty.get(e.fips) ?? 0) + 1);
    const lone = [...perCounty].find(([, c]) => c === 1)![0];
    await page.goto(`${site.url}/events?fips=${lone}`);
    await page.locator('body[data-ready="true"]').waitFor();
    expect(await page.locator('#events-status').textContent()).toBe('1 event, newest first.');

    // Newer events, read from the page's latest_cursor, join the top once the next cycle has published them.
    await page.goto(`${site.url}/events`);
    await page.locator('body[data-ready="true"]').waitFor();
    const before = all.events.length;
    site.clock.advance(30 * 60_000);
    await site.pipeline.cycle({ all: true });
    const after = await site.api<EventsPage>('/api/v1/events?limit=500');
    const added = after.events.length - before;
    expect(added).toBeGreaterThan(0);
    await page.locator('#events-newer').click();
    await page.waitForFunction(
      (n) => document.querySelectorAll('#events-table tbody tr').length === n,
      after.events.length,
    );
    expect(await keys()).toEqual(after.events.map((e) => e.id));
    expect(await page.locator('#events-status').textContent()).toContain(`Added ${added} newer event`);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('links every feed item to a page of the site that answers', async () => {
    const json = (await (await fetch(`${site.url}/feeds/events.json`)).json()) as {
      items: Array<{ url: string; _outage: PublicEvent }>;
    };
    const rss = await (await fetch(`${site.url}/feeds/events.rss`)).text();
    const atom = await (await fetch(`${site.url}/feeds/events.atom`)).text();
    expect(json.items.length).toBeGreaterThan(0);
    // The prebuilt feeds link under the deployment's configured base URL; the path is the page.
    for (const { url, _outage: e } of json.items) {
      const { pathname } = new URL(url);
      if (e.fips) expect(pathname).toBe(`/counties/${e.fips}`);
      else expect(pathname).toMatch(/^\/(states\/[a-z]{2}|sources)$/);
      expect(rss).toContain(`<link>${url}</link>`);
      expect(atom).toContain(`<link href="${url}"/>`);
    }
    expect(`${rss}${atom}`).not.toMatch(/\/api\/v1\/live\//);
    for (const pathname of new Set(json.items.map((i) => new URL(i.url).pathname))) {
      const res = await fetch(`${site.url}${pathname}`);
      expect(res.status, pathname).toBe(200);
      expect(res.headers.get('content-type'), pathname).toMatch(/text\/html/);
    }
  });

  it('on a phone: navigation on top, the map as wide as the screen, Puerto Rico drawn, a tap names then opens', async () => {
    const page = await site.browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    page.setDefaultTimeout(0);
    await page.goto(`${site.url}/`);
    await page.locator('#map-figure[aria-busy="false"]').waitFor();
    const box = (sel: string) => page.locator(sel).first().boundingBox();
    expect((await box('#county-map'))!.width).toBe(390);
    expect((await box('.site-head'))!.y).toBeLessThan((await box('h1'))!.y);
    expect(await page.locator('path.county[data-fips^="72"]').count()).toBe(78);
    // A point well inside the county (its neighbours 2 px away inside too): a finger's tap lands on the nearest link.
    const point = await page.evaluate((f) => {
      const p = document.querySelector<SVGPathElement>(`path.county[data-fips="${f}"]`)!;
      const b = p.getBBox();
      const m = p.getScreenCTM()!;
      const d = 2 / m.a;
      const inside = (x: number, y: number) => p.isPointInFill(new DOMPoint(x, y));
      for (let i = 1; i < 20; i++)
        for (let j = 1; j < 20; j++) {
          const [x, y] = [b.x + (b.width * i) / 20, b.y + (b.height * j) / 20];
          if (
            [
              [0, 0],
              [d, 0],
              [-d, 0],
              [0, d],
              [0, -d],
            ].every(([dx, dy]) => inside(x + dx, y + dy))
          )
            return new DOMPoint(x, y).matrixTransform(m).toJSON() as { x: number; y: number };
        }
      throw new Error(`no point well inside county ${f}`);
    }, worst);
    await page.touchscreen.tap(point.x, point.y);
    await page.waitForFunction((f) => document.getElementById('map-tooltip')?.dataset.fips === f, worst);
    expect(await page.locator('#map-tooltip').isVisible()).toBe(true);
    expect(await page.locator('#map-tooltip').textContent()).toContain('Tap again to open the county page.');
    expect(new URL(page.url()).pathname).toBe('/');
    await page.touchscreen.tap(point.x, point.y);
    await page.waitForURL(`**/counties/${worst}`);
    await page.close();
  });

  it("gives a state's whole embed snippet, with a button that copies it", async () => {
    const context = await site.browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    page.setDefaultTimeout(0);
    await page.goto(`${site.url}/states/fl`);
    await page.locator('body[data-ready="true"], #map-figure[aria-busy="false"]').first().waitFor();
    const snippet = `<iframe src="${site.url}/embed/states/fl" width="800" height="560" title="Live power outages in Florida" loading="lazy"></iframe>`;
    expect(await page.locator('#embed-snippet').inputValue()).toBe(snippet);
    await page.getByRole('button', { name: 'Copy embed code' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(snippet);
    await page.setContent(snippet);
    await page.frameLocator('iframe').locator('body[data-ready="true"]').waitFor();
    await context.close();
  });

  it('says over the map when most feeds failed their last poll, and why (start --live without network)', async () => {
    const { page, problems } = await watchedPage(site, MAY_404);
    page.setDefaultTimeout(0);
    const real = await site.api<{ sources: Array<Record<string, unknown>> }>('/api/v1/live/sources');
    const unreachable = (s: Record<string, unknown>, i: number) =>
      i === 0
        ? s
        : {
            ...s,
            freshness: 'stale',
            last_error: { reason: 'network', message: `getaddrinfo ENOTFOUND feed${i}.example` },
          };
    const sources = real.sources.map(unreachable);
    await page.route('**/api/v1/live/sources*', (route) => route.fulfill({ json: { data: { ...real, sources } } }));
    await page.goto(`${site.url}/`);
    const banner = page.locator('#feeds-banner');
    await banner.waitFor({ state: 'visible' });
    const n = sources.length - 1;
    expect(await banner.textContent()).toBe(
      `${n} of ${sources.length} feeds failed their last poll: ${n} could not connect. Most could not find their host: is this machine offline? The figures count only the feeds that answered; the sources page lists each failure.`,
    );
    expect(problems).toEqual([]);
    await page.close();
  });

  it('says on the reports page that the report tables are being built, and fills in once they are', async () => {
    const { page } = await watchedPage(site, MAY_404);
    page.setDefaultTimeout(0);
    let building = true;
    await page.route('**/api/v1/live/summary*', async (route) => {
      const summary = await (await route.fetch()).json();
      await route.fulfill({ json: { ...summary, data: { ...summary.data, reports_building: building } } });
    });
    await page.goto(`${site.url}/reports`);
    await page.locator('body[data-ready="building"]').waitFor();
    expect(await page.locator('#report-status').textContent()).toMatch(/^The report tables are being built/);
    building = false; // this site loads no history: once nothing is being built, the page says what is missing
    await page.locator('body[data-ready="true"]').waitFor();
    expect(await page.locator('#report-status').textContent()).toMatch(/not (loaded|published)/);
    await page.close();
  });
});
