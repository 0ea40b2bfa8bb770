// A bench step (issue "Performance, next step", part 1): the command's start time and baseline memory, run from the
// build (dist/, `npm run build`) and from the TypeScript sources through tsx. Measures `outage --help` (module loading
// only) and `outage start --no-history` (the simulator, the first cycle and the server: the time until it prints its
// URL, and the process's RSS once it serves). Writes bench-results/start.json.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_START_RUNS ?? 3);
const RUNTIMES = {
  build: ['dist/outage.js'],
  tsx: ['--import', 'tsx', 'pipeline/src/cli/main.ts'],
} as const;
type Runtime = keyof typeof RUNTIMES;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

function helpMs(runtime: Runtime): number {
  const t = performance.now();
  const r = spawnSync(process.execPath, [...RUNTIMES[runtime], '--help'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`outage --help (${runtime}) failed: ${r.stderr}`);
  return performance.now() - t;
}

/** `outage start` until its URL is printed; then its RSS after the server answered the map. */
async function startOnce(runtime: Runtime, port: number): Promise<{ urlMs: number; rss: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-start-'));
  const args = [...RUNTIMES[runtime], 'start', '--no-history', '--port', String(port)];
  const child = spawn(process.execPath, [...args, '--out', `${dir}/public`, '--state', `${dir}/state`], { cwd: ROOT });
  const t = performance.now();
  try {
    const urlMs = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (b) => {
        out += b;
        if (out.includes('is running at')) resolve(performance.now() - t);
      });
      child.once('exit', (code) => reject(new Error(`outage start (${runtime}) exited ${code} before its URL`)));
    });
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/live/map`);
    await res.arrayBuffer();
    return { urlMs, rss: rssMb(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function measure(runtime: Runtime, port: number) {
  const help = median(Array.from({ length: RUNS }, () => helpMs(runtime)));
  const starts = [];
  for (let i = 0; i < RUNS; i++) starts.push(await startOnce(runtime, port));
  return { help, url: median(starts.map((s) => s.urlMs)), rss: median(starts.map((s) => s.rss)) };
}

const built = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
if (built.status !== 0) throw new Error(`npm run build failed: ${built.stderr}`);
const build = await measure('build', 18931);
const tsx = await measure('tsx', 18932);
const fmt = (a: number, b: number, digits = 0) => `${a.toFixed(digits)} / ${b.toFixed(digits)}`;
const rows = [
  { metric: 'outage --help, build / tsx (ms, median)', value: fmt(build.help, tsx.help), target: '' },
  { metric: 'outage --help from the build (ms)', value: Math.round(build.help), target: '≤ 500' },
  { metric: 'outage start: URL printed, build / tsx (ms, median)', value: fmt(build.url, tsx.url), target: '' },
  {
    metric: 'outage start: RSS serving after the first cycle, build / tsx (MB)',
    value: fmt(build.rss, tsx.rss),
    target: '',
  },
  { metric: 'outage start: RSS from the build (MB)', value: Math.round(build.rss), target: '≤ 512' },
];
console.table(rows);
fs.mkdirSync(path.join(ROOT, 'bench-results'), { recursive: true });
const doc = { at: new Date().toISOString(), node: process.version, cpus: os.cpus().length, rows };
fs.writeFileSync(path.join(ROOT, 'bench-results', 'start.json'), JSON.stringify(doc, null, 2));
console.log('written to bench-results/start.json');
