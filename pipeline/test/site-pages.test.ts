// Issue #13 in a real browser: the county page opened from the map shows the numbers of /api/v1/live/counties/{fips},
// its incidents inside the county and its chart embed snippets; the state page, sources, events, reports, API docs
// (every catalogue path rendered from the OpenAPI document) and the embed in an <iframe>; no console errors, and
// axe-core finds no serious or critical violation on any page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { CATALOGUE } from '../src/contract/catalogue.ts';
import { CITATION } from '../src/contract/notice.ts';
import { findChromium } from './browser.ts';
import { axeViolations, saveScreenshot, type Site, startSite, watchedPage } from './site-support.ts';

type MapEntry = [number, number | null, number, number, number];
interface LiveCounty {
  customers_out: number;
  pct_out: number | null;
  band: number;
  denominator: number;
  sources: unknown[];
}
interface Incident {
  lat: number | null;
  lon: number | null;
}
const ALBERS = createRequire(import.meta.url)('us-atlas/counties-albers-10m.json') as {
  objects: { counties: { geometries: Array<{ id: string }> } };
};
const n = (x: number) => x.toLocaleString('en-US');

const chromium = await findChromium();
if (!chromium.path) console.warn(`site-pages: SKIPPED, no Chromium: ${chromium.reason}`);

let site: Site;
const axeByPage = new Map<string, string[]>();

async function open(path: string, allow404: RegExp | null = null) {
  const w = await watchedPage(site, allow404);
  await w.page.goto(`${site.url}${path}`);
  await w.page.locator('body[data-ready="true"], #map-figure[aria-busy="false"]').first().waitFor({ timeout: 30_000 });
  return w;
}

/**
 * The sources page of a live deployment (its /api/v1/coverage describes the registry it polls): the same answers with
 * `simulated` false. Coverage by state is then EIA-861's, the nation first and the states by name, with both own-feed
 * figures. Returns the mismatches found (none expected).
 */
async function liveRegistryCoverage(): Promise<string[]> {
  const coverage = await site.api<{
    national: { name: string; pct_own_feed: number; pct_own_feed_with_credentials: number };
    states: Array<{ name: string }>;
    credentials: { sources: string[] };
  }>('/api/v1/coverage');
  const { page, problems } = await watchedPage(site);
  for (const p of ['**/api/v1/live/sources', '**/api/v1/coverage'])
    await page.route(p, async (route) => {
      const { 'if-none-match': _, ...headers } = route.request().headers();
      const res = await route.fetch({ headers });
      const body = (await res.json()) as { data: { simulated: boolean } };
      body.data.simulated = false;
      await route.fulfill({ response: res, json: body });
    });
  await page.goto(`${site.url}/sources`);
  await page.locator('body[data-ready="true"]').waitFor({ timeout: 30_000 });
  const found: string[] = [];
  const check = (what: string, got: unknown, want: unknown) => {
    if (JSON.stringify(got) !== JSON.stringify(want))
      found.push(`${what}: ${JSON.stringify(got)} ≠ ${JSON.stringify(want)}`);
  };
  check('from', await page.locator('#coverage-table').getAttribute('data-from'), 'coverage');
  check(
    'note',
    /describes the registry this server polls: sources\.csv/.test(
      (await page.locator('#registry-note').textContent()) ?? '',
    ),
    true,
  );
  const heads = await page.locator('#coverage-table thead th').allTextContents();
  check('heads', heads.slice(2, 4), [
    'Own feed, no credentials',
    `Own feed, with credentials (${coverage.credentials.sources.length} gated rows)`,
  ]);
  const us = await page.locator('#coverage-table tbody tr[data-key="US"] td').allTextContents();
  check('US', us.slice(0, 1).concat(us.slice(2, 4)), [
    coverage.national.name,
    `${coverage.national.pct_own_feed} %`,
    `${coverage.national.pct_own_feed_with_credentials} %`,
  ]);
  const names = await page.locator('#coverage-table tbody tr td:first-child').allTextContents();
  check('order', names, [
    coverage.national.name,
    ...coverage.states.map((x) => x.name).sort((a, b) => a.localeCompare(b)),
  ]);
  await page.close();
  return [...found, ...problems];
}

describe.skipIf(!chromium.path)('site pages in Chromium', () => {
  beforeAll(async () => {
    site = await startSite('site-pages', chromium.path!, 1);
  });
  afterAll(() => site?.close());

  it('opens the county page from the map, with the numbers of /api/v1/live/counties/{fips} and chart embeds', async () => {
    const map = await site.api<Record<string, MapEntry>>('/api/v1/live/map');
    const drawn = new Set(ALBERS.objects.counties.geometries.map((g) => g.id));
    const [fips] = Object.entries(map)
      .filter(([f]) => drawn.has(f))
      .sort((a, b) => b[1][0] - a[1][0])[0];
    const { page, problems } = await open('/');
    const link = page.locator(`.out a[data-fips="${fips}"]`);
    await link.hover({ force: true });
    await expect.poll(() => page.locator('#map-tooltip').getAttribute('data-fips')).toBe(fips);
    await link.click({ force: true });
    await page.waitForURL(`**/counties/${fips}`);
    await page.locator('body[data-ready="true"]').waitFor();
    const live = await site.api<LiveCounty>(`/api/v1/live/counties/${fips}`);
    expect(live.customers_out).toBe(map[fips][0]);
    const field = (f: string) => page.locator(`[data-field="${f}"]`).textContent();
    expect(await field('customers_out')).toBe(n(live.customers_out));
    expect(await field('pct_out')).toBe(`${live.pct_out} %`);
    expect(await field('band')).toMatch(new RegExp(`^${live.band} \\(`));
    expect(await field('denominator')).toBe(n(live.denominator));
    expect(live.sources.length).toBeGreaterThan(0);
    expect(await page.locator('#utilities-table tbody tr').count()).toBe(live.sources.length);
    // Three charts, each with a snippet that embeds that very image by absolute URL and links back here.
    const charts = await page
      .locator('#charts figure')
      .evaluateAll((figs) =>
        figs.map((f) => ({ src: f.querySelector('img')!.src, snippet: f.querySelector('textarea')!.value })),
      );
    expect(charts.map((c) => new URL(c.src).pathname)).toEqual(
      ['live', 'decade', 'monthly'].map((k) => `/api/v1/counties/${fips}/chart/${k}`),
    );
    for (const c of charts) {
      expect(c.snippet).toContain(`<img src="${c.src}" width="600" height="315"`);
      expect(c.snippet).toContain(`<a href="${site.url}/counties/${fips}">`);
    }
    await page.locator('#charts img').first().scrollIntoViewIfNeeded();
    await expect
      .poll(() =>
        page
          .locator('#charts img')
          .first()
          .evaluate((i: HTMLImageElement) => i.naturalWidth),
      )
      .toBe(1200);
    expect(await page.locator('#downloads a[data-format="csv"]').count()).toBeGreaterThanOrEqual(4);
    axeByPage.set('county', await axeViolations(page));
    expect(problems).toEqual([]);
    await page.close();
  });

  it('puts a county’s incidents on its small map, inside the county, and lists them with ETR, crew and cause', async () => {
    const map = await site.api<Record<string, MapEntry>>('/api/v1/live/map');
    let found: { fips: string; incidents: Incident[] } | null = null;
    for (const fips of Object.keys(map).filter((f) => /^\d{5}$/.test(f))) {
      const d = await site.api<{ incidents: Incident[] }>(`/api/v1/live/counties/${fips}/incidents`);
      if (d.incidents.length >= 3) {
        found = { fips, incidents: d.incidents };
        break;
      }
    }
    expect(found).not.toBeNull();
    const { page, problems } = await open(`/counties/${found!.fips}`);
    expect(await page.locator('#incidents-table tbody tr').count()).toBe(found!.incidents.length);
    const located = found!.incidents.filter((i) => i.lat !== null && i.lon !== null);
    const dots = await page.evaluate(() => {
      const shape = document.querySelector<SVGPathElement>('.county-shape')!;
      return [...document.querySelectorAll<SVGCircleElement>('circle.incident')].map((c) => ({
        at: `${c.cx.baseVal.value},${c.cy.baseVal.value}`,
        inside: shape.isPointInFill(new DOMPoint(c.cx.baseVal.value, c.cy.baseVal.value)),
      }));
    });
    expect(dots.length).toBe(located.length);
    expect(dots.every((d) => d.inside)).toBe(true);
    expect(new Set(dots.map((d) => d.at)).size).toBeGreaterThan(1); // spread over the county, not one point
    const header = await page.locator('#incidents-table thead').textContent();
    for (const col of ['Estimated restoration', 'Crew status', 'Cause']) expect(header).toContain(col);
    saveScreenshot(await page.screenshot(), 'county-page.png');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the state page: its counties zoomed, a sortable county table, and the utilities serving it', async () => {
    const map = await site.api<Record<string, MapEntry>>('/api/v1/live/map');
    const sources = await site.api<{ sources: Array<{ states: string[] }> }>('/api/v1/live/sources');
    const { page, problems } = await open('/states/fl');
    const inState = ALBERS.objects.counties.geometries.filter((g) => g.id.startsWith('12')).length;
    expect(await page.locator('path.county').count()).toBe(inState);
    expect(await page.locator('#counties-table tbody tr').count()).toBe(inState);
    const outFl = Object.entries(map).filter(([f]) => f.startsWith('12') && f.length === 5);
    expect(outFl.length).toBeGreaterThan(5);
    const classes = await page
      .locator('path.county')
      .evaluateAll((ps) => Object.fromEntries(ps.map((p) => [p.getAttribute('data-fips'), p.getAttribute('class')])));
    for (const [f, [, pct, , band]] of outFl)
      expect(classes[f], f).toBe(`county ${band < 0 || pct === null ? 'fill-untrusted' : `fill-b${band}`}`);
    await page.getByRole('button', { name: 'Customers out' }).first().click(); // sorts descending
    await page.getByRole('button', { name: 'Customers out' }).first().click(); // then ascending
    const first = await page.locator('#counties-table tbody tr').first().locator('td').nth(1).textContent();
    expect(first).toBe('0');
    const fl = sources.sources.filter((s) => s.states.includes('FL')).length;
    expect(fl).toBeGreaterThan(0);
    expect(await page.locator('#utilities-table tbody tr').count()).toBe(fl);
    axeByPage.set('state', await axeViolations(page));
    expect(problems).toEqual([]);
    await page.close();
  });

  it('lists the sources, the newest events with filters and feeds, and says when reports are not loaded', async () => {
    const sources = await site.api<{ sources: unknown[] }>('/api/v1/live/sources');
    const s = await open('/sources', /^\/api\/v1\/coverage$/);
    expect(await s.page.locator('#sources-table tbody tr').count()).toBe(sources.sources.length);
    expect(await s.page.locator('#coverage-classes tbody tr').count()).toBe(4);
    // A simulated deployment polls the simulator's registry: every figure is of it, coverage by state too (its
    // /api/v1/coverage describes the shipped registry, not polled here), and the page says which registry it is.
    expect(await s.page.locator('#registry-note').textContent()).toContain(
      `the storm simulator's ${sources.sources.length} sources (simulated)`,
    );
    expect(await s.page.locator('#coverage-table').getAttribute('data-from')).toBe('sources');
    const listed = new Set(sources.sources.flatMap((x) => (x as { states: string[] }).states));
    expect(await s.page.locator('#coverage-table tbody tr').count()).toBe(listed.size);
    // Sorted by utility name, the first heading says so.
    const utilities = (sources.sources as Array<{ utility: string }>).map((x) => x.utility);
    const shownNames = await s.page.locator('#sources-table tbody tr td:first-child').allTextContents();
    expect(shownNames).toEqual([...utilities].sort((a, b) => a.localeCompare(b)));
    expect(await s.page.locator('#sources-table th').first().getAttribute('aria-sort')).toBe('ascending');
    expect(await s.page.locator('#sources-table thead').textContent()).not.toMatch(
      /interval_min|updated_at|next_due_at/,
    );
    expect(await liveRegistryCoverage()).toEqual([]);
    // No `sources verify` has run in this state: the page says so (the document is published all the same).
    expect(await s.page.locator('#verify-status').textContent()).toMatch(/^No verification has run on this deployment/);
    axeByPage.set('sources', await axeViolations(s.page));
    expect(s.problems).toEqual([]);

    const events = await site.api<{ events: Array<{ id: number; state: string | null }> }>('/api/v1/events');
    expect(events.events.length).toBeGreaterThan(0);
    const e = await open('/events');
    const keys = await e.page
      .locator('#events-table tbody tr')
      .evaluateAll((rs) => rs.map((r) => r.getAttribute('data-key')));
    expect(keys).toEqual(events.events.map((x) => String(x.id)).sort((a, b) => Number(b) - Number(a)));
    await e.page.fill('#f-state', 'fl');
    await e.page.click('#event-filters button[type="submit"]');
    const fl = await site.api<{ events: unknown[] }>('/api/v1/events?state=FL');
    await expect.poll(() => e.page.locator('#events-table tbody tr[data-key]').count()).toBe(fl.events.length);
    expect(await e.page.locator('#events-status').textContent()).toMatch(/^\d+ events?, newest first/);
    expect(await e.page.locator('[data-feed="feeds.atom"]').getAttribute('href')).toBe('/feeds/events.atom?state=FL');
    axeByPage.set('events', await axeViolations(e.page));
    expect(e.problems).toEqual([]);

    const r = await open('/reports', /^\/api\/v1\/reports\//);
    expect(await r.page.locator('#report-status').textContent()).toMatch(/not (loaded|published)/);
    axeByPage.set('reports', await axeViolations(r.page));
    expect(r.problems).toEqual([]);
    for (const w of [s, e, r]) await w.page.close();
  });

  it('lists every operation of the OpenAPI document on the docs page, and opens swagger-ui only when asked', async () => {
    const { page, problems } = await open('/docs/');
    const doc = (await (await fetch(`${site.url}/api/v1/openapi.json`)).json()) as { paths: Record<string, unknown> };
    const listed = await page
      .locator('#reference .op-path')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));
    for (const p of Object.keys(doc.paths)) expect(listed, p).toContain(p);
    for (const e of CATALOGUE) expect(listed, e.path).toContain(e.path);
    const first = page.locator('#reference details.op').first();
    await first.locator('summary').click();
    expect(await first.getAttribute('open')).not.toBeNull();
    expect(await page.locator('script[src*="swagger-ui-bundle"]').count()).toBe(0); // not loaded until asked for
    expect(await page.locator('code.example[data-lang="R"]').textContent()).toContain(
      `${site.url}/api/v1/live/counties/`,
    );
    const plain = await axeViolations(page);
    await page.locator('#swagger-open').click();
    await page.locator('#swagger-ui[data-ready="true"] .opblock-summary-path').first().waitFor({ timeout: 60_000 });
    const paths = await page
      .locator('.opblock-summary-path')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));
    for (const e of CATALOGUE) expect(paths, e.path).toContain(e.path);
    axeByPage.set('docs', [...plain, ...(await axeViolations(page))]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('renders the embeddable state map inside an iframe, with the citation and a link back', async () => {
    const { page, problems } = await watchedPage(site);
    await page.setContent(
      `<iframe src="${site.url}/embed/map?state=fl" width="800" height="560" title="map"></iframe>`,
    );
    const frame = page.frameLocator('iframe');
    await frame.locator('body[data-ready="true"]').waitFor({ timeout: 30_000 });
    const inState = ALBERS.objects.counties.geometries.filter((g) => g.id.startsWith('12')).length;
    expect(await frame.locator('path.county').count()).toBe(inState);
    expect(await frame.locator('.embed-foot').textContent()).toContain(CITATION);
    expect(await frame.locator('#embed-back').getAttribute('href')).toBe(`${site.url}/states/fl`);
    const summary = await site.api<{ states: Array<{ state: string; customers_out: number }> }>('/api/v1/live/summary');
    const fl = summary.states.find((x) => x.state === 'FL')!;
    expect(await frame.locator('#embed-figure').textContent()).toContain(`${n(fl.customers_out)} customers out`);
    const w = await open('/embed/states/fl');
    expect(await w.page.locator('path.county').count()).toBe(inState);
    axeByPage.set('embed', await axeViolations(w.page));
    expect([...problems, ...w.problems]).toEqual([]);
    await page.close();
    await w.page.close();
  });

  it('has no serious or critical accessibility violations on any page (axe-core)', () => {
    expect([...axeByPage.keys()].sort()).toEqual(['county', 'docs', 'embed', 'events', 'reports', 'sources', 'state']);
    expect(Object.fromEntries(axeByPage)).toEqual(Object.fromEntries([...axeByPage.keys()].map((k) => [k, []])));
  });
});
