// `npm run bench`: the live core at national scale, then the function layer, archive, connectors and charts. The
// national step (bench-poller.ts: the pipeline's cycles and the bytes on the wire of its tree) runs first, built, in
// a process of its own (scripts/run-built.mjs): its time and peak RSS are the deployment's poller's, not those of
// this process, which runs through tsx and holds the other steps. Prints a table, writes bench-results/live.json.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArchive } from './bench-archive.ts';
import { benchArchiveYear } from './bench-archive-year.ts';
import { benchCountyDetail } from './bench-county-detail.ts';
import { benchEvents } from './bench-events.ts';
import { benchRegistry } from './bench-registry.ts';
import { benchConnectors } from './bench-connectors.ts';
import { benchCharts } from './bench-charts.ts';
import { benchFirstMap } from './bench-first-map.ts';
import { stormTable } from './bench-storms.ts';

type Row = { metric: string; value: string | number; target: string };
const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));

// The storm sizes (× today's), each in a process of its own; 1× last, so poller.json holds today's storm.
const STORMS = (process.env.BENCH_STORMS ?? '3,2,1').split(',').map(Number);
for (const k of STORMS)
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/run-built.mjs'), 'scripts/bench-poller.ts'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, BENCH_STORM: String(k), UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE ?? '16' },
  });
const { rows, failures } = JSON.parse(fs.readFileSync(path.join(ROOT, 'bench-results', 'poller.json'), 'utf8')) as {
  rows: Row[];
  failures: unknown[];
};
const bySize = stormTable(STORMS);
console.table(bySize);
rows.push(...(await benchEvents()));
rows.push(...(await benchRegistry()));
rows.push(...(await benchCountyDetail()));
rows.push(...(await benchArchive()));
rows.push(...(await benchArchiveYear()));
for (const c of await benchConnectors())
  rows.push({
    metric: `connector ${c.connector} (${c.payload}, ${c.bytes} B): parse+normalise / JSON.parse`,
    value: `${c.ratio.toFixed(2)}×`,
    target: '≤ 1.5×',
  });
for (const c of await benchCharts())
  rows.push({
    metric: `chart ${c.chart}: median / p90 / CPU median (ms, ${c.renders} renders)`,
    value: `${c.median_ms} / ${c.p90_ms} / ${c.cpu_median_ms}`,
    target: c.target,
  });
rows.push(...(await benchFirstMap()));
console.table(rows);
fs.mkdirSync(path.join(ROOT, 'bench-results'), { recursive: true });
fs.writeFileSync(
  path.join(ROOT, 'bench-results', 'live.json'),
  JSON.stringify(
    {
      at: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      rows,
      storms: bySize,
      failures,
    },
    null,
    2,
  ),
);
console.log(`written to bench-results/live.json`);
