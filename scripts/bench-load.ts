// A bench step (issue "Performance, next step", part 5): the function layer under load, as autocannon measures it. A
// simulated storm is polled for an hour of quarter hours (outages, events and archived quarters), then the local
// server answers filtered county incidents, filtered events and the past map to CONNECTIONS concurrent clients for
// SECONDS each: requests per second, p50 and p99 latency, non-2xx answers. Writes bench-results/load.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { manualClock } from '../pipeline/src/clock.ts';
import { Pipeline } from '../pipeline/src/pipeline.ts';
import { startServer } from '../pipeline/src/serve/server.ts';
import { Simulator } from '../pipeline/src/simulator/server.ts';
import { LOOPBACK_HTTP } from '../pipeline/src/sources/http.ts';
import { parseRegistry } from '../pipeline/src/registry/registry.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const CONNECTIONS = Number(process.env.BENCH_LOAD_CONNECTIONS ?? 16);
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
const T0 = new Date('2026-09-01T08:00:00Z');
type Row = { metric: string; value: string | number; target: string };

/** An hour of a 200-source storm, a cycle each quarter hour: the published tree and the worst county. */
async function storm(dir: string): Promise<{ worst: string; state: string }> {
  const clock = manualClock(T0);
  const sim = new Simulator({ clock, seed: 1, epoch: new Date('2026-09-01T00:00:00Z'), sources: 200 });
  await sim.start();
  const pipeline = await Pipeline.open({
    ...{ stateDir: path.join(dir, 'state'), outDir: path.join(dir, 'public') },
    ...{ sources: parseRegistry(sim.registryCsv()).sources, clock, simulated: true, http: LOOPBACK_HTTP },
  });
  try {
    for (let q = 0; q < 5; q++) {
      if (q) clock.advance(15 * 60_000);
      await pipeline.cycle({ all: true });
    }
    const [top] = await pipeline.db.all<{ fips: string }>(
      'SELECT fips FROM obs_incident GROUP BY fips ORDER BY count(*) DESC LIMIT 1',
    );
    const [st] = await pipeline.db.all<{ state: string }>(
      'SELECT state FROM events WHERE state IS NOT NULL GROUP BY state ORDER BY count(*) DESC LIMIT 1',
    );
    return { worst: top.fips, state: st.state.split(';')[0] };
  } finally {
    await pipeline.close();
    await sim.stop();
  }
}

async function load(url: string): Promise<{ rps: number; p50: number; p99: number; bad: number }> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, bad: r.non2xx + r.errors + r.timeouts };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-load-'));
const rows: Row[] = [];
try {
  const { worst, state } = await storm(dir);
  const server = await startServer({ outDir: path.join(dir, 'public'), port: 0 });
  try {
    const asks = {
      'filtered county incidents': `/api/v1/live/counties/${worst}/incidents?min_customers=5&limit=50`,
      'filtered events': `/api/v1/events?state=${state}&kind=outage_began&limit=50`,
      'past map': `/api/v1/archive/map?at=${new Date(T0.getTime() + 30 * 60_000).toISOString()}`,
    };
    for (const [name, p] of Object.entries(asks)) {
      const r = await load(`${server.url}${p}`);
      const label = `${name} under load (${CONNECTIONS} connections, ${SECONDS} s)`;
      rows.push(
        { metric: `${label}: requests/s`, value: Math.round(r.rps), target: '' },
        { metric: `${label}: p50 / p99 (ms)`, value: `${r.p50} / ${r.p99}`, target: 'p99 ≤ 200' },
        { metric: `${label}: answers not 2xx, errors, timeouts`, value: r.bad, target: '0' },
      );
    }
  } finally {
    await server.close();
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
console.table(rows);
fs.mkdirSync(path.join(ROOT, 'bench-results'), { recursive: true });
const doc = { at: new Date().toISOString(), node: process.version, cpus: os.cpus().length, rows };
fs.writeFileSync(path.join(ROOT, 'bench-results', 'load.json'), JSON.stringify(doc, null, 2));
console.log('written to bench-results/load.json');
