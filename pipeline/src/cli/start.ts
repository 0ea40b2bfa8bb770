// `outage start`: the embedded default — the source simulator, the polling pipeline and the local server together.
import type { Command } from 'commander';
import { mkdirSync, writeFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { addCommonOptions, clockFor, log, parseCommon } from './common.ts';
import { Simulator } from '../simulator/server.ts';
import { parseRegistry } from '../sources/registry.ts';
import { Pipeline, formatSummary } from '../pipeline.ts';
import { startServer } from '../serve/server.ts';
import { pollLoop } from './poll.ts';
import { progressReporter } from './progress.ts';
import { SIMULATED_PREFIX, writeSimulatedHistory } from '../simulator/history.ts';
import { countyModel, importEagleI } from '../history/import.ts';
import { deriveEpisodes } from '../history/derive.ts';
import { loadCountyModel } from '../geo/county-model.ts';

/** First start only: write a SIMULATED decade in the EAGLE-I layout and load it through the real importer. */
async function loadSimulatedHistory(pipeline: Pipeline, stateDir: string): Promise<void> {
  const done = await pipeline.db.all<{ n: number }>(`SELECT count(*)::INT AS n FROM import_log WHERE file LIKE '${SIMULATED_PREFIX}%'`);
  if (done[0].n > 0) return;
  const t0 = Date.now();
  const model = await countyModel(pipeline.db, loadCountyModel());
  const files = await writeSimulatedHistory(pipeline.db, path.join(stateDir, 'simulated-history'), model, { seed: 1, firstYear: 2015, lastYear: 2024, episodesPerYear: 3 });
  let rows = 0;
  for (const f of files) rows += (await importEagleI(pipeline.db, f)).rows_loaded;
  const episodes = await deriveEpisodes(pipeline.db, model);
  await pipeline.db.run("INSERT OR REPLACE INTO meta VALUES ('history_version', ?)", [new Date().toISOString()]);
  log(`history: ${rows.toLocaleString('en-US')} SIMULATED EAGLE-I rows (2015–2024) imported, ${episodes.toLocaleString('en-US')} episodes · ${Date.now() - t0} ms`);
}

/** Politeness limits are for real utility hosts; the loopback simulator is one host serving every source. */
export const LOOPBACK_HTTP = { perHostConcurrency: 32, perHostPerSecond: 5_000 };

export function register(program: Command): void {
  addCommonOptions(program.command('start').description('run the simulator, the pipeline and the local server together (the embedded default)'))
    .option('--port <n>', 'port of the local server', '8787')
    .option('--seed <n>', 'simulator seed (a different storm track per seed)', '1')
    .option('--sim-sources <n>', 'about how many simulated sources to create', '120')
    .option('--no-history', 'do not generate and import the SIMULATED decade of history')
    .action(async (raw: Record<string, unknown>) => {
      const cfg = parseCommon(raw);
      const clock = clockFor(cfg, false);
      const sim = new Simulator({ clock, seed: Number(raw.seed), sources: Number(raw.simSources) });
      await sim.start();
      const csv = sim.registryCsv();
      mkdirSync(cfg.state, { recursive: true });
      const registryFile = path.join(cfg.state, 'simulated-sources.csv');
      writeFileSync(`${registryFile}.tmp`, csv);
      renameSync(`${registryFile}.tmp`, registryFile);
      const { sources } = parseRegistry(csv);
      log(`simulator: ${sources.length} SIMULATED sources at ${sim.baseUrl} (registry: ${registryFile})`);
      const progress = progressReporter('polling');
      const pipeline = await Pipeline.open({ stateDir: cfg.state, outDir: cfg.out, sources, clock, simulated: true, http: LOOPBACK_HTTP, baseUrl: raw.baseUrl === 'http://127.0.0.1:8787' ? `http://127.0.0.1:${raw.port}` : cfg.baseUrl, onProgress: progress.onProgress });
      if (raw.history !== false) await loadSimulatedHistory(pipeline, cfg.state);
      const first = await pipeline.cycle({ all: true });
      progress.stop();
      log(formatSummary(first));
      const server = await startServer({ outDir: cfg.out, port: Number(raw.port) });
      process.stdout.write(`\nUS Power Outage Data (SIMULATED storm) is running at ${server.url}/\n  live map: ${server.url}/api/v1/live/map\n  Ctrl-C to stop.\n\n`);
      try {
        await pollLoop(pipeline, clock, cfg.speed, () => progress.stop());
      } finally {
        await server.close();
        await pipeline.close();
        await sim.stop();
      }
    });
}
