// The national step of `npm run bench` (scripts/bench.ts runs it first): the live core at national scale, as plain
// JavaScript the way production runs it (scripts/run-built.mjs), in a process of its own, so its peak RSS is the
// poller's. The simulator runs in its own process (frozen clock), the pipeline here: full cycle (cold), storm cycle,
// unchanged cycle, files rewritten, peak RSS; then the bytes on the wire of the tree it published (bench-wire.ts).
// Prints its table and writes bench-results/poller.json ({rows, failures, size}) for bench.ts. BENCH_STORM=k runs a storm
// k times today's (the simulator's --storm-scale: about k× the counties out, k× the areas listed) into
// bench-results/poller-k.json; BENCH_PROFILE=1 profiles the storm cycle (bench-results/storm-k.cpuprofile).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { manualClock } from '../pipeline/src/clock.ts';
import { loadRegistry } from '../pipeline/src/registry/registry.ts';
import { Pipeline } from '../pipeline/src/pipeline.ts';
import { LOOPBACK_HTTP } from '../pipeline/src/sources/http.ts';
import { readManifest } from '../pipeline/src/publish/tree-parts.ts';
import { startSimulatorProcess } from './sim-process.ts';
import { benchWire } from './bench-wire.ts';
import { tuneHeap } from '../pipeline/src/heap.ts';
import { profiled, type ProfileLine } from './cpu-profile.ts';
import { INCIDENT_EVENT_MIN } from '../pipeline/src/state/lifecycle.ts';

// The heap sizing `outage` runs with (bin/outage.js), so the figures are the deployment's.
tuneHeap();

/** This process's peak resident set so far (MB): the kernel's high-water mark, never lowered. */
const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const T0 = new Date('2026-09-01T08:00:00Z');
const SOURCES = Number(process.env.BENCH_SOURCES ?? 1000);
const STORM = Number(process.env.BENCH_STORM ?? 1);
const AREAS = Number(process.env.BENCH_AREAS ?? 30) * STORM;
const PROFILE = process.env.BENCH_PROFILE === '1';

// Work inside the repository (gitignored): the same disk a deployment's checkout uses.
fs.mkdirSync(path.join(ROOT, 'bench-results'), { recursive: true });
const dir = fs.mkdtempSync(path.join(ROOT, 'bench-results', 'work-'));
const sim = await startSimulatorProcess({
  registry: path.join(dir, 'sources.csv'),
  now: T0,
  simSources: SOURCES,
  areas: AREAS,
  seed: 1,
  // Storms bring tens of thousands of incident points: the bench carries ≥ 50,000 (issue #12).
  // A storm k× today's: about k× the counties out (≥ 900 at 3×), smaller incidents (≥ 190,000 at 3×), k× the areas.
  incidentSize: Number(process.env.BENCH_INCIDENT_SIZE ?? 10 / STORM ** 0.6),
  incidentCap: Number(process.env.BENCH_INCIDENT_CAP ?? 1500 * STORM),
  stormScale: STORM ** 1.1,
}).catch((err: unknown) => {
  fs.rmSync(dir, { recursive: true, force: true });
  throw err;
});
const out = path.join(dir, 'public');
const mbOf = (bytes: number | undefined) => (bytes === undefined ? '–' : (bytes / 1e6).toFixed(1));
const time = async <T>(fn: () => Promise<T>) => {
  const t = performance.now();
  const v = await fn();
  return { v, ms: Math.round(performance.now() - t) };
};
try {
  const { sources } = loadRegistry(sim.registry);
  let peakHeap = 0;
  const sampler = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)), 20);
  const clock = manualClock(T0);
  const open = () =>
    Pipeline.open({
      stateDir: path.join(dir, 'state'),
      outDir: out,
      sources,
      clock,
      simulated: true,
      http: LOOPBACK_HTTP,
    });
  const p1 = await open();
  const full = await time(() => p1.cycle({ all: true }));
  const fullRssMb = peakRssMb();
  const mem = (label: string) => {
    const m = process.memoryUsage();
    console.log(
      `${label}: rss ${Math.round(m.rss / 1e6)} MB, heap ${Math.round(m.heapUsed / 1e6)} MB, external ${Math.round(m.external / 1e6)} MB`,
    );
  };
  mem('after the full cycle');
  console.log(`peak heap during the full cycle: ${Math.round(peakHeap / 1e6)} MB`);
  const counts = (
    await p1.db.all<{ areas: number; incidents: number; counties: number; counties_out: number }>(
      `SELECT (SELECT count(*) FROM obs_area)::INT AS areas, (SELECT count(*) FROM obs_incident)::INT AS incidents,
        (SELECT count(DISTINCT fips) FROM obs_county)::INT AS counties,
        (SELECT count(DISTINCT fips) FROM obs_county WHERE customers_out > 0)::INT AS counties_out`,
    )
  )[0];
  // Thirty minutes on, the storm has moved: (nearly) every source has new data and the tree already exists.
  clock.advance(30 * 60_000);
  await sim.move(clock());
  const stormAt = clock();
  const [{ before }] = await p1.db.all<{ before: number }>('SELECT coalesce(max(id), 0)::INT AS before FROM events');
  const hot: Record<string, { functions: ProfileLine[]; files: ProfileLine[] }> = {};
  /** A cycle, profiled as `name` with BENCH_PROFILE=1. */
  const cycle = async (name: string) => {
    if (!PROFILE) return p1.cycle({ all: true });
    const prof = path.join(ROOT, 'bench-results', `${name}-${STORM}.cpuprofile`);
    const { v, ...top } = await profiled(prof, () => p1.cycle({ all: true }));
    hot[name] = top;
    return v;
  };
  const changedCycle = await time(() => cycle('storm'));
  const stormRssMb = peakRssMb();
  // Incident events (issue 41): how many the storm cycle emitted, by scope, at this deployment's OUTAGE_INCIDENT_EVENT_MIN.
  const stormEvents = await p1.db.all<{ scope: string; n: number }>(
    'SELECT scope, count(*)::INT AS n FROM events WHERE id > ? GROUP BY scope ORDER BY scope',
    [before],
  );
  // The same upstream data a minute later, in the same process (as the poll loop runs): conditional requests answer 304.
  clock.advance(60_000);
  const unchanged = await time(() => cycle('unchanged'));
  mem('after the unchanged cycle');
  // The poller's peak: its cycles so far ran in one process, as `outage poll` runs them. The restart below opens a
  // second pipeline in this process, which a deployment never does (a restart is a new process).
  const pollerRssMb = peakRssMb();
  await p1.close();
  // And after a restart: no validators yet, every source re-fetched and re-normalised, nothing changes.
  const p2 = await open();
  clock.advance(60_000);
  const restarted = await time(() => p2.cycle({ all: true }));
  await p2.close();
  clearInterval(sampler);
  const rssMb = peakRssMb();
  const rows: Array<{ metric: string; value: string | number; target: string }> = [
    { metric: 'storm size (× today’s)', value: STORM, target: '' },
    { metric: 'sources polled', value: full.v.polled, target: '≥ 1000' },
    {
      metric: 'counties published',
      value: Object.keys(readManifest(out)!.files).filter((f) => /^api\/v1\/live\/counties\/\d{5}\.json$/.test(f))
        .length,
      target: '≥ 3143',
    },
    { metric: 'areas stored', value: counts.areas, target: STORM >= 3 ? '≥ 90000' : '≥ 30000' },
    { metric: 'incidents stored', value: counts.incidents, target: STORM >= 3 ? '≥ 190000' : '≥ 50000' },
    { metric: 'counties with outages', value: counts.counties_out, target: STORM >= 3 ? '≥ 900' : '' },
    { metric: 'first cycle, empty tree (ms)', value: full.ms, target: '' },
    {
      metric: `storm cycle events by scope (incident threshold ${INCIDENT_EVENT_MIN})`,
      value: stormEvents.map((e) => `${e.scope} ${e.n}`).join(', ') || 'none',
      target: '',
    },
    {
      metric: 'full cycle, storm moved 30 min (ms)',
      value: changedCycle.ms,
      target: STORM >= 3 ? '≤ 10000' : '≤ 4000',
    },
    {
      metric: 'full cycle sources changed / files written / MB written',
      value: `${changedCycle.v.changed} / ${changedCycle.v.publish.written} / ${mbOf(changedCycle.v.publish.bytes)}`,
      target: '',
    },
    {
      metric: 'full cycle phases poll/store/publish (ms)',
      value: `${changedCycle.v.phases.poll}/${changedCycle.v.phases.store}/${changedCycle.v.phases.publish}`,
      target: '',
    },
    {
      metric: 'first cycle phases poll/store/publish (ms)',
      value: `${full.v.phases.poll}/${full.v.phases.store}/${full.v.phases.publish}`,
      target: '',
    },
    {
      metric: 'unchanged cycle phases poll/store/publish (ms)',
      value: `${unchanged.v.phases.poll}/${unchanged.v.phases.store}/${unchanged.v.phases.publish}`,
      target: '',
    },
    { metric: 'first cycle files written', value: full.v.publish.written, target: '' },
    { metric: 'unchanged cycle (ms)', value: unchanged.ms, target: '≤ 1000' },
    { metric: 'unchanged cycle sources changed', value: unchanged.v.changed, target: '0' },
    {
      metric: 'unchanged cycle files rewritten',
      value: unchanged.v.publish.written,
      target: '≤ 1', // live/sources: its updated_at is the fetch time
    },
    {
      metric: 'unchanged cycle files rewritten, the first',
      value: (unchanged.v.publish.sample ?? []).join(' '),
      target: '',
    },
    { metric: 'unchanged cycle after a restart (ms)', value: restarted.ms, target: '' },
    { metric: 'unchanged cycle after a restart files rewritten', value: restarted.v.publish.written, target: '' },
    { metric: 'peak RSS of the poller: first, storm and unchanged cycles (MB)', value: pollerRssMb, target: '≤ 512' },
    {
      metric: 'peak RSS by the end of the first / storm cycle (MB)',
      value: `${fullRssMb} / ${stormRssMb}`,
      target: '',
    },
    { metric: 'peak RSS with the restart, a second pipeline in this process (MB)', value: rssMb, target: '' },
  ];
  console.table(rows);
  rows.push(...(await benchWire(out, stormAt, changedCycle.v.publish)));
  fs.writeFileSync(
    path.join(ROOT, 'bench-results', 'poller.json'),
    JSON.stringify({ rows, failures: full.v.failures.slice(0, 5) }, null, 2),
  );
  const result = {
    size: STORM,
    counts,
    storm: { ms: changedCycle.ms, phases: changedCycle.v.phases, ...changedCycle.v.publish },
    unchanged: { ms: unchanged.ms, phases: unchanged.v.phases, ...unchanged.v.publish },
    peak_rss_mb: pollerRssMb,
    profile: PROFILE ? hot : null,
    rows,
  };
  fs.writeFileSync(path.join(ROOT, 'bench-results', `poller-${STORM}.json`), JSON.stringify(result, null, 2));
  for (const [name, top] of Object.entries(hot)) console.log(name, top.functions);
} finally {
  await sim.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
