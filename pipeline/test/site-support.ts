// The site's browser tests share this: one simulated storm → pipeline cycles → the local server → Debian's
// Chromium, a page that records console errors, axe-core's check and the screenshots people look at.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { manualClock } from '../src/clock.ts';
import { coverageFor } from '../src/coverage/document.ts';
import { Simulator } from '../src/simulator/server.ts';
import { parseRegistry } from '../src/registry/registry.ts';
import { Pipeline } from '../src/pipeline.ts';
import { LOOPBACK_HTTP } from '../src/sources/http.ts';
import { startServer } from '../src/serve/server.ts';
import { closeAll, makeTempDir, removeTempDir } from './clean-machine.ts';
import { launchChromium } from './browser.ts';

export const T0 = new Date('2026-09-01T04:00:00Z');
/** Screenshots for people to look at: test-results/ at the repository root. */
export const RESULTS_DIR = fileURLToPath(new URL('../../test-results/', import.meta.url));
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
/** The shipped registry, whose coverage the simulated deployment publishes (as `outage start` does). */
const SHIPPED = fileURLToPath(new URL('../../data/sources.csv', import.meta.url));

export interface Site {
  url: string;
  clock: ReturnType<typeof manualClock>;
  pipeline: Pipeline;
  browser: Browser;
  api<T>(p: string): Promise<T>;
  close(): Promise<void>;
}

/** A storm `cycles` half-hours long, published and served, and a browser. */
export async function startSite(label: string, chromium: string, cycles = 2): Promise<Site> {
  const dir = makeTempDir(label);
  const clock = manualClock(T0);
  const sim = new Simulator({
    clock,
    seed: 1,
    epoch: new Date('2026-09-01T00:00:00Z'),
    sources: 10,
    areasPerCounty: 2,
  });
  let pipeline: Pipeline | undefined;
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let browser: Browser | undefined;
  const close = () =>
    closeAll(
      () => browser?.close(),
      () => server?.close(),
      () => pipeline?.close(),
      () => sim.stop(),
      () => removeTempDir(dir),
    );
  try {
    await sim.start();
    pipeline = await Pipeline.open({
      stateDir: path.join(dir, 'state'),
      outDir: path.join(dir, 'public'),
      sources: parseRegistry(sim.registryCsv()).sources,
      clock,
      simulated: true,
      http: LOOPBACK_HTTP,
      coverage: coverageFor(SHIPPED, { simulated: true }),
    });
    for (let i = 0; i < cycles; i++) {
      if (i) clock.advance(30 * 60_000);
      await pipeline.cycle({ all: true });
    }
    server = await startServer({ outDir: path.join(dir, 'public'), port: 0 });
    browser = await launchChromium(chromium);
  } catch (err) {
    await close();
    throw err;
  }
  const url = server.url;
  const api = async <T>(p: string) => ((await (await fetch(`${url}${p}`)).json()) as { data: T }).data;
  return { url, clock, pipeline, browser, api, close };
}

/**
 * A page that records console errors and uncaught exceptions. A 404 is allowed only from the URLs `allow404`
 * matches: documents this deployment does not publish (no history loaded), which the page must then explain.
 */
export async function watchedPage(site: Site, allow404: RegExp | null = null) {
  const page = await site.browser.newPage({ viewport: { width: 1100, height: 1250 } });
  const problems: string[] = [];
  const allowed = new Set<string>();
  page.on('response', (r) => {
    if (r.status() === 404 && allow404?.test(new URL(r.url()).pathname)) allowed.add(r.url());
  });
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    if (/status of 404/.test(m.text()) && allowed.has(m.location().url)) return;
    problems.push(`${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => problems.push(e.message));
  return { page, problems };
}

/** axe-core's serious and critical violations on the page as it is now (WCAG 2 A and AA rules, contrast included). */
interface AxeResult {
  violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: string[] }> }>;
}

export async function axeViolations(page: Page): Promise<string[]> {
  // through DevTools, not a <script> tag: the pages' CSP allows no inline script, and must not be bypassed here
  await page.evaluate(fs.readFileSync(AXE, 'utf8'));
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(c: unknown, o: unknown): Promise<AxeResult> } }).axe;
    const r = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa'] } });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
    }));
  });
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.join(', ')}`);
}

export function saveScreenshot(png: Buffer, name: string): string {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, name);
  fs.writeFileSync(file, png);
  return file;
}
