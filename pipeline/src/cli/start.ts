// `outage start`: the embedded default — the source simulator, the polling pipeline and the local server together.
import type { Command } from 'commander';
import fs, { mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  addCommonOptions,
  clockFor,
  loadSources,
  log,
  parseCommon,
  SHIPPED_REGISTRY,
  type CommonConfig,
} from './common.ts';
import type { Clock } from '../clock.ts';
import type { SourceDef } from '../sources/registry.ts';
import { Simulator } from '../simulator/server.ts';
import { parseRegistry } from '../sources/registry.ts';
import { Pipeline, formatSummary } from '../pipeline.ts';
import { startServer } from '../serve/server.ts';
import { readManifest } from '../publish/tree-writer.ts';
import { pollLoop } from './poll.ts';
import { progressReporter } from './progress.ts';
import { SIMULATED_PREFIX, writeSimulatedHistory } from '../simulator/history.ts';
import { writeSimulatedEia861, writeSimulatedOe417 } from '../simulator/reference-files.ts';
import { importEagleI, importEia861, importOe417, importKindOf } from '../history/import.ts';
import { deriveEpisodes } from '../history/derive.ts';
import { countyModel, loadCountyModel } from '../geo/county-model.ts';
import { IMPORT_KINDS } from './import.ts';
import { publishHistoryIfChanged } from '../publish/reports.ts';
import { UsageError } from '../errors.ts';
import { AccountsRuntime, newestEventId } from '../accounts/runtime.ts';
import { LOOPBACK_HTTP } from '../sources/http.ts';
import { writeFileAtomic } from '../publish/atomic-write.ts';
import { markHistoryChanged } from '../history/version.ts';
import { coverageFor } from '../coverage/document.ts';

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

/** `--history-dir`: import the real files found there (kinds from their names), then derive. */
type HistoryFile = readonly [string, keyof typeof IMPORT_KINDS];

/** The history files of `--history-dir` with their kinds (checked before anything starts). */
function historyFiles(dir: string): HistoryFile[] {
  const files = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .sort()
        .map((f) => path.join(dir, f))
    : [];
  const known = files.map((f) => [f, importKindOf(f)] as const).filter((x): x is HistoryFile => x[1] !== null);
  if (known.length === 0)
    throw new UsageError(
      `--history-dir ${dir} holds no history files (eaglei_outages_*.csv, MCC.csv, coverage_history.csv, *Annual_Summary*.xls, DOE_*.xlsx, Reliability_*.xlsx, Service_Territory_*.xlsx, Sales_Ult_Cust_*.xlsx).`,
    );
  return known;
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
    const s = await IMPORT_KINDS[kind](pipeline.db, file);
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
    const sources = loadSources(cfg.sources, log);
    log(`live: ${sources.length} real sources from ${cfg.sources} (state ${cfg.state}, tree ${cfg.out})`);
    return { sources, sim: null };
  }
  const sim = new Simulator({ clock, seed: Number(raw.seed), sources: Number(raw.simSources) });
  await sim.start();
  const csv = sim.registryCsv();
  const registryFile = path.join(cfg.state, 'simulated-sources.csv');
  writeFileAtomic(registryFile, csv);
  const { sources } = parseRegistry(csv);
  log(`simulator: ${sources.length} SIMULATED sources at ${sim.baseUrl} (registry: ${registryFile})`);
  return { sources, sim };
}

/** `--live` keeps its own state and tree unless told otherwise, so simulated and real data never mix. */
function liveDirs(raw: Record<string, unknown>, cmd: Command): void {
  if (!raw.live) return;
  if (cmd.getOptionValueSource('state') !== 'cli') raw.state = 'state-live';
  if (cmd.getOptionValueSource('out') !== 'cli') raw.out = 'public-live';
}

export function register(program: Command): void {
  addCommonOptions(
    program
      .command('start')
      .description(
        'run the simulator, the pipeline and the local server together (the embedded default); --live polls the real utility feeds instead',
      ),
  )
    .option('--live', 'poll the real utility feeds of the shipped registry (data/sources.csv) instead of the simulator')
    .option('--port <n>', 'port of the local server', '8787')
    .option('--seed <n>', 'simulator seed (a different storm track per seed)', '1')
    .option('--sim-sources <n>', 'about how many simulated sources to create', '120')
    .option('--no-history', 'do not generate and import the SIMULATED decade of history')
    .option('--history-dir <dir>', 'import the real history files in this directory instead of the SIMULATED decade')
    .action(async (raw: Record<string, unknown>, cmd: Command) => {
      liveDirs(raw, cmd);
      const cfg = parseCommon(raw);
      const realHistory = typeof raw.historyDir === 'string' ? historyFiles(path.resolve(raw.historyDir)) : null;
      const clock = clockFor(cfg, false);
      mkdirSync(cfg.state, { recursive: true });
      // The account database opens after the first map (a fresh embedded one takes seconds to create); account
      // requests wait for it.
      let opened: (a: Promise<AccountsRuntime>) => void = () => {};
      const opening = new Promise<AccountsRuntime>((resolve) => (opened = resolve));
      const service = opening.then((a) => a.service);
      service.catch(() => {}); // a failure to open is reported where `opening` is awaited
      const serve = () =>
        startServer({ outDir: cfg.out, stateDir: cfg.state, port: Number(raw.port), accounts: service });
      // A later start serves the last published generation at once, before anything else starts.
      let server = readManifest(cfg.out) ? await serve() : null;
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
      // Deliveries of a new account database start after the events stored before this start.
      const lastEvent = await newestEventId(pipeline.db);
      // Real history may carry the county denominators (MCC): it lands before the first cycle evaluates anything.
      if (realHistory) await loadHistoryDir(pipeline, realHistory);
      const first = await pipeline.cycle({ all: true });
      pipeline.heartbeat(first);
      progress.stop();
      log(formatSummary(first));
      server ??= await serve();
      const what = live ? `live, ${sources.length} real utility feeds` : 'SIMULATED storm';
      process.stdout.write(
        `\nUS Power Outage Data (${what}) is running at ${server.url}/\n  live map: ${server.url}/api/v1/live/map\n  Ctrl-C to stop.\n\n`,
      );
      opened(AccountsRuntime.open({ stateDir: cfg.state, outDir: cfg.out, baseUrl, clock, log }));
      accounts = await opening;
      await accounts.attach(lastEvent);
      // The SIMULATED decade after the map is up (simulated history beside real feeds would mislead: --live imports
      // only --history-dir); the county profiles and histories are then republished with it.
      if (!realHistory && raw.history !== false && !live && (await loadSimulatedHistory(pipeline, cfg.state)))
        log(`history: county documents republished: ${(await pipeline.build()).written.toLocaleString('en-US')} files`);
      await publishReports(pipeline, cfg.out, clock);
      try {
        accounts.startTimer();
        await pollLoop(pipeline, clock, cfg.speed, async () => {
          progress.stop();
          const d = await accounts.afterCycle(pipeline.db);
          if (d.enqueued || d.stats.attempted)
            log(
              `deliveries: ${d.enqueued} enqueued from ${d.events} events, ${d.stats.delivered} delivered, ${d.stats.retrying} to retry, ${d.stats.failed} given up`,
            );
        });
      } finally {
        await server.close();
        await pipeline.close();
        await accounts.close();
        await sim?.stop();
      }
    });
}
