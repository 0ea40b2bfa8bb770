// `outage simulate`: the source simulator on its own (for the benchmark, or to point `outage poll` at it).
import type { Command } from 'commander';
import { addCommonOptions, clockFor, log, parseCommon } from './common.ts';
import { manualClock } from '../clock.ts';
import { Simulator } from '../simulator/server.ts';
import { writeFileAtomic } from '../publish/atomic-write.ts';
import { UsageError } from '../errors.ts';

export function register(program: Command): void {
  addCommonOptions(
    program.command('simulate').description('run the SIMULATED source simulator alone and write its registry'),
    'simulated-sources.csv',
  )
    .option('--port <n>', 'port on 127.0.0.1 (0 picks a free one)', '0')
    .option('--seed <n>', 'storm seed', '1')
    .option('--sim-sources <n>', 'about how many sources to simulate', '120')
    .option('--areas <n>', 'municipalities per county in Kubra reports', '6')
    .option('--incident-size <n>', 'about how many customers one simulated incident holds', '150')
    .option('--incident-cap <n>', 'at most this many incidents per utility and county', '40')
    .option('--storm-scale <n>', 'the storm’s size: about this many times the counties feel it', '1')
    .option(
      '--frozen',
      'freeze the simulator clock at --now (every poll sees the same data); POST /_clock?at=ISO moves it',
    )
    .action(async (raw: Record<string, unknown>) => {
      const cfg = parseCommon(raw);
      const stormScale = Number(raw.stormScale);
      if (!(stormScale >= 0.1 && stormScale <= 10))
        throw new UsageError(`Expected --storm-scale to be a number from 0.1 to 10, got \`${String(raw.stormScale)}\``);
      const frozen = raw.frozen ? manualClock(cfg.now ?? new Date()) : null;
      const clock = frozen ?? clockFor(cfg, false);
      const sim = new Simulator({
        clock,
        port: Number(raw.port),
        seed: Number(raw.seed),
        sources: Number(raw.simSources),
        areasPerCounty: Number(raw.areas),
        incidentSize: Number(raw.incidentSize),
        incidentCap: Number(raw.incidentCap),
        stormScale,
        epoch: cfg.now ? new Date(cfg.now.getTime() - 8 * 3_600_000) : undefined,
        setClock: frozen ? (at) => frozen.set(at) : undefined,
      });
      const url = await sim.start();
      writeFileAtomic(cfg.sources, sim.registryCsv());
      process.stdout.write(`${JSON.stringify({ url, registry: cfg.sources, sources: sim.utilities.length })}\n`);
      log(`SIMULATED sources at ${url}; registry written to ${cfg.sources}. Ctrl-C to stop.`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await sim.stop();
    });
}
