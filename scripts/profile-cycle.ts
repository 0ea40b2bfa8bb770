// `tsx scripts/profile-cycle.ts [unchanged|storm]`: a CPU profile of one national cycle (the bench's simulator, in its
// own process), written to bench-results/cycle-<kind>.cpuprofile (open it in Chrome DevTools), and its top functions
// by self time printed. Maintenance tool behind issue #12's profile; BENCH_SOURCES as in the bench.
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { manualClock } from '../pipeline/src/clock.ts';
import { Pipeline } from '../pipeline/src/pipeline.ts';
import { LOOPBACK_HTTP } from '../pipeline/src/sources/http.ts';
import { loadRegistry } from '../pipeline/src/registry/registry.ts';
import { startSimulatorProcess } from './sim-process.ts';
import { tuneHeap } from '../pipeline/src/heap.ts';

// The heap sizing `outage` runs with (bin/outage.js), so the figures are the deployment's.
tuneHeap();

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const T0 = new Date('2026-09-01T08:00:00Z');
const kind = process.argv[2] === 'storm' ? 'storm' : 'unchanged';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The top `n` functions by self time: name, file:line, milliseconds. */
function topSelf(p: Profile, n: number): Array<{ ms: number; fn: string; at: string }> {
  const self = new Map<number, number>();
  for (const [i, id] of p.samples.entries()) self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0));
  const byFrame = new Map<string, { ms: number; fn: string; at: string }>();
  for (const node of p.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const at = `${url.replace(/^.*\/(node_modules|pipeline)\//, '$1/')}:${lineNumber + 1}`;
    const key = `${functionName}@${at}`;
    const row = byFrame.get(key) ?? { ms: 0, fn: functionName || '(anonymous)', at };
    row.ms += (self.get(node.id) ?? 0) / 1000;
    byFrame.set(key, row);
  }
  return [...byFrame.values()]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, n)
    .map((r) => ({ ...r, ms: Math.round(r.ms) }));
}

fs.mkdirSync(path.join(ROOT, 'bench-results'), { recursive: true });
const dir = fs.mkdtempSync(path.join(ROOT, 'bench-results', 'profile-'));
const sim = await startSimulatorProcess({
  registry: path.join(dir, 'sources.csv'),
  now: T0,
  simSources: Number(process.env.BENCH_SOURCES ?? 1000),
  areas: 30,
  seed: 1,
  incidentSize: 10,
  incidentCap: 1500,
});
const session = new Session();
try {
  const clock = manualClock(T0);
  const pipeline = await Pipeline.open({
    stateDir: path.join(dir, 'state'),
    outDir: path.join(dir, 'public'),
    sources: loadRegistry(sim.registry).sources,
    clock,
    simulated: true,
    http: LOOPBACK_HTTP,
  });
  const first = await pipeline.cycle({ all: true });
  // A source that failed the first cycle (a busy machine: deadlines) is read in full by the profiled one.
  if (first.failed) console.warn(`${first.failed} sources failed the first cycle; the profiled cycle reads them whole`);
  clock.advance(kind === 'storm' ? 30 * 60_000 : 60_000);
  if (kind === 'storm') await sim.move(clock());
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  const s = await pipeline.cycle({ all: true });
  const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
  const [{ n }] = await pipeline.db.all<{ n: number }>(
    'SELECT sum(http_requests)::INT AS n FROM polls WHERE polled_at = ?',
    [clock().toISOString()],
  );
  const mem = process.memoryUsage();
  const mb = (b: number) => Math.round(b / 1e6);
  console.log(
    `HTTP requests in the cycle: ${n}; memory after: rss ${mb(mem.rss)} MB, JS heap ${mb(mem.heapUsed)} MB, external ${mb(mem.external)} MB (array buffers ${mb(mem.arrayBuffers)} MB), peak RSS ${mb(process.resourceUsage().maxRSS * 1024)} MB`,
  );
  await pipeline.close();
  const file = path.join(ROOT, 'bench-results', `cycle-${kind}.cpuprofile`);
  fs.writeFileSync(file, JSON.stringify(profile));
  console.log(
    `${kind} cycle: ${s.ms} ms (poll ${s.phases.poll} / store ${s.phases.store} / publish ${s.phases.publish}), ${s.changed} changed, ${s.failed} failed, ${s.publish.written} files written; profile: ${path.relative(ROOT, file)}`,
  );
  console.table(topSelf(profile, 25));
} finally {
  session.disconnect();
  await sim.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
