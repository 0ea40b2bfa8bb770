// The body of `outage start` once its server thread is started (start.ts): simulator, pipeline, first cycle, accounts,
// history, then the poll loop. Loaded only when `start` runs, after the thread starts, so the page of a later start
// does not wait for these modules (DuckDB, the simulator, the importers …).
import { deliverAfterCycle } from './poll.ts';
import path from 'node:path';
import {
  clockFor,
  loadSources,
  log,
  logRestamp,
  SHIPPED_REGISTRY,
  SIMULATED_REGISTRY_FILE,
  type CommonConfig,
} from './common.ts';
import type { Clock } from '../clock.ts';
import type { SourceDef } from '../sources/source-def.ts';
import { Simulator } from '../simulator/server.ts';
import { parseRegistry } from '../registry/registry.ts';
import { Pipeline } from '../pipeline.ts';
import { formatSummary } from '../cycle/summary.ts';
import type { RunningServer, ServerWorker, WorkerServerOptions } from '../serve/worker-server.ts';
import { pollLoop } from './poll.ts';
import { readManifest } from '../publish/tree-parts.ts';
import { logPolls } from './poll-log.ts';
import { progressReporter } from './progress.ts';
import { SIMULATED_PREFIX, writeSimulatedHistory } from '../simulator/history.ts';
import { writeSimulatedEia861, writeSimulatedOe417 } from '../simulator/reference-files.ts';
import { importEagleI, importEia861, importOe417 } from '../history/import.ts';
import { deriveEpisodes } from '../history/derive.ts';
import { countyModel, loadCountyModel } from '../geo/county-model.ts';
import { importerOf, type ImportKind } from './import.ts';
import { publishHistoryIfChanged } from '../publish/reports.ts';
import { AccountsRuntime, newestEventId } from '../accounts/runtime.ts';
import { LOOPBACK_HTTP } from '../sources/http.ts';
import { writeFileAtomic } from '../publish/atomic-write.ts';
import { markHistoryChanged } from '../history/version.ts';
import { coverageFor } from '../coverage/document.ts';

/** `--history-dir`: a real history file and its kind (from its name). */
export type HistoryFile = readonly [string, ImportKind];

/** What start.ts hands over. */
export interface StartRun {
  raw: Record<string, unknown>;
  cfg: CommonConfig;
  realHistory: HistoryFile[] | null;
  thread: ServerWorker;
  /** what the thread serves (it listens after the first cycle when `early` is null) */
  serving: WorkerServerOptions;
  /** the server already listening (a later start), or null to listen after the first cycle */
  early: RunningServer | null;
  /** gives the server thread's account requests the runtime they wait for */
  openAccounts(a: Promise<AccountsRuntime>): void;
  accounts: Promise<AccountsRuntime>;
}

/**
 * First start only: write a SIMULATED decade in the real EAGLE-I, OE-417 and EIA-861 formats and load it through the
 * real importers. True when it was loaded now.
 */
async function loadSimulatedHistory(pipeline: Pipeline, stateDir: string): Promise<boolean> {
  const done = await pipeline.db.all<{ n: number }>(
    `SELECT count(*)::INT AS n FROM import_log WHERE file LIKE '${SIMULATED_PREFIX}%'`,
  );
  if (done[0].n > 0) return false;
  const t0 = Date.now();
  const dir = path.join(stateDir, 'simulated-history');
  const model = await countyModel(pipeline.db, loadCountyModel());
  const files = await writeSimulatedHistory(pipeline.db, dir, model, {
    seed: 1,
    firstYear: 2015,
    lastYear: 2024,
    episodesPerYear: 3,
  });
  let rows = 0;
  for (const f of files) rows += (await importEagleI(pipeline.db, f)).rows_loaded;
  let events = 0;
  for (const f of writeSimulatedOe417(dir, 1, 2015, 2024)) events += (await importOe417(pipeline.db, f)).rows_loaded;
  for (const f of writeSimulatedEia861(dir, 1, 2022, model)) await importEia861(pipeline.db, f);
  const episodes = await deriveEpisodes(pipeline.db, model);
  await markHistoryChanged(pipeline.db);
  log(
    `history: SIMULATED 2015–2024 imported through the real importers: ${rows.toLocaleString('en-US')} EAGLE-I rows, ${events} OE-417 events, EIA-861 2022; ${episodes.toLocaleString('en-US')} episodes · ${Date.now() - t0} ms`,
  );
  return true;
}

/**
 * The report tables, after the server is up (the live map does not wait for them); only when history changed — at
 * national scale that is ~9,200 files, 15–20 s on first start.
 */
async function publishReports(pipeline: Pipeline, outDir: string, clock: Clock): Promise<void> {
  const hs = await publishHistoryIfChanged(pipeline.db, outDir, { now: clock() }).catch((err: Error) => {
    log(`history: report tables not published: ${err.message}`);
    return null;
  });
  if (hs)
    log(
      `history: report tables published: ${hs.written.toLocaleString('en-US')} files written, ${hs.unchanged.toLocaleString('en-US')} unchanged · ${hs.ms} ms (charts are drawn on request, or by \`outage build --charts\`)`,
    );
}

async function loadHistoryDir(pipeline: Pipeline, known: HistoryFile[]): Promise<void> {
  const [{ n }] = await pipeline.db.all<{ n: number }>(
    `SELECT count(*)::INT AS n FROM import_log WHERE file IN (SELECT unnest(?::VARCHAR[]))`,
    [`[${known.map(([f]) => path.basename(f)).join(',')}]`],
  );
  if (n >= known.length) return; // imported on an earlier start
  // The mcc and coverage files change the denominators: load them first.
  const order = ['mcc', 'coverage', 'eaglei', 'oe417', 'eia861'];
  for (const [file, kind] of [...known].sort((a, b) => order.indexOf(a[1]) - order.indexOf(b[1]))) {
    const s = await (await importerOf(kind))(pipeline.db, file);
    log(
      `history: ${kind} ${path.basename(file)}: ${s.rows_loaded.toLocaleString('en-US')} rows loaded, ${s.rows_rejected} rejected`,
    );
  }
  await deriveEpisodes(pipeline.db, await countyModel(pipeline.db, loadCountyModel()));
  await markHistoryChanged(pipeline.db);
}

/** The registry `start` polls: the built-in simulator's (default), or with `--live` the shipped registry of real feeds. */
async function sourcesFor(
  raw: Record<string, unknown>,
  cfg: CommonConfig,
  clock: Clock,
): Promise<{ sources: SourceDef[]; sim: Simulator | null }> {
  if (raw.live) {
    const sources = await loadSources(cfg.sources, log);
    log(`live: ${sources.length} real sources from ${cfg.sources} (state ${cfg.state}, tree ${cfg.out})`);
    return { sources, sim: null };
  }
  const stormPace = Number(raw.stormPace); // checked by start.ts before anything starts
  const sim = new Simulator({ clock, seed: Number(raw.seed), sources: Number(raw.simSources), stormPace });
  await sim.start();
  const csv = sim.registryCsv();
  const registryFile = path.join(cfg.state, SIMULATED_REGISTRY_FILE);
  writeFileAtomic(registryFile, csv);
  const { sources } = parseRegistry(csv);
  log(`simulator: ${sources.length} SIMULATED sources at ${sim.baseUrl} (registry: ${registryFile})`);
  return { sources, sim };
}

/** How long `npm start`'s first cycle waits for its polls before it publishes the first map and prints the URL. */
const FIRST_MAP_BUDGET_MS = 20_000;

export async function runStart(run: StartRun): Promise<void> {
  const { raw, cfg, realHistory, early } = run;
  const clock = clockFor(cfg, false);
  const { sources, sim } = await sourcesFor(raw, cfg, clock);
  const live = sim === null;
  const progress = progressReporter('polling');
  const baseUrl = raw.baseUrl === 'http://127.0.0.1:8787' ? `http://127.0.0.1:${raw.port}` : cfg.baseUrl;
  // The pipeline first: its state lock keeps a second process away from the embedded account database too.
  let accounts: AccountsRuntime | null = null;
  const pipeline = await Pipeline.open({
    stateDir: cfg.state,
    outDir: cfg.out,
    sources,
    clock,
    simulated: !live,
    http: live ? undefined : LOOPBACK_HTTP,
    baseUrl,
    coverage: coverageFor(live ? cfg.sources : path.resolve(SHIPPED_REGISTRY), { simulated: !live }),
    onProgress: progress.onProgress,
    watchedCounties: () => accounts?.watched ?? new Set(),
  });
  logRestamp(pipeline.db.restamped);
  // Deliveries of a new account database start after the events stored before this start.
  const lastEvent = await newestEventId(pipeline.db);
  // Real history may carry the county denominators (MCC): it lands before the first cycle evaluates anything.
  if (realHistory) await loadHistoryDir(pipeline, realHistory);
  const simulatedHistory = !realHistory && raw.history !== false && !live;
  // The report tables come after the first map: until they are published, the summary says they are being built.
  pipeline.reportsBuilding = simulatedHistory && !readManifest(cfg.out, 'history');
  // The first map within FIRST_MAP_BUDGET_MS, so the URL is printed soon even when feeds are slow or the machine is
  // offline: the sources still fetching are carried on and land in the next cycle.
  const first = await pipeline.cycle({ all: true, budgetMs: FIRST_MAP_BUDGET_MS });
  pipeline.heartbeat(first);
  progress.stop();
  logPolls(first);
  log(formatSummary(first));
  const server = early ?? (await run.thread.listen(run.serving));
  const what = live ? `live, ${sources.length} real utility feeds` : 'SIMULATED storm';
  process.stdout.write(
    `\nUS Power Outage Data (${what}) is running at ${server.url}/\n  live map: ${server.url}/api/v1/live/map\n  Ctrl-C to stop.\n\n`,
  );
  run.openAccounts(AccountsRuntime.open({ stateDir: cfg.state, outDir: cfg.out, baseUrl, clock, log }));
  accounts = await run.accounts;
  await accounts.attach(lastEvent);
  // The SIMULATED decade after the map is up (simulated history beside real feeds would mislead: --live imports
  // only --history-dir); the county profiles and histories are then republished with it.
  if (simulatedHistory && (await loadSimulatedHistory(pipeline, cfg.state)))
    log(`history: county documents republished: ${(await pipeline.build()).written.toLocaleString('en-US')} files`);
  await publishReports(pipeline, cfg.out, clock);
  pipeline.reportsBuilding = false;
  const a = accounts;
  try {
    a.startTimer();
    await pollLoop(pipeline, clock, cfg.speed, async () => {
      progress.stop();
      // The sending runs on its own: a slow receiver never holds polling.
      await deliverAfterCycle(a, pipeline, false);
    });
  } finally {
    await server.close();
    await pipeline.close();
    await a.close();
    await sim?.stop();
  }
}
