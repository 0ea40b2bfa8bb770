// `outage build`: republish the whole tree from stored state, without polling. The pipeline loads when the command
// runs (the CLI loads this module for its options).
import type { Command } from 'commander';
import {
  addCommonOptions,
  clockFor,
  loadSources,
  log,
  logRestamp,
  parseCommon,
  registryOfState,
  SHIPPED_REGISTRY,
} from './common.ts';
import path from 'node:path';
import { readManifest } from '../publish/tree-parts.ts';

export function register(program: Command): void {
  addCommonOptions(program.command('build').description('republish the prebuilt tree from stored state (no polling)'))
    .option('--charts', 'also render every county and report chart whose data changed (slow: ~50 ms a chart)')
    .action(async (raw: Record<string, unknown>, cmd: Command) => {
      const cfg = parseCommon(raw);
      const t0 = Date.now();
      const [{ Pipeline }, { publishHistoryIfChanged }, { coverageFor }] = await Promise.all([
        import('../pipeline.ts'),
        import('../publish/reports.ts'),
        import('../coverage/document.ts'),
      ]);
      // The state `start` left is rebuilt from its own registry unless --sources names another.
      const registry = registryOfState(cfg, cmd);
      const sourcesFile = registry.file;
      const sources = await loadSources(sourcesFile, log);
      // Simulated data stays labelled: the registry `start` wrote, or a tree last published as simulated.
      const simulated = registry.simulated || (readManifest(cfg.out)?.simulated ?? false);
      const pipeline = await Pipeline.open({
        stateDir: cfg.state,
        outDir: cfg.out,
        sources,
        clock: clockFor(cfg, true),
        simulated,
        baseUrl: cfg.baseUrl,
        coverage: coverageFor(simulated ? path.resolve(SHIPPED_REGISTRY) : sourcesFile, { simulated }),
      });
      logRestamp(pipeline.db.restamped);
      try {
        const stats = await pipeline.build({ charts: Boolean(raw.charts) });
        log(
          `build: ${stats.written} files written, ${stats.unchanged} unchanged, ${stats.removed} removed · ${Date.now() - t0} ms → ${cfg.out}`,
        );
        const hs = await publishHistoryIfChanged(pipeline.db, cfg.out, {
          now: clockFor(cfg, true)(),
          force: true,
          renderCharts: Boolean(raw.charts),
        });
        log(
          `build: report tables: ${hs!.written} files written, ${hs!.unchanged} unchanged, ${hs!.removed} removed, ${hs!.charts} charts rendered · ${hs!.ms} ms`,
        );
      } finally {
        await pipeline.close();
      }
    });
}
