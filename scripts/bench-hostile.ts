// `npm run bench` step (issue 24): one cold cycle of the simulated sources alone, then one beside a hostile ArcGIS row
// (~20 MB pages that always say exceededTransferLimit: true), each in a child process of its own so its peak RSS is
// its own. Reports both peaks and cycle times, the hostile row's failure, and whether every other source published.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { manualClock } from '../pipeline/src/clock.ts';
import { tuneHeap } from '../pipeline/src/heap.ts';
import { Pipeline } from '../pipeline/src/pipeline.ts';
import { LOOPBACK_HTTP } from '../pipeline/src/sources/http.ts';
import { loadRegistry } from '../pipeline/src/registry/registry.ts';
import { startSimulatorProcess } from './sim-process.ts';

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const SELF = fileURLToPath(import.meta.url);
const T0 = new Date('2026-09-01T08:00:00Z');
const SOURCES = Number(process.env.BENCH_HOSTILE_SOURCES ?? 200);

interface CycleFigures {
  ms: number;
  peakRssMb: number;
  ok: number;
  failed: number;
  hostile: { reason: string; message: string } | null;
}

/** Child mode: one cold cycle of `registry` into `dir`, its figures printed as one JSON line. */
async function runCycle(registry: string, dir: string): Promise<void> {
  tuneHeap(); // the heap sizing `outage` runs with (bin/outage.js)
  const { sources } = loadRegistry(registry);
  const clock = manualClock(T0);
  const p = await Pipeline.open({
    stateDir: path.join(dir, 'state'),
    outDir: path.join(dir, 'public'),
    sources,
    clock,
    simulated: true,
    http: LOOPBACK_HTTP,
  });
  const t = performance.now();
  const s = await p.cycle({ all: true });
  const ms = Math.round(performance.now() - t);
  await p.close();
  const hostile = s.failures.find((f) => f.source === 'hostile-arcgis') ?? null;
  const others = s.failures.filter((f) => f.source !== 'hostile-arcgis');
  const figures: CycleFigures = {
    ms,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    ok: s.ok,
    failed: others.length,
    hostile: hostile && { reason: hostile.reason, message: hostile.message },
  };
  console.log(JSON.stringify(figures));
}

/** The peak RSS the kernel recorded for `pid` (VmHWM, Linux), in MB; null elsewhere or once it exited. */
function peakRssOf(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/**
 * Runs this script in child mode and reads its figures. A child that dies (the heap limit, before the budgets) is
 * reported with the peak RSS sampled from outside and how it ended, not as a bench failure.
 */
async function child(
  registry: string,
  dir: string,
): Promise<CycleFigures | { died: string; peakRssMb: number | null }> {
  const t = performance.now();
  // Its stderr (a dying heap's stack dump) only with BENCH_VERBOSE=1.
  const proc = spawn(process.execPath, [...process.execArgv, SELF, 'cycle', registry, dir], {
    stdio: ['ignore', 'pipe', process.env.BENCH_VERBOSE ? 'inherit' : 'ignore'],
  });
  let peak: number | null = null;
  const sampler = setInterval(() => {
    const now = peakRssOf(proc.pid!);
    if (now !== null) peak = Math.max(peak ?? 0, now);
  }, 100);
  const exited = new Promise<string>((r) => proc.once('exit', (code, signal) => r(signal ?? `exit code ${code}`)));
  let last = '';
  for await (const line of readline.createInterface({ input: proc.stdout })) if (line.startsWith('{')) last = line;
  const how = await exited;
  clearInterval(sampler);
  if (last) return JSON.parse(last) as CycleFigures;
  return { died: `${how} after ${Math.round(performance.now() - t)} ms`, peakRssMb: peak };
}

/** The hostile upstream in a child process of its own; resolves with its layer URL. */
async function startHostile(): Promise<{ url: string; stop: () => void }> {
  const proc = spawn(process.execPath, [...process.execArgv, path.join(ROOT, 'scripts', 'hostile-arcgis.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: proc.stdout }).once('line', resolve);
    proc.once('exit', (code) => reject(new Error(`The hostile upstream exited (code ${code}) before it listened`)));
  });
  return { url: (JSON.parse(line) as { url: string }).url, stop: () => proc.kill('SIGTERM') };
}

async function main(): Promise<void> {
  fs.mkdirSync(path.join(ROOT, 'bench-results'), { recursive: true });
  const dir = fs.mkdtempSync(path.join(ROOT, 'bench-results', 'hostile-'));
  const registry = path.join(dir, 'sources.csv');
  const sim = await startSimulatorProcess({ registry, now: T0, simSources: SOURCES, areas: 6, seed: 1 });
  const hostile = await startHostile().catch(async (err: unknown) => {
    await sim.stop();
    throw err;
  });
  try {
    const withHostile = path.join(dir, 'with-hostile.csv');
    const row = `hostile-arcgis,Hostile ArcGIS,FL,arcgis,${hostile.url},10,1,"{""mode"":""incidents""}",`;
    fs.writeFileSync(withHostile, `${fs.readFileSync(registry, 'utf8').trimEnd()}\n${row}\n`);
    const base = await child(registry, path.join(dir, 'baseline'));
    const hard = await child(withHostile, path.join(dir, 'hostile'));
    report(base, hard);
  } finally {
    hostile.stop();
    await sim.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

type Run = Awaited<ReturnType<typeof child>>;

function report(base: Run, hard: Run): void {
  const fig = (r: Run, f: (c: CycleFigures) => string | number) => ('died' in r ? `died: ${r.died}` : f(r));
  const rows = [
    {
      metric: 'hostile ArcGIS: simulated sources polled beside it',
      value: fig(base, (c) => c.ok + c.failed),
      target: '',
    },
    {
      metric: 'hostile ArcGIS: peak RSS, cycle without / with the row (MB)',
      value: `${base.peakRssMb} / ${hard.peakRssMb}`,
      target: '',
    },
    {
      metric: 'hostile ArcGIS: peak RSS of the cycle with the row (MB)',
      value: hard.peakRssMb ?? '?',
      target: '≤ 600',
    },
    {
      metric: 'hostile ArcGIS: cycle time without / with the row (ms)',
      value: `${fig(base, (c) => c.ms)} / ${fig(hard, (c) => c.ms)}`,
      target: '',
    },
    {
      metric: 'hostile ArcGIS: other sources failed in the cycle with the row',
      value: fig(hard, (c) => c.failed),
      target: '0',
    },
    {
      metric: 'hostile ArcGIS: the row failed as',
      value: fig(hard, (c) => (c.hostile ? `${c.hostile.reason}: ${c.hostile.message}` : 'ok (not failed)')),
      target: '',
    },
  ];
  console.table(rows);
  const at = new Date().toISOString();
  fs.writeFileSync(
    path.join(ROOT, 'bench-results', 'hostile.json'),
    JSON.stringify({ at, node: process.version, cpus: os.cpus().length, rows }, null, 2),
  );
  console.log('written to bench-results/hostile.json');
}

if (process.argv[2] === 'cycle') await runCycle(process.argv[3], process.argv[4]);
else await main();
