// Search by place in Debian's Chromium (issue 27 parts 4 and 5), at 1400 and 390 px: the search box every page carries
// leads "Orlando", "33101" and "Harris County" to Orange County FL, Miami-Dade and Harris County TX; a name meaning
// several counties and a ZIP code spanning counties list them to choose from, with shares; nothing scrolls sideways,
// no console errors, no serious axe violations. Screenshots in OUTAGE_SCREENSHOT_DIR (default test-results/).
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPlaceTables } from '../src/geo/places.ts';
import { findChromium } from './browser.ts';
import { axeViolations, RESULTS_DIR, type Site, startSite, watchedPage } from './site-support.ts';

const chromium = await findChromium();
if (!chromium.path) console.warn(`site-search: SKIPPED, no Chromium: ${chromium.reason}`);
const SHOTS = process.env.OUTAGE_SCREENSHOT_DIR ?? RESULTS_DIR;

/** The query, the county it must land on, and that county's heading (county-page.ts: "<name>, <state name>"). */
const LANDINGS: Array<[string, string, string]> = [
  ['Orlando', '12095', 'Orange, Florida'],
  ['33101', '12086', 'Miami-Dade, Florida'],
  ['Harris County', '48201', 'Harris, Texas'],
];

let site: Site;

async function shoot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  fs.writeFileSync(path.join(SHOTS, name), await page.screenshot({ fullPage: true }));
}

/** How far the page scrolls sideways (0: it does not). */
const sideScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/**
 * The search box and the navigation beside it, sticking out of the viewport: none may. (Whole pages other than the
 * search page are checked by their own tests: at 390 px the sources and county pages' wide tables are issue 27 part 3.)
 */
const headOverflow = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('.site-head, .site-head *')]
      .map((e) => `${e.id || e.className || e.tagName}: ${Math.ceil(e.getBoundingClientRect().right)}`)
      .filter((x) => Number(x.split(': ')[1]) > document.documentElement.clientWidth),
  );

describe.skipIf(!chromium.path)('search by place in Chromium', () => {
  beforeAll(async () => {
    site = await startSite('site-search', chromium.path!, 1);
  });
  afterAll(() => site?.close());

  for (const width of [1400, 390])
    it(`at ${width} px: the search box of every page lands on the right county, or lists the choices`, async () => {
      const { page, problems } = await watchedPage(site);
      await page.setViewportSize({ width, height: width > 800 ? 1000 : 844 });
      for (const start of ['/', '/sources']) {
        await page.goto(`${site.url}${start}`);
        await expect.poll(() => page.locator('#site-search-q').isVisible()).toBe(true);
      }
      await page.locator('body[data-ready="true"]').waitFor({ timeout: 30_000 });
      expect(await headOverflow(page)).toEqual([]);
      await shoot(page, `search-box-sources-${width}.png`);

      for (const [query, fips, heading] of LANDINGS) {
        await page.locator('#site-search-q').fill(query);
        await page.locator('#site-search-q').press('Enter');
        await page.waitForURL(`**/counties/${fips}`, { timeout: 30_000 });
        await page.locator('body[data-ready="true"]').waitFor({ timeout: 30_000 });
        expect(await page.locator('h1').textContent()).toBe(heading);
        await expect.poll(() => page.locator('#utilities-table tr').count()).toBeGreaterThan(0);
        expect(await headOverflow(page), `${query} at ${width} px`).toEqual([]);
        await shoot(page, `search-${query.replace(/\W+/g, '-').toLowerCase()}-${width}.png`);
        // Back leads to where the search began, not to the search page (it replaced itself in the history)
        await page.goBack();
        expect(new URL(page.url()).pathname).toBe('/sources');
        await page.locator('body[data-ready="true"]').waitFor({ timeout: 30_000 });
      }

      // A name of several comparable counties: a list, largest first, each a link to its county page.
      const tables = loadPlaceTables();
      const oranges = tables.counties.filter((c) => c[1] === 'Orange').sort((a, b) => b[3] - a[3]);
      await page.goto(`${site.url}/search?q=${encodeURIComponent('Orange County')}`);
      await page.locator('body[data-ready="true"]').waitFor({ timeout: 30_000 });
      const links = await page.locator('#search-results a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      expect(links).toEqual(oranges.map((c) => `/counties/${c[0]}`));
      expect(await page.locator('#search-status').textContent()).toMatch(/could mean several counties/);
      expect(await page.locator('#search-credit').textContent()).toMatch(/SimpleMaps.*CC BY 4\.0/);
      expect(await page.locator('#search-q').inputValue()).toBe('Orange County');
      expect(await sideScroll(page)).toBe(0);
      await shoot(page, `search-list-orange-${width}.png`);

      // A ZIP code spanning counties: each county with its share of the ZIP code's population.
      await page.goto(`${site.url}/search?q=77494`);
      await page.locator('body[data-ready="true"]').waitFor({ timeout: 30_000 });
      const items = await page.locator('#search-results li').allTextContents();
      const expected = tables.zips['77494'].map(([f, share]) => {
        const c = tables.counties.find((x) => x[0] === f)!;
        return `${c[1]}, ${c[2]} — ${Math.round(share! * 1000) / 10} % of its population`;
      });
      expect(items).toEqual(expected);
      expect(await page.locator('#search-status').textContent()).toBe('ZIP code 77494 spans 3 counties: choose one.');
      expect(await sideScroll(page)).toBe(0);
      await shoot(page, `search-zip-77494-${width}.png`);
      if (width > 800) expect(await axeViolations(page)).toEqual([]);

      // Text from the query is shown as text, never as markup.
      await page.goto(`${site.url}/search?q=${encodeURIComponent('<img src=x onerror=alert(1)>')}`);
      await page.locator('body[data-ready="true"]').waitFor({ timeout: 30_000 });
      expect(await page.locator('#search-status').textContent()).toContain('<img src=x onerror=alert(1)>');
      expect(await page.locator('main img').count()).toBe(0);

      expect(problems).toEqual([]);
      await page.close();
    });
});
