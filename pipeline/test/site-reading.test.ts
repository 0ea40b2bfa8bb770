// Issue 38 parts 3, 4 and 8 in Debian's Chromium: what a person reads on every page. Every time shown says its zone
// and none is a raw ISO string; no API field name (snake_case) is in the visible text, except in <code>, <small> and
// tooltips and in the docs page's reference; the reports tables (18–20 columns, their documents routed here as a
// loaded deployment publishes them) are fitted like every other table and never cut at the right, at 1400 and
// 390 px, with a line saying how many columns they show; Play says why it is off; a past-map time outside the archive
// is said so. Screenshots of the reports tables at both widths go to OUTAGE_SCREENSHOT_DIR (default test-results/);
// site-widths.test.ts takes every page's.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLUMN_SCHEMAS, REPORT_COLUMNS } from '../src/contract/report-columns.ts';
import { ADVICE } from '../src/registry/verify-advice.ts';
// @ts-expect-error: a plain browser module (no types)
import { timeText } from '../../site/src/map/browser/times.js';
import { findChromium } from './browser.ts';
import { RESULTS_DIR, type Site, startSite, watchedPage } from './site-support.ts';

type MapEntry = [number, number | null, number, number, number];

const chromium = await findChromium();
if (!chromium.path) console.warn(`site-reading: SKIPPED, no Chromium: ${chromium.reason}`);
const SHOTS = process.env.OUTAGE_SCREENSHOT_DIR ?? RESULTS_DIR;
/** Documents a page may find unpublished (no history, a quiet county): each page says so itself. */
const MAY_404 = /^\/api\/v1\//;

let site: Site;
let pages: string[] = [];

/** A value of a report column as the API gives it (its JSON schema), one with an underscore where the enum has one. */
function exampleValue(column: string, year: number): unknown {
  const s = (COLUMN_SCHEMAS[column] ?? { type: ['integer', 'null'] }) as Record<string, unknown>;
  const types = [s.type].flat();
  if (column === 'year') return year;
  if (column === 'month') return 7;
  if (Array.isArray(s.enum)) return s.enum.find((v) => typeof v === 'string' && v.includes('_')) ?? s.enum[0];
  if (s.format === 'date-time') return `${year}-07-04T18:15:00Z`;
  if (String(s.pattern).includes('\\d{5}')) return '12086';
  if (String(s.pattern).includes('[A-Z]{2}')) return 'FL';
  if (types.includes('boolean')) return true;
  if (types.includes('number')) return 1234.56;
  if (types.includes('integer')) return 123_456;
  return column === 'began_at' ? '07/04/2024 6:15 PM' : 'Miami-Dade';
}
const rowsOf = (columns: readonly string[], years: number[]) =>
  years.map((y) => Object.fromEntries(columns.map((c) => [c, exampleValue(c, y)])));

/** The reports documents of a deployment with history loaded: every table's real columns (report-columns.ts). */
async function routeReports(page: Page) {
  await page.route('**/api/v1/reports/**', async (route) => {
    const url = new URL(route.request().url());
    const m = /^\/api\/v1\/reports\/(?:data|(\d{4})(?:\/[a-z]{2})?\/data)$/.exec(url.pathname);
    if (!m) return route.fallback(); // charts: this deployment's own 404
    const table = url.searchParams.get('table') ?? 'national';
    const byTable: Record<string, readonly string[]> = m[1]
      ? { ...REPORT_COLUMNS.year, counties: REPORT_COLUMNS.year.counties }
      : REPORT_COLUMNS.national;
    const years = m[1] ? [Number(m[1]), Number(m[1]), Number(m[1])] : [2025, 2024, 2023, 2022, 2021, 2020];
    const rows = rowsOf(byTable[table] ?? REPORT_COLUMNS.year.counties, years);
    await route.fulfill({ json: { data: { table, loaded: true, rows, source_credit: 'EAGLE-I (ORNL)' } } });
  });
}

/** A verification with a failure of each kind, its advice the registry's own words (Markdown, field names). */
async function routeVerification(page: Page) {
  const kinds = Object.keys(ADVICE) as Array<keyof typeof ADVICE>;
  const rows = kinds.map((kind, i) => ({
    id: `row-${i}`,
    utility: `Utility ${i}`,
    status: 404,
    failure: { kind, message: `The host answered \`HTTP 404\` at <b>${kind}</b>`, advice: ADVICE[kind] },
  }));
  const report = {
    finished_at: '2026-09-01T03:00:00Z',
    summary: { rows: rows.length, ok: 0, failed: rows.length },
    rows,
  };
  await page.route('**/api/v1/sources/verification*', (route) => route.fulfill({ json: { data: { report } } }));
}

/** The live sources and coverage as a deployment that polls the shipped registry answers them (simulated false). */
async function liveDeployment(page: Page) {
  for (const p of ['**/api/v1/live/sources', '**/api/v1/coverage'])
    await page.route(p, async (route) => {
      const { 'if-none-match': _, ...headers } = route.request().headers();
      const res = await route.fetch({ headers });
      const body = (await res.json()) as { data: { simulated: boolean } };
      body.data.simulated = false;
      await route.fulfill({ response: res, json: body });
    });
}

/** A page at `width` with the browser's clock just after the deployment's, waiting on conditions only. */
async function open(p: string, width: number, routes?: (page: Page) => Promise<void>) {
  const w = await watchedPage(site, MAY_404);
  w.page.setDefaultTimeout(0);
  await w.page.clock.setFixedTime(new Date(site.clock().getTime() + 5 * 60_000));
  await w.page.setViewportSize({ width, height: width > 800 ? 1000 : 844 });
  await routeReports(w.page);
  await routeVerification(w.page);
  await routes?.(w.page);
  await w.page.goto(`${site.url}${p}`);
  await w.page.locator('body[data-ready="true"], #map-figure[aria-busy="false"]').first().waitFor();
  return w;
}

/** Every collapsed table shown in full, every report column, every <details> open: all a person can reveal. */
const expandAll = (page: Page) =>
  page.evaluate(() => {
    for (const b of document.querySelectorAll<HTMLButtonElement>('button[aria-expanded="false"]')) b.click();
    for (const d of document.querySelectorAll('details')) d.open = true;
  });

/**
 * What a person reads that breaks the rules: snake_case names, raw ISO times, and clock times without a zone, each
 * with the text around it. Code, small print, tooltips (title) and, on the docs page, the API reference are allowed.
 */
const misreadings = (page: Page) =>
  page.evaluate(() => {
    const ALLOWED = 'code, pre, small, script, style, textarea, title, #reference, #swagger-ui';
    const SNAKE = /\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b/g;
    const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/g;
    const CLOCK = /\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AP]M)?/g;
    const ZONE = /^\s?(UTC|[A-Z]{2,5}T|GMT[+-]?\d*)\b/;
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement!;
      const text = n.textContent ?? '';
      if (!text.trim() || el.closest(ALLOWED)) continue;
      if (!el.closest('select') && !el.checkVisibility()) continue;
      const at = (i: number) => `«${text.slice(Math.max(0, i - 30), i + 40).trim()}»`;
      for (const m of text.matchAll(SNAKE)) found.push(`field name ${m[0]} ${at(m.index)}`);
      for (const m of text.matchAll(ISO)) found.push(`ISO time ${at(m.index)}`);
      for (const m of text.matchAll(CLOCK))
        if (!ZONE.test(text.slice(m.index + m[0].length))) found.push(`time without its zone ${at(m.index)}`);
    }
    for (const t of document.querySelectorAll('time'))
      if (t.textContent && t.textContent !== '—' && !/\d UTC\b/.test(t.textContent))
        found.push(`<time> without UTC «${t.textContent}»`);
    return found;
  });

/** Whether each table sticks out of its box (cut at the right), and how each is fitted. */
const tableFits = (page: Page, ids: string[]) =>
  page.evaluate(
    (list) =>
      list.map((id) => {
        const t = document.getElementById(id)!;
        const box = t.parentElement!.getBoundingClientRect();
        return {
          id,
          cut: t.getBoundingClientRect().right > Math.min(box.right, innerWidth) + 0.5,
          columns: t.querySelectorAll('thead th').length,
          fit: t.classList.contains('stack') ? 'stack' : t.classList.contains('compact') ? 'compact' : 'as is',
          line: (t.previousElementSibling as HTMLElement | null)?.matches('p.columns')
            ? t.previousElementSibling!.textContent
            : null,
        };
      }),
    ids,
  );

describe.skipIf(!chromium.path)('what a person reads (issue 38 parts 3, 4, 8)', () => {
  beforeAll(async () => {
    site = await startSite('site-reading', chromium.path!, 2);
    const map = await site.api<Record<string, MapEntry>>('/api/v1/live/map');
    const out = Object.entries(map).filter(([f]) => /^\d{5}$/.test(f));
    const worst = out.sort((a, b) => b[1][0] - a[1][0])[0][0];
    const pr = out.find(([f]) => f.startsWith('72'))?.[0] ?? '72127';
    pages = ['/', '/sources', '/events', '/reports', '/search?q=Orange%20County', '/docs/', '/states/fl'];
    pages.push(`/counties/${worst}`, `/counties/${pr}`, '/embed/states/fl', '/embed/map');
  });
  afterAll(() => site?.close());

  it('every page: times with their zone, no raw ISO time, no field name outside code, small print and tooltips', async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    const found: string[] = [];
    for (const p of pages) {
      const { page, problems } = await open(p, 1400);
      await expandAll(page);
      found.push(...(await misreadings(page)).map((f) => `${p}: ${f}`));
      expect(problems, p).toEqual([]);
      await page.close();
    }
    // A live deployment's /sources: coverage by state from EIA-861, its method (the registry's field names) opened.
    const live = await open('/sources', 1400, liveDeployment);
    await expandAll(live.page);
    found.push(...(await misreadings(live.page)).map((f) => `/sources (live): ${f}`));
    expect(await live.page.locator('#coverage-table').getAttribute('data-from')).toBe('coverage');
    expect(await live.page.locator('#coverage-method-text code').count()).toBeGreaterThan(0);
    await live.page.close();
    expect(found).toEqual([]);
  });

  it('says in words what the county and state pages abbreviate: band with its range, size, feed software', async () => {
    const { page } = await open('/states/fl', 1400);
    const bands = await page.locator('#counties-table tbody td[data-label="Band"]').allTextContents();
    for (const b of bands) expect(b).toMatch(/^(—|untrusted|[0-5] \((under \d+ %|\d+–\d+ %|\d+ % or more)\))$/);
    expect(bands.some((b) => b !== '—')).toBe(true);
    const software = await page.locator('#utilities-table tbody td[data-label="Feed software"]').allTextContents();
    expect(software.length).toBeGreaterThan(0);
    for (const s of software) expect(['ArcGIS', 'NISC', 'Kubra StormCenter', 'FPL’s own']).toContain(s);
    await page.close();
    const map = await site.api<Record<string, MapEntry>>('/api/v1/live/map');
    const [fips] = Object.entries(map)
      .filter(([f]) => /^\d{5}$/.test(f))
      .sort((a, b) => b[1][0] - a[1][0])[0];
    const county = await open(`/counties/${fips}`, 1400);
    const field = (f: string) => county.page.locator(`[data-field="${f}"]`).textContent();
    expect(await field('magnitude')).toMatch(/^[0-5] of 5: [\d,–]+ customers out$|^0 of 5: under 100 customers out$/);
    expect(await field('band')).toMatch(/^\d \(.+ out\)$/);
    expect(await county.page.locator('#live-status dt small').allTextContents()).toEqual([
      'pct_out',
      'band',
      'magnitude',
      'denominator',
    ]);
    await county.page.close();
  });

  for (const width of [1400, 390])
    it(`at ${width} px the reports tables are fitted, never cut at the right, and say how many columns they show`, async () => {
      const { page, problems } = await open('/reports', width);
      const ids = ['report-table', 'national-table'];
      await page.locator('#national-table thead th').first().waitFor();
      const main = await tableFits(page, ids);
      for (const t of main) {
        expect(t.cut, t.id).toBe(false);
        expect(t.line, t.id).toMatch(/^\d+ of \d+ columns shown; the downloads have every one\. Show all \d+ columns$/);
      }
      fs.writeFileSync(
        path.join(SHOTS, `reading-reports-main-${width}.png`),
        await page.screenshot({ fullPage: true }),
      );
      for (const id of ids) await page.locator(`#${id}`).locator('xpath=preceding-sibling::p[1]//button').click();
      const all = await tableFits(page, ids);
      expect(all.map((t) => t.columns)).toEqual([
        REPORT_COLUMNS.year.counties.length,
        REPORT_COLUMNS.national.national.length,
      ]);
      for (const t of all) {
        expect(t.cut, t.id).toBe(false);
        if (width < 800) expect(t.fit, t.id).toBe('stack');
        expect(t.line, t.id).toMatch(/^(\d+) of \1 columns shown; .* Show the \d+ main columns$/);
      }
      const over = await page.evaluate(() => document.scrollingElement!.scrollWidth - innerWidth);
      expect(over).toBe(0);
      fs.writeFileSync(path.join(SHOTS, `reading-reports-all-${width}.png`), await page.screenshot({ fullPage: true }));
      expect(problems).toEqual([]);
      await page.close();
    });

  it('says why Play is off, and what the frames span once it is on', async () => {
    const off = await watchedPage(site, MAY_404);
    off.page.setDefaultTimeout(0);
    await off.page.route('**/api/v1/live/timeline*', async (route) => {
      const doc = await (await route.fetch()).json();
      await route.fulfill({ json: { ...doc, data: { ...doc.data, frames: doc.data.frames.slice(0, 1) } } });
    });
    await off.page.goto(`${site.url}/`);
    await off.page.locator('#timeline-why', { hasText: 'Play is off' }).waitFor();
    const why = (page: Page) =>
      page.evaluate(() => {
        const play = document.getElementById('timeline-play') as HTMLButtonElement;
        const note = document.getElementById(play.getAttribute('aria-describedby')!)!;
        return { disabled: play.disabled, text: note.textContent, visible: note.checkVisibility() };
      });
    expect(await why(off.page)).toEqual({
      disabled: true,
      text: 'Play is off until the animation has two quarter hours or more: one quarter hour is published so far; frames are added as the server polls.',
      visible: true,
    });
    expect(off.problems).toEqual([]);
    await off.page.close();

    const { page } = await open('/', 1400);
    await page.locator('#timeline-play:not([disabled])').waitFor();
    expect((await why(page)).text).toMatch(
      /^\d+ quarter hours, \w{3} \d+, \d\d:\d\d UTC to \w{3} \d+, \d\d:\d\d UTC\.$/,
    );
    await page.close();
  });

  it('says a past-map time before the archive or after now is outside it, and keeps the map as it was', async () => {
    const { page, problems } = await open('/', 1400);
    const input = page.locator('#past-at');
    await page.locator('#past-at:not([disabled])').waitFor();
    const [min, max] = [await input.getAttribute('min'), await input.getAttribute('max')];
    const utc = (v: string): string => timeText(`${v}:00Z`); // the rule itself: feed-times.test.ts
    await input.fill('2026-08-31T12:00');
    await page.locator('#past-show').click();
    expect(await page.locator('#past-status').textContent()).toBe(
      `${utc('2026-08-31T12:00')} is before the archive, which starts at ${utc(min!)}: choose a time from then on.`,
    );
    await input.fill('2026-09-03T00:00');
    await page.locator('#past-show').click();
    expect(await page.locator('#past-status').textContent()).toBe(
      `${utc('2026-09-03T00:00')} has not happened yet: the latest quarter hour to show is ${utc(max!)}.`,
    );
    expect(await page.locator('#map-figure').getAttribute('data-past')).toBeNull();
    expect(await page.locator('#past-banner').isHidden()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });
});
