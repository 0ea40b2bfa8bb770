// Time to first map (issue #13): from spawning `outage start` (what `npm start` runs) on an empty state to the live map
// drawn in Chromium, on a first start (history included) and on a later start over the same state. Also the process's
// peak RSS on the first start. Runnable alone (`tsx scripts/bench-first-map.ts`) or from `npm run bench`.
// BENCH_FIRST_MAP_POLL=browser waits for the server by reloading in Chromium (the old way; it takes CPU from the start
// being timed) instead of a plain HTTP request; BENCH_FIRST_MAP_LATER_RUNS=N reports the median of N later starts.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { findChromium, launchChromium } from '../pipeline/test/browser.ts';

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const PORT = Number(process.env.BENCH_FIRST_MAP_PORT ?? 8797);
/** Later starts to time (the median is reported): one on a quiet machine; more when others share it. */
const LATER_RUNS = Math.max(1, Number(process.env.BENCH_FIRST_MAP_LATER_RUNS ?? 1));
type Row = { metric: string; value: string | number; target: string };

/** `outage start` on `dir`; resolves with the child once its report publish line is logged (or it exits). */
function startOutage(dir: string): { child: ChildProcess; settled: Promise<string> } {
  const args = ['bin/outage.js', 'start', '--state', path.join(dir, 'state'), '--out', path.join(dir, 'public')];
  const child = spawn(process.execPath, [...args, '--port', String(PORT)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const settled = new Promise<string>((resolve) => {
    const watch = (d: Buffer) => {
      const line = /report tables (published|not published).*/.exec(String(d));
      if (line) resolve(line[0]);
    };
    child.stdout!.on('data', watch);
    child.stderr!.on('data', watch);
    child.on('exit', () => resolve('exited'));
  });
  return { child, settled };
}

/**
 * How the bench waits for the server: `http` (default) polls `/` with a plain request every 100 ms, then the browser
 * (its page opened before the start) loads it once; `browser` retries the navigation itself every 100 ms, as the
 * first version of this bench did. On 2 cores that retry loop (a new error page each time) takes CPU from the start
 * it times: a user opens the page once.
 */
const POLL = process.env.BENCH_FIRST_MAP_POLL === 'browser' ? 'browser' : 'http';
const URL_ROOT = `http://127.0.0.1:${PORT}/`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves once `/` answers 200 (plain HTTP, no browser). */
async function serverUp(t0: number): Promise<void> {
  for (;;) {
    const ok = await fetch(URL_ROOT, { signal: AbortSignal.timeout(5_000) })
      .then(async (r) => {
        await r.arrayBuffer();
        return r.ok;
      })
      .catch(() => false);
    if (ok) return;
    if (performance.now() - t0 > 300_000) throw new Error('no server after 300 s');
    await sleep(100);
  }
}

/** Milliseconds from `t0` until the map on `/` has drawn in `page`. */
async function timeToMap(page: Page, t0: number): Promise<number> {
  if (POLL === 'http') await serverUp(t0);
  for (;;) {
    const ok = await page
      .goto(URL_ROOT, { timeout: 5_000 })
      .then((r) => r?.ok() ?? false)
      .catch(() => false);
    if (ok) {
      if (process.env.BENCH_TRACE) console.error('page loaded', Math.round(performance.now() - t0));
      break;
    }
    if (performance.now() - t0 > 300_000) throw new Error('no map after 300 s');
    await sleep(100);
  }
  // The page waits for the live map when the tree is not published yet; the figure is busy until it is drawn.
  await page.locator('#map-figure[aria-busy="false"]').waitFor({ timeout: 300_000 });
  return performance.now() - t0;
}

/** The milliseconds of start's "report tables published: … · N ms" line (NaN when it did not publish). */
const reportMs = (line: string): number => Number(/· (\d+) ms/.exec(line)?.[1] ?? Number.NaN);

/** Stops `outage start` the way Ctrl-C does and waits for it to exit. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}

/** The process's peak resident set (VmHWM) in MB, from /proc. */
function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : Number.NaN;
}

/** One start: time to the drawn map; on a first start, also until history and the report tables are published. */
async function run(browser: Browser, dir: string, first: boolean) {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const t0 = performance.now();
  const { child, settled } = startOutage(dir);
  try {
    const ms = await timeToMap(page, t0);
    const reports = first ? await settled : '';
    return { ms, settledMs: performance.now() - t0, rss: peakRssMb(child.pid!), reports };
  } finally {
    await page.close();
    await stop(child);
  }
}

export async function benchFirstMap(): Promise<Row[]> {
  const chromium = await findChromium();
  if (!chromium.path) return [{ metric: 'time to first map', value: `not measured: ${chromium.reason}`, target: '' }];
  fs.mkdirSync(path.join(ROOT, 'bench-results'), { recursive: true });
  const dir = fs.mkdtempSync(path.join(ROOT, 'bench-results', 'first-map-'));
  const browser = await launchChromium(chromium.path);
  try {
    const first = await run(browser, dir, true);
    const laters: number[] = [];
    for (let i = 0; i < LATER_RUNS; i++) laters.push((await run(browser, dir, false)).ms);
    const later = { ms: [...laters].sort((a, b) => a - b)[Math.floor((laters.length - 1) / 2)] };
    const s = (ms: number) => (ms / 1000).toFixed(1);
    return [
      { metric: 'waiting for the server by', value: POLL, target: '' },
      { metric: 'time to first map, first start (s)', value: s(first.ms), target: '≤ 30' },
      { metric: 'first start: history imported and reports published (s)', value: s(first.settledMs), target: '' },
      { metric: 'first start: peak RSS (MB)', value: first.rss, target: '≤ 1024' },
      {
        metric: 'first start: report tree publish (files / ms)',
        value: first.reports.replace(/^.*?([\d,]+) files written.*?· (\d+) ms.*$/, '$1 / $2'),
        target: '',
      },
      { metric: 'first start: report tree publish (s)', value: s(reportMs(first.reports)), target: '≤ 15' },
      {
        metric: `time to first map, later start (s${LATER_RUNS > 1 ? `, median of ${laters.map(s).join(' ')}` : ''})`,
        value: s(later.ms),
        target: '≤ 5',
      },
    ];
  } finally {
    await browser.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(await benchFirstMap());
