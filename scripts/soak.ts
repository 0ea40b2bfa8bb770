// `npm run soak`: a simulated day of the poller at full speed on a manual clock, against the simulator behind a seeded
// fault proxy (pipeline/src/simulator/faults.ts): 5 % of requests 5xx, 2 % held past the request deadline, 1 % garbage
// bodies (an eighth of that for Kubra cluster tiles), the host of the busiest source down for two hours, one restart of
// the poller, and alert rules whose deliveries go to 19 never-answering webhook receivers beside a neighbour's healthy
// one (soak-receivers.ts). Ends with checks printed as a table, exit 1 when one fails. Loopback only; pipeline/test/soak.test.ts runs
// a short variant.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { pathToFileURL } from 'node:url';
import { manualClock, type Clock } from '../pipeline/src/clock.ts';
import { Simulator } from '../pipeline/src/simulator/server.ts';
import { FaultProxy } from '../pipeline/src/simulator/faults.ts';
import { parseRegistry } from '../pipeline/src/registry/registry.ts';
import type { SourceDef } from '../pipeline/src/sources/source-def.ts';
import { LOOPBACK_HTTP } from '../pipeline/src/sources/http.ts';
import { Pipeline } from '../pipeline/src/pipeline.ts';
import type { Db } from '../pipeline/src/state/db.ts';
import { MemoryTreeWriter } from '../pipeline/src/publish/tree-writer.ts';
import { startSimulatorProcess, type SimulatorProcess } from './sim-process.ts';
import { SoakReceivers } from './soak-receivers.ts';
import { HOUR, judge, mb, T0, type MemorySample, type RunLog, type SoakReport } from './soak-checks.ts';
import { DAY, type SoakOptions } from './soak-options.ts';

export type { Check, SoakReport } from './soak-checks.ts';
export { DAY, SHORT, type SoakOptions } from './soak-options.ts';

const AREAS = 2;

/**
 * Fault rates for Kubra's cluster tiles are an eighth of the rest. A Kubra poll is a chain of 45–150 requests, mostly
 * tiles, that fails when any one does: at 8 % a request ~0 of its polls would succeed, and the soak would prove
 * nothing about Kubra under load (the 304 short-cut, dropping a half-read set of tiles, stale → recovered). At 1 % a
 * tile, tiles still fail now and then mid-chain and about a third of Kubra polls succeed (`connectors` wants one).
 */
const KUBRA_TILE = /\/cluster-data\/[^?]*\/public\/[^/?]+\/[0-3]+\.json(\?|$)/;
const TILE_SCALE = 1 / 8;
function faultScale(sources: SourceDef[]): (sourceId: string, url: string) => number {
  const kubra = new Set(sources.filter((s) => s.connector === 'kubra').map((s) => s.id));
  return (sourceId, url) => (kubra.has(sourceId) && KUBRA_TILE.test(url) ? TILE_SCALE : 1);
}

function exposeGc(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

/** Memory after a full collection (GC exposed through V8 flags when node was not started with --expose-gc). */
async function memoryAfterGc(db: Db): Promise<MemorySample> {
  const [{ bytes }] = await db.all<{ bytes: number }>(
    'SELECT sum(memory_usage_bytes)::DOUBLE AS bytes FROM duckdb_memory()',
  );
  const g = (globalThis as { gc?: () => void }).gc ?? exposeGc();
  g();
  g();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed, duckdb: bytes, buffers: m.arrayBuffers };
}

export async function runSoak(o: SoakOptions): Promise<SoakReport> {
  const wall0 = Date.now();
  const cpu0 = process.cpuUsage();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outage-soak-'));
  const clock = manualClock(T0);
  let sim: SimulatorProcess | null = null;
  let proxy: FaultProxy | null = null;
  let pipeline: Pipeline | null = null;
  let receivers: SoakReceivers | null = null;
  try {
    sim = await startSimulatorProcess({
      registry: path.join(dir, 'simulated-sources.csv'),
      now: T0,
      simSources: o.simSources,
      areas: AREAS,
      seed: o.seed,
    });
    const planned = parseRegistry(fs.readFileSync(sim.registry, 'utf8'))
      .sources.filter((s) => s.states.some((st) => o.states.includes(st)))
      .map((s) => ({ ...s, interval_min: o.intervalMin }));
    proxy = new FaultProxy({
      target: sim.url,
      clock,
      seed: o.seed,
      rates: o.rates,
      holdMs: 4 * o.requestDeadlineMs,
      scale: faultScale(planned),
    });
    const sources = await proxy.start(planned);
    // A dead co-op host for the whole run: it accepts connections and never answers (issue 37 part 6).
    const dead = deadSource(sources);
    proxy.setSilent(dead, true);
    const http = {
      ...LOOPBACK_HTTP,
      requestDeadlineMs: o.requestDeadlineMs,
      bodyTimeoutMs: o.requestDeadlineMs,
      sourceDeadlineMs: o.sourceDeadlineMs,
    };
    const memory = new MemoryTreeWriter(clock());
    const writer = o.writer === 'memory' ? { writer: (now: Date) => Object.assign(memory, { now }) } : {};
    const open = () =>
      Pipeline.open({
        stateDir: path.join(dir, 'state'),
        outDir: path.join(dir, 'public'),
        sources,
        clock,
        simulated: true,
        http,
        ...writer,
      });
    pipeline = await open();
    receivers = await SoakReceivers.start({
      clock,
      stateDir: path.join(dir, 'state'),
      outDir: path.join(dir, 'public'),
      state: o.states[0],
      db: pipeline.db,
    });
    const moveTo = async (at: Date) => {
      clock.set(at);
      await sim!.move(at);
    };
    const run = await drive(
      o,
      clock,
      moveTo,
      proxy,
      () => pipeline!,
      async () => {
        await pipeline!.close();
        pipeline = null;
        pipeline = await open();
      },
      () => receivers!.afterCycle(pipeline!.db),
    );
    // The dead host is judged by its own check: the others' (coverage, freshness, connectors) stand on the rest.
    const alive = sources.filter((s) => s.id !== dead);
    const report = await judge(o, pipeline.db, alive, coverage(o, alive), run, proxy.injected);
    const slow = await receivers.finish();
    report.checks.push(slow.check, await deadHostCheck(pipeline.db, dead, o));
    Object.assign(report.figures, slow.figures);
    const cpu = process.cpuUsage(cpu0);
    Object.assign(report.figures, {
      'sources polled': sources.length,
      'requests forwarded to the simulator': proxy.forwarded,
      'wall time': `${((Date.now() - wall0) / 1000).toFixed(0)} s`,
      'CPU time of the poller process': `${((cpu.user + cpu.system) / 1e6).toFixed(0)} s`,
    });
    return report;
  } finally {
    await receivers?.close();
    await pipeline?.close();
    await proxy?.stop();
    await sim?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The poll loop of `outage poll` without its sleeps: each cycle at the pipeline's own next wake time, its deliveries
 * handed over after it (`deliver`, not awaited beyond the enqueueing, as the loop does).
 */
async function drive(
  o: SoakOptions,
  clock: Clock,
  moveTo: (at: Date) => Promise<void>,
  proxy: FaultProxy,
  current: () => Pipeline,
  restart: () => Promise<void>,
  deliver: () => Promise<void>,
): Promise<RunLog> {
  const run: RunLog = {
    scheduled: 0,
    completed: 0,
    lost: [],
    maxPollMs: 0,
    victim: null,
    down: null,
    restartAt: null,
    hardened: new Map(),
    memory: { first: [], last: [] },
  };
  const end = T0.getTime() + o.hours * HOUR;
  const downFrom = T0.getTime() + o.downAt * HOUR;
  let first = true;
  let hour = 0;
  while (clock().getTime() < end) {
    const now = clock().getTime();
    if (!run.victim && now >= downFrom) {
      run.victim = await busiest(current().db);
      await proxy.setDown(run.victim, true);
      run.down = [now, now + o.downHours * HOUR];
    }
    if (run.down && now >= run.down[1]) await proxy.setDown(run.victim!, false);
    if (run.restartAt === null && now >= T0.getTime() + o.restartAt * HOUR) {
      await restart();
      run.restartAt = now;
      first = true; // a fresh `outage poll` loop polls every source first
    }
    run.scheduled += 1;
    try {
      const s = await current().cycle({ all: first });
      run.completed += 1;
      run.maxPollMs = Math.max(run.maxPollMs, s.phases.poll);
      await deliver();
    } catch (err) {
      run.lost.push({ at: new Date(now).toISOString(), message: (err as Error).message });
    }
    first = false;
    await recordHardened(current().db, now, run.hardened);
    // Medians over an hour of cycles each: one RSS sample moves by ±10 % from cycle to cycle (allocator, DuckDB).
    if (now < T0.getTime() + HOUR) run.memory.first.push(await memoryAfterGc(current().db));
    if (now >= end - HOUR) run.memory.last.push(await memoryAfterGc(current().db));
    if (Math.floor((now - T0.getTime()) / HOUR) > hour) {
      hour = Math.floor((now - T0.getTime()) / HOUR);
      o.log(`soak: hour ${hour}/${o.hours}, ${run.completed} cycles, RSS ${mb(process.memoryUsage().rss)} MB`);
    }
    await moveTo(new Date(Math.max((await current().nextDueAt()).getTime(), now + 1)));
  }
  return run;
}

/**
 * The source whose host is dead all along: the last by id of a connector that opens its chain with one request and
 * polls other sources too (its success check stands on them); the busiest source's host goes down later instead.
 */
function deadSource(sources: SourceDef[]): string {
  const shared = (c: string) => sources.filter((s) => s.connector === c).length > 1;
  const pick = ['kubra', 'arcgis', 'fpl'].find(shared);
  return sources
    .filter((s) => !pick || s.connector === pick)
    .map((s) => s.id)
    .sort()
    .at(-1)!;
}

/**
 * The dead host's polls: each failed as `timeout`, within the source deadline, while the cycles around it went on (the
 * cycles and longest-poll-phase checks). That a host sending no headers is not retried is proven in http.test.ts
 * (undici's coarse headers timer does not beat the soak's 500 ms request deadline).
 */
async function deadHostCheck(db: Db, id: string, o: SoakOptions) {
  const [r] = await db.all<{ polls: number; timeouts: number; longest: number | null }>(
    `SELECT count(*)::INT AS polls, count(*) FILTER (WHERE reason = 'timeout')::INT AS timeouts, max(ms)::INT AS longest
       FROM polls WHERE source_id = ?`,
    [id],
  );
  return {
    id: 'dead_host',
    check: `a host that accepts connections and never answers (${id}) fails every poll as timeout (the source deadline is ${o.sourceDeadlineMs} ms), never holding a cycle`,
    value: `${r.polls} polls: ${r.timeouts} timeouts, longest ${r.longest ?? 0} ms`,
    ok: r.polls > 0 && r.timeouts === r.polls,
  };
}

/** The source with the most customers out: its host goes down, so outages depend on a stale feed. */
async function busiest(db: Db): Promise<string> {
  const [row] = await db.all<{ source_id: string }>(
    'SELECT source_id FROM source_status ORDER BY customers_out DESC NULLS LAST, source_id LIMIT 1',
  );
  return row.source_id;
}

async function recordHardened(db: Db, at: number, into: Map<string, Array<[number, boolean]>>): Promise<void> {
  for (const r of await db.all<{ source_id: string; hardened: boolean }>(
    'SELECT source_id, hardened FROM source_status',
  )) {
    const h = into.get(r.source_id) ?? into.set(r.source_id, []).get(r.source_id)!;
    if (h.at(-1)?.[1] !== r.hardened) h.push([at, r.hardened]);
  }
}

/** The simulator's ground truth, from the same plan the simulator process made: which polled sources serve each county. */
function coverage(o: SoakOptions, sources: SourceDef[]): Map<string, string[]> {
  const plan = new Simulator({ clock: () => T0, seed: o.seed, sources: o.simSources, areasPerCounty: AREAS }); // never started
  const polled = new Set(sources.map((s) => s.id));
  const out = new Map<string, string[]>();
  for (const u of plan.utilities) {
    if (!polled.has(u.id)) continue;
    for (const fips of u.counties.keys()) (out.get(fips) ?? out.set(fips, []).get(fips)!).push(u.id);
  }
  return out;
}

function printTable(rows: string[][]): void {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log([line(rows[0]), line(widths.map((w) => '-'.repeat(w))), ...rows.slice(1).map(line)].join('\n'));
}

async function main(): Promise<void> {
  const seed = Number(process.env.SOAK_SEED ?? DAY.seed);
  const writer = process.env.SOAK_WRITER === 'memory' ? 'memory' : 'fs';
  const report = await runSoak({ ...DAY, seed, writer });
  console.log(
    `\nFault soak (seed ${seed}, publishing to ${writer === 'fs' ? 'the file system' : 'memory'}, SIMULATED):\n`,
  );
  printTable([['figure', 'value'], ...Object.entries(report.figures).map(([k, v]) => [k, String(v)])]);
  console.log('');
  printTable([['check', 'value', 'result'], ...report.checks.map((c) => [c.check, c.value, c.ok ? 'pass' : 'FAIL'])]);
  if (report.checks.some((c) => !c.ok)) process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
