// Issue 38 parts 1 and 2 on what `npm start` really publishes: `outage start` (the simulator, its SIMULATED decade of
// history, the poll loop) with an injected clock from 23:40 UTC at 60× speed, run until its report tables are out
// and 1 December is a finished archive day, then stopped; its tree served as the CDN serves it.
//  - Only past times: every published document's times are at or before its own generated_at (the ETR and schedule
//    fields of published-times.ts aside), function answers too, and every site page's visible times are at or
//    before the deployment's last publish.
//  - Simulated is credited to no one: every report row, county year, month and worst event says `simulated`, every
//    credit is the SIMULATED one (JSON and CSV), charts credit no one, feed entry titles carry [SIMULATED], and every
//    site page shows the SIMULATED banner.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { csvParse } from 'd3-dsv';
import { XMLParser } from 'fast-xml-parser';
import type { Browser, Page } from 'playwright-core';
import { Agent, fetch } from 'undici';
import { SITE_PATHS, type SitePage, sitePath } from '../src/contract/site-pages.ts';
import { SIMULATED_CREDIT, SIMULATED_SOURCE } from '../src/history/provenance.ts';
import { decadeSpec } from '../src/publish/chart-specs.ts';
import { decadeReportSpec } from '../src/publish/reports.ts';
import { startServer } from '../src/serve/server.ts';
import { findChromium, launchChromium } from './browser.ts';
import { closeAll, makeTempDir, removeTempDir } from './clean-machine.ts';
import { FUTURE_FIELDS, instantOf, manifestFiles, walkTree } from './published-times.ts';

const BIN = fileURLToPath(new URL('../../bin/outage.js', import.meta.url));
const ORANGE = '12095';
const START = '2026-12-01T23:40:00Z';
const dir = makeTempDir('simulated-deployment');
const out = path.join(dir, 'public');
let server: Awaited<ReturnType<typeof startServer>> | undefined;
/**
 * The deployment's now as its pages say it ("as of"): the live summary's generated_at, from its last cycle. The
 * browser's clock is set to it, and no page may show a later time.
 */
let asOf = '';

/** The running `outage start` (stopped by runDeployment, or by afterAll when a failure stopped the wait). */
let child: ChildProcess | undefined;
let log = '';

/** Runs `outage start` until `done` holds of its log and tree, then stops it (SIGTERM: it ends after its cycle). */
async function runDeployment(done: (log: string) => boolean): Promise<void> {
  const args = ['start', '--now', START, '--speed', '60', '--sim-sources', '10', '--port', '0'];
  const proc = spawn(process.execPath, [BIN, ...args, '--state', path.join(dir, 'state'), '--out', out], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  proc.stdout!.on('data', (d) => (log += d));
  proc.stderr!.on('data', (d) => (log += d));
  while (!done(log)) {
    if (proc.exitCode !== null || child !== proc) throw new Error(`outage start stopped early:\n${log}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  await stopDeployment();
}

/** Stops the deployment if it runs: SIGTERM, then SIGKILL should it not end after its cycle. */
async function stopDeployment(): Promise<void> {
  const proc = child;
  child = undefined;
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGTERM');
  // it ends after the cycle in progress; a second signal would stop it at once (a guard against a hang, not a budget)
  const guard = setTimeout(() => proc.kill('SIGKILL'), 300_000);
  await exited;
  clearTimeout(guard);
}

// A guard against a hang, sized for a first start (a decade of history imported, reports published) on a 2-core
// machine under load: about 4 minutes idle.
beforeAll(async () => {
  await runDeployment(
    (text) =>
      /report tables published/.test(text) && fs.existsSync(path.join(out, 'api/v1/archive/days/2026-12-01.csv')),
  );
  server = await startServer({ outDir: out, port: 0 });
  asOf = (await api<{ generated_at: string }>('/api/v1/live/summary')).generated_at;
}, 1_800_000);
afterAll(() =>
  closeAll(
    () => stopDeployment(),
    () => server?.close(),
    () => noKeepAlive.close(),
    () => removeTempDir(dir),
  ),
);

/**
 * A request on a fresh connection: the walks below hold this process's event loop for seconds, and a kept-alive
 * socket the server closed meanwhile would be reset under the next request.
 */
const noKeepAlive = new Agent({ pipelining: 0 });
const get = (p: string) => fetch(`${server!.url}${p}`, { dispatcher: noKeepAlive });
const api = async <T>(p: string): Promise<T> => {
  const res = await get(p);
  expect(res.status, p).toBe(200);
  return ((await res.json()) as { data: T }).data;
};

describe('only past times (issue 38 part 1)', () => {
  it('every published document: each time at or before its generated_at, ETRs and schedules aside', () => {
    const w = walkTree(out);
    expect(w.late).toEqual([]);
    // not a vacuous walk: every kind of document read, and times ahead found only where they belong
    expect(w.files).toBeGreaterThan(10_000);
    expect(w.checked.json).toBeGreaterThan(10_000);
    expect(w.checked.csv).toBeGreaterThan(1_000);
    expect(w.checked.feed).toBeGreaterThan(10);
    const ahead = new Set(w.futureAllowed.map((f) => f.field));
    // ETRs are always ahead somewhere in a storm; a schedule (next_due_at) is ahead only when the last publish came
    // soon after a poll, which a loaded machine's last cycle need not be: not required here.
    expect(ahead.has('etr')).toBe(true);
    for (const f of ahead) expect(FUTURE_FIELDS.has(f), f).toBe(true);
  });

  it('the archive index, the map at its latest quarter and the county series answer no time after generated_at', async () => {
    const index = await api<{ generated_at: string; last_quarter: string }>('/api/v1/archive');
    expect(Date.parse(index.last_quarter)).toBeLessThanOrEqual(Date.parse(index.generated_at));
    // the time now, or just before it, is the quarter containing it: archived (the issue saw a 404 while polling)
    const at = new Date(Date.parse(index.last_quarter) + 14 * 60_000).toISOString();
    const map = await api<{ generated_at: string; quarter_at: string; coverage: { cycle_at: string } }>(
      `/api/v1/archive/map?at=${at}`,
    );
    expect(map.quarter_at).toBe(index.last_quarter);
    expect(map.quarter_at <= map.coverage.cycle_at && map.coverage.cycle_at <= map.generated_at).toBe(true);
    const series = await api<{ generated_at: string; series: Array<{ at: string }> }>(
      `/api/v1/archive/counties/${ORANGE}`,
    );
    expect(series.series.length).toBeGreaterThan(0);
    for (const p of series.series) expect(Date.parse(p.at), p.at).toBeLessThanOrEqual(Date.parse(series.generated_at));
  });

  it('the function layer’s county report and filtered JSON Feed answer no time after their generation', async () => {
    const report = await api<{ generated_at: string; rows: Array<Record<string, unknown>> }>(
      `/api/v1/reports/2024/fl/${ORANGE}/data?table=events`,
    );
    const times = report.rows.flatMap((r) => [r.start_at, r.end_at]).map((t) => instantOf(String(t))!);
    expect(times.length).toBeGreaterThan(0);
    for (const t of times) expect(t).toBeLessThanOrEqual(Date.parse(report.generated_at));
    const json = (await (await get('/feeds/events.json?state=FL')).json()) as {
      items: Array<{ date_published: string }>;
    };
    expect(json.items.length).toBeGreaterThan(0);
    for (const i of json.items) expect(Date.parse(i.date_published)).toBeLessThanOrEqual(Date.parse(asOf));
  });
});

/** Rule texts (the episode rule's `source` says how sources are chosen): words about data, not a row's credit. */
const RULES = new Set(['episode_rule', 'rules']);
/** Every `source`, `source_credit` and `history_credit` value in a JSON value, outside its rule texts. */
function credits(v: unknown, out: Array<[string, unknown]> = []): Array<[string, unknown]> {
  if (Array.isArray(v)) for (const x of v) credits(x, out);
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) {
      if (k === 'source' || k === 'source_credit' || k === 'history_credit') out.push([k, x]);
      else if (!RULES.has(k)) credits(x, out);
    }
  return out;
}

/** The history tree's documents and the county profiles and histories: where history's rows are published. */
const historyDocs = () =>
  manifestFiles(out).filter(
    (f) => /^api\/v1\/(reports\/|counties\/\d{5}(\.history)?\.(json|csv)$)/.test(f.rel) && /\.(json|csv)$/.test(f.rel),
  );

describe('simulated is credited to no one (issue 38 part 2)', () => {
  it('every report row, county year, month and worst event says simulated, every credit the SIMULATED one', () => {
    const seen = { source: 0, source_credit: 0, history_credit: 0, csv: 0 };
    for (const f of historyDocs()) {
      const body = fs.readFileSync(f.file, 'utf8');
      if (f.rel.endsWith('.csv')) {
        for (const row of csvParse(body))
          if (row.source) {
            expect(row.source, f.rel).toBe(SIMULATED_SOURCE);
            seen.csv += 1;
          }
        continue;
      }
      for (const [k, v] of credits(JSON.parse(body))) {
        if (v === null) continue;
        seen[k as keyof typeof seen] += 1;
        if (k === 'source') expect(v, f.rel).toBe(SIMULATED_SOURCE);
        else if (k === 'source_credit') expect(v, f.rel).toBe(SIMULATED_CREDIT);
        else expect(v, f.rel).toMatch(/^SIMULATED /);
      }
    }
    expect(seen.source).toBeGreaterThan(1_000);
    expect(seen.source_credit).toBeGreaterThan(100);
    expect(seen.history_credit).toBeGreaterThan(100);
    expect(seen.csv).toBeGreaterThan(1_000);
  });

  it('the national table as the issue asked for it, its CSV, and a county report the function layer builds', async () => {
    const national = await api<{ simulated: boolean; source_credit: string; rows: Array<Record<string, unknown>> }>(
      '/api/v1/reports/data?table=national',
    );
    expect(national.simulated).toBe(true);
    expect(national.source_credit).toBe(SIMULATED_CREDIT);
    expect(national.source_credit).not.toMatch(/EAGLE-I \(ORNL/);
    const loaded = national.rows.filter((r) => r.loaded);
    expect(loaded.length).toBeGreaterThan(5);
    for (const r of loaded) expect(r.source, String(r.year)).toBe(SIMULATED_SOURCE);
    const csv = csvParse(await (await get('/api/v1/reports/data?table=national&format=csv')).text());
    expect(csv.filter((r) => r.loaded === 'true').map((r) => r.source)).toEqual(loaded.map(() => SIMULATED_SOURCE));
    // the county tables whose rows say where they come from; the months table has no such column (its document does)
    for (const table of ['years', 'events']) {
      const doc = await api<{ rows: Array<{ year?: number; source: string | null }> }>(
        `/api/v1/reports/2024/fl/${ORANGE}/data?table=${table}`,
      );
      expect(doc.rows.filter((r) => r.source !== null).length, table).toBeGreaterThan(0);
      // every row says simulated; only a year with no history loaded has none (its figures are null)
      for (const r of doc.rows)
        if (r.source === null) expect(national.rows.find((n) => n.year === r.year)?.loaded, table).toBe(false);
        else expect(r.source, table).toBe(SIMULATED_SOURCE);
    }
    const months = await api<{ simulated: boolean }>(`/api/v1/reports/2024/fl/${ORANGE}/data?table=months`);
    expect(months.simulated).toBe(true);
  });

  it('charts drawn from the published rows credit no one, whatever flag they are drawn with', async () => {
    const national = await api<{ rows: Array<Record<string, string | number | boolean | null>> }>(
      '/api/v1/reports/data?table=national',
    );
    expect(decadeReportSpec('United States', national.rows, 2024, false).source).toMatch(/^SIMULATED /);
    const profile = await api<{ name: string; state: string; years: Parameters<typeof decadeSpec>[1] }>(
      `/api/v1/counties/${ORANGE}`,
    );
    expect(decadeSpec(profile, profile.years, false).source).toMatch(/^SIMULATED /);
  });

  it('feed entry titles carry [SIMULATED]: RSS, Atom and JSON Feed, prebuilt and filtered', async () => {
    const xml = (p: string) => new XMLParser({ ignoreAttributes: false }).parse(fs.readFileSync(p, 'utf8'));
    const rss = [xml(path.join(out, 'feeds/events.rss')).rss.channel.item].flat() as Array<{ title: string }>;
    const atom = [xml(path.join(out, 'feeds/events.atom')).feed.entry].flat() as Array<{ title: { '#text': string } }>;
    const json = JSON.parse(fs.readFileSync(path.join(out, 'feeds/events.json'), 'utf8')).items as Array<{
      title: string;
    }>;
    const filtered = (await (await get('/feeds/events.json?state=FL')).json()) as {
      items: Array<{ title: string }>;
    };
    const titles = [
      ...rss.map((i) => i.title),
      ...atom.map((e) => e.title['#text']),
      ...[...json, ...filtered.items].map((i) => i.title),
    ];
    expect(rss.length * atom.length * json.length * filtered.items.length).toBeGreaterThan(0);
    for (const t of titles) expect(t).toMatch(/^\[SIMULATED\] /);
  });
});

// ---- the site, in a real browser -------------------------------------------------------------------------------

const chromium = await findChromium();
if (!chromium.path) console.warn(`simulated-deployment (site): SKIPPED, no Chromium: ${chromium.reason}`);

/** Every site page (SITE_PATHS), filled in for Orange County, Florida. */
const PAGES = (Object.keys(SITE_PATHS) as SitePage[]).map((page) => {
  const p = sitePath(page, { fips: ORANGE, state: 'fl' });
  return { page, path: page === 'search' ? `${p}?q=Orange` : p };
});
/** A cell under one of these columns is a restoration estimate or a schedule: ahead of now by nature. */
const FUTURE_COLUMNS = /^(ETR|Next poll)$/;
const MONTH = '(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
/**
 * The times a page shows, each as an instant: ISO, "Dec 1, 2026, 10:21 PM" (the browser's zone, UTC here), "Dec 1,
 * 2026, 22:30 UTC" and "Dec 1, 22:30 UTC" (the deployment's year). A time with no date ("Updated 10:21:02 PM")
 * cannot be placed, and is not counted.
 */
function timesIn(text: string, year: number): Array<[string, number]> {
  const found: Array<[string, number]> = [];
  for (const m of text.matchAll(/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?/g))
    found.push([m[0], instantOf(m[0])!]);
  const dated = new RegExp(`\\b${MONTH} (\\d{1,2}), (?:(\\d{4}), )?(\\d{1,2}):(\\d{2})(?::\\d{2})?( [AP]M)?`, 'g');
  for (const m of text.matchAll(dated))
    found.push([m[0], Date.parse(`${m[1]} ${m[2]}, ${m[3] ?? year} ${m[4]}:${m[5]}${m[6] ?? ''} UTC`)]);
  return found;
}

/** The visible text of the page, less the cells of FUTURE_COLUMNS and the words that give an ETR. */
const visibleText = (page: Page) =>
  page.evaluate((future) => {
    const skip = new RegExp(future);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const parts: string[] = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement!;
      if (!el.checkVisibility() || el.closest('script, style')) continue;
      if (skip.test(el.closest('td')?.getAttribute('data-label') ?? '')) continue;
      if (/\bETR\b|restoration/i.test(n.textContent ?? '')) continue; // e.g. ETR changed: now Dec 3, 09:00
      parts.push(n.textContent ?? '');
    }
    return parts.join('\n');
  }, FUTURE_COLUMNS.source);

describe.skipIf(!chromium.path)('the site of a simulated deployment', () => {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium(chromium.path!);
  });
  afterAll(() => closeAll(() => browser?.close()));

  /** The page opened at the deployment's last publish (the browser's clock), in UTC, once it has filled in. */
  async function open(p: string) {
    const context = await browser!.newContext({ timezoneId: 'UTC', viewport: { width: 1200, height: 1100 } });
    const page = await context.newPage();
    await page.clock.setFixedTime(new Date(asOf));
    await page.goto(`${server!.url}${p}`);
    await page.locator('body[data-ready="true"], #map-figure[aria-busy="false"]').first().waitFor();
    return { page, close: () => context.close() };
  }

  it('shows the SIMULATED banner on every page (the embeds say SIMULATED DATA in their line)', async () => {
    for (const { page: name, path: p } of PAGES) {
      const { page, close } = await open(p);
      try {
        if (name === 'embedMap' || name === 'embedState')
          await page.waitForFunction(() => /SIMULATED DATA/.test(document.body.textContent ?? ''));
        else await page.locator('#simulated-banner:not([hidden])').waitFor();
      } finally {
        await close();
      }
    }
  });

  it('shows no time after the deployment\'s own "as of" on any page, ETRs and schedules aside', async () => {
    const year = new Date(asOf).getUTCFullYear();
    const counted = new Map<string, number>();
    for (const { page: name, path: p } of PAGES) {
      if (name === 'docs') continue; // documentation: its examples are not times anything happened
      const { page, close } = await open(p);
      try {
        if (name === 'county') await page.locator('#past-week-summary', { hasText: 'Most out at once' }).waitFor();
        // The reports tables open on their main columns: every column's times are read.
        if (name === 'reports')
          for (let b = page.getByRole('button', { name: /^Show all \d+ columns$/ }); (await b.count()) > 0; )
            await b.first().click();
        const times = timesIn(await visibleText(page), year);
        counted.set(name, times.length);
        for (const [text, t] of times) expect(t, `${p}: ${text}`).toBeLessThanOrEqual(Date.parse(asOf));
      } finally {
        await close();
      }
    }
    for (const name of ['home', 'county', 'state', 'sources', 'events', 'reports', 'embedMap'])
      expect(counted.get(name), name).toBeGreaterThan(0);
  });

  it("says Orange County's most out at once and latest archived at quarters that have begun, none after the series' generation", async () => {
    const { page, close } = await open(sitePath('county', { fips: ORANGE }));
    try {
      const summary = await page.locator('#past-week-summary', { hasText: 'Most out at once' }).textContent();
      const series = await api<{ generated_at: string }>(`/api/v1/archive/counties/${ORANGE}`);
      const said = timesIn(summary ?? '', new Date(asOf).getUTCFullYear());
      expect(said.length, summary ?? '').toBe(2); // "Most out at once (…)" and "Latest archived (…)"
      for (const [text, t] of said) {
        expect(t % (15 * 60_000), text).toBe(0); // a quarter, named by its start
        expect(t, text).toBeLessThanOrEqual(Date.parse(series.generated_at));
      }
    } finally {
      await close();
    }
  });
});
