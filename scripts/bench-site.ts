// A bench step (issue 28 part 4, "The site as a user meets it"): the map page `/`, the worst county's page and the API
// docs page, each loaded cold (a new browser context: empty cache) RUNS times in Debian's Chromium as a phone on a
// slow 4G network, as site-support.ts's simulated storm serves them. Reports the median time to the first county drawn
// with its outage data and to the page's full data (docs: to usable), and the bytes transferred; the requests of the
// median load go to bench-results/site.json beside the figures, to show what is on the critical path.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, CDPSession } from 'playwright-core';
import { findChromium } from '../pipeline/test/browser.ts';
import { startSite } from '../pipeline/test/site-support.ts';

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const RUNS = Number(process.env.BENCH_SITE_RUNS ?? 3);
type Row = { metric: string; value: string | number; target: string };

/**
 * Lighthouse's mobile "slow 4G" (core/config/constants.js, mobileSlow4G): 150 ms RTT, 1.6 Mbps down, 750 kbps up,
 * CPU 4× slower. CDP throttles per request, not per packet, so Lighthouse's DevTools throttling (and DevTools' own
 * "Slow 4G" preset) applies its adjustment factors: latency 150 × 3.75 = 562.5 ms a request, throughput × 0.9 =
 * 1,474.56 kbps down and 675 kbps up (kbit = 1,024 bits, as Lighthouse counts).
 */
const SLOW_4G = {
  offline: false,
  latency: 150 * 3.75,
  downloadThroughput: (1.6 * 1024 * 0.9 * 1024) / 8,
  uploadThroughput: (750 * 0.9 * 1024) / 8,
};
/** Lighthouse's phone: a mid-range handset runs scripts about 4× slower than the desktop it calibrates against. */
const CPU_SLOWDOWN = 4;
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
const PROFILE = `390×844 @3×, mobile, touch; Lighthouse slow 4G (562.5 ms a request, 1,474.56 / 675 kbps); CPU ${CPU_SLOWDOWN}× slower; the local server (HTTP/1.1: 6 connections)`;

/** A moment a page signals: an element that appears, or a performance mark the page sets. */
type Moment = { selector: string } | { mark: string };

/** A page and the moments it is timed to. */
interface Probe {
  label: string;
  path: string;
  /** the first county shape painted with its outage data */
  drawn?: Moment;
  /** everything the page reads on load is shown (docs: the operation list rendered) */
  full: Moment;
  fullName: 'full data' | 'usable';
  /** then a tap on `target` (as a finger would) until `done` shows: `full` is when the page answered the tap */
  tap?: { target: string; done: string };
  target: { drawn?: string; full?: string };
}

function probes(fips: string): Probe[] {
  return [
    {
      label: 'map page /',
      path: '/',
      // counties with customers out are moved into the map's `.out` group as links, each filled by its band
      drawn: { selector: '#county-map g.out path.county' },
      full: { mark: 'map-complete' }, // site/src/map/browser/main.js
      fullName: 'full data',
      target: { drawn: '≤ 2.5' },
    },
    {
      label: `county page /counties/${fips}`,
      path: `/counties/${fips}`,
      drawn: { selector: '.county-shape[class*="fill-b"]' }, // county-page.js fills it by its band
      full: { selector: 'body[data-ready="true"]' },
      fullName: 'full data',
      target: { drawn: '≤ 2.5' }, // the map page's target, applied to the county page's own map
    },
    {
      label: 'docs page /docs/',
      path: '/docs/',
      // the reference is in the page (docs-reference.ts); usable is when a tap on its first operation has opened it
      full: { selector: 'body[data-ready="true"] #reference details.op' },
      fullName: 'usable',
      tap: { target: '#reference details.op > summary', done: '#reference details.op[open]' },
      target: { full: '≤ 3' },
    },
  ];
}

interface Request {
  url: string;
  bytes: number;
  startMs: number;
  endMs: number;
}

/** Every request of the page as CDP reports it: bytes on the wire (headers included) and when it began and ended. */
function recordNetwork(cdp: CDPSession): () => Request[] {
  const open = new Map<string, { url: string; t: number }>();
  const done: Array<{ url: string; bytes: number; t0: number; t1: number }> = [];
  cdp.on('Network.requestWillBeSent', (e) => {
    if (!e.request.url.startsWith('data:')) open.set(e.requestId, { url: e.request.url, t: e.timestamp });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = open.get(e.requestId);
    if (r) done.push({ url: r.url, bytes: e.encodedDataLength, t0: r.t, t1: e.timestamp });
  });
  return () => {
    const origin = Math.min(...done.map((r) => r.t0));
    return done
      .map((r) => ({ url: r.url, bytes: r.bytes, startMs: (r.t0 - origin) * 1000, endMs: (r.t1 - origin) * 1000 }))
      .sort((a, b) => a.startMs - b.startMs);
  };
}

interface Load {
  drawnMs: number | null;
  /** when `full` showed; before the tap, for a probe with one */
  shownMs: number;
  fullMs: number;
  fcpMs: number | null;
  bytes: number;
  requests: Request[];
}

/** One cold load of the probe's page as the phone: its moments in ms from navigation start, and its requests. */
async function loadOnce(browser: Browser, base: string, probe: Probe): Promise<Load> {
  const context = await browser.newContext(PHONE);
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    const requests = recordNetwork(cdp);
    await page.goto(`${base}${probe.path}`, { waitUntil: 'commit' });
    // checked before each frame is painted: the time is that of the first frame showing the moment (a function, not
    // a string: the pages' CSP allows no eval)
    const when = (moment: Moment) =>
      page
        .waitForFunction(
          (m) =>
            ('mark' in m ? performance.getEntriesByName(m.mark).length > 0 : document.querySelector(m.selector))
              ? performance.now()
              : 0,
          moment,
          { polling: 'raf', timeout: 60_000 },
        )
        .then((h) => h.jsonValue());
    const [drawnMs, shownMs] = await Promise.all([probe.drawn ? when(probe.drawn) : null, when(probe.full)]);
    let fullMs = shownMs;
    if (probe.tap) {
      await page.locator(probe.tap.target).first().tap({ timeout: 60_000 });
      fullMs = await when({ selector: probe.tap.done });
    }
    const fcpMs = await page.evaluate(
      () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
    );
    const list = requests();
    return { drawnMs, shownMs, fullMs, fcpMs, bytes: list.reduce((n, r) => n + r.bytes, 0), requests: list };
  } finally {
    await context.close();
  }
}

/** The load whose full-data time is the median of the runs. */
const medianLoad = (loads: Load[]) => [...loads].sort((a, b) => a.fullMs - b.fullMs)[Math.floor(loads.length / 2)];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const seconds = (ms: number) => (ms / 1000).toFixed(2);

function rowsOf(probe: Probe, loads: Load[]): Row[] {
  const runs = (pick: (l: Load) => number) => `median of ${loads.map((l) => seconds(pick(l))).join(' ')}`;
  const rows: Row[] = [];
  if (probe.drawn) {
    const drawn = (l: Load) => l.drawnMs!;
    const value = seconds(median(loads.map(drawn)));
    rows.push({ metric: `${probe.label}: first county drawn (s, ${runs(drawn)})`, value, target: probe.target.drawn! });
  }
  const full = (l: Load) => l.fullMs;
  rows.push({
    metric: `${probe.label}: ${probe.fullName} (s, ${runs(full)})`,
    value: seconds(median(loads.map(full))),
    target: probe.target.full ?? '',
  });
  rows.push({
    metric: `${probe.label}: bytes transferred until ${probe.fullName} (KB on the wire, median)`,
    value: Math.round(median(loads.map((l) => l.bytes)) / 1024),
    target: '',
  });
  return rows;
}

/** The median load's requests, for the record: where its time went. */
function profileOf(probe: Probe, base: string, load: Load) {
  const requests = load.requests.map((r) => ({
    url: r.url.replace(base, ''),
    kb: Math.round(r.bytes / 102.4) / 10,
    start_ms: Math.round(r.startMs),
    end_ms: Math.round(r.endMs),
  }));
  const ms = (t: number | null) => (t === null ? null : Math.round(t));
  const moments = {
    fcp_ms: ms(load.fcpMs),
    drawn_ms: ms(load.drawnMs),
    shown_ms: ms(load.shownMs),
    full_ms: ms(load.fullMs),
  };
  return { page: probe.label, ...moments, requests };
}

async function benchSite(chromium: string): Promise<{ rows: Row[]; profiles: unknown[] }> {
  const site = await startSite('bench-site', chromium);
  try {
    const map = await site.api<Record<string, [number, number | null, number, number, number]>>('/api/v1/live/map');
    const [fips] = Object.entries(map)
      .filter(([k, e]) => /^\d{5}$/.test(k) && e[1] !== null && e[3] >= 0)
      .sort((a, b) => b[1][0] - a[1][0])[0];
    const rows: Row[] = [{ metric: 'phone and network', value: PROFILE, target: '' }];
    const profiles = [];
    for (const probe of probes(fips)) {
      const loads: Load[] = [];
      for (let i = 0; i < RUNS; i++) loads.push(await loadOnce(site.browser, site.url, probe));
      rows.push(...rowsOf(probe, loads));
      profiles.push(profileOf(probe, site.url, medianLoad(loads)));
    }
    return { rows, profiles };
  } finally {
    await site.close();
  }
}

const chromium = await findChromium();
const { rows, profiles } = chromium.path
  ? await benchSite(chromium.path)
  : { rows: [{ metric: 'the site on a phone', value: `not measured: ${chromium.reason}`, target: '' }], profiles: [] };
console.table(rows);
fs.mkdirSync(path.join(ROOT, 'bench-results'), { recursive: true });
const doc = { at: new Date().toISOString(), node: process.version, cpus: os.cpus().length, rows, profiles };
fs.writeFileSync(path.join(ROOT, 'bench-results', 'site.json'), JSON.stringify(doc, null, 2));
console.log('written to bench-results/site.json');
