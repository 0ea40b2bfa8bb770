// Options every command shares, parsed once into a fully-defaulted config.
import { Option, type Command } from 'commander';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { fixedClock, parseInstant, runningClock, systemClock, type Clock } from '../clock.ts';
import { UsageError } from '../errors.ts';
import type { SourceDef } from '../sources/source-def.ts';
import type { Restamp } from '../state/archive-restamp.ts';
import { terminalLines } from '../terminal-text.ts';

export interface CommonConfig {
  sources: string;
  out: string;
  state: string;
  now: Date | null;
  speed: number;
  baseUrl: string;
}

/** The shipped registry of real utility feeds (see data/sources.md). */
export const SHIPPED_REGISTRY = 'data/sources.csv';
/** The registry `outage start` writes into its state directory: the simulator's sources, which it polls. */
export const SIMULATED_REGISTRY_FILE = 'simulated-sources.csv';

/**
 * The registry a state directory is polled from, for the commands that read a state another command polls (`build`,
 * `sources`): the one `--sources` names, else the simulated registry `outage start` left there, else the default.
 */
export function registryOfState(cfg: CommonConfig, cmd: Command): { file: string; simulated: boolean } {
  const simulated = path.join(cfg.state, SIMULATED_REGISTRY_FILE);
  if (cmd.getOptionValueSource('sources') === 'cli' || !fs.existsSync(simulated))
    return { file: cfg.sources, simulated: false };
  return { file: simulated, simulated: true };
}

const schema = z.object({
  sources: z.string().default(SHIPPED_REGISTRY),
  out: z.string().default('public'),
  state: z.string().default('state'),
  now: z.string().optional(),
  speed: z.coerce.number().positive().default(1),
  baseUrl: z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:8787'),
});

/** `sourcesDefault`: `simulate` writes its registry to --sources, so it must not default to the shipped one. */
export function addCommonOptions(cmd: Command, sourcesDefault = SHIPPED_REGISTRY): Command {
  return cmd
    .addOption(new Option('--sources <file>', 'source registry CSV').default(sourcesDefault))
    .addOption(new Option('--out <dir>', 'directory the prebuilt tree is published into').default('public'))
    .addOption(new Option('--state <dir>', 'directory of the DuckDB state database').default('state'))
    .addOption(new Option('--now <iso>', 'injected clock: the instant every time-based rule uses (ISO-8601)'))
    .addOption(new Option('--speed <n>', 'clock speed factor for long-running commands (1 = real time)').default('1'))
    .addOption(
      new Option('--base-url <url>', 'public URL of the deployment, for absolute links in feeds and GeoJSON').default(
        'http://127.0.0.1:8787',
      ),
    );
}

export function parseCommon(raw: Record<string, unknown>): CommonConfig {
  const r = schema.safeParse(raw);
  if (!r.success)
    throw new UsageError(
      r.error.issues
        .map((i) => `--${i.path.join('.').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: ${i.message}`)
        .join('; '),
    );
  let now: Date | null = null;
  if (r.data.now) {
    try {
      now = parseInstant(r.data.now);
    } catch (err) {
      throw new UsageError(`--now: ${(err as Error).message}`);
    }
  }
  return {
    sources: path.resolve(r.data.sources),
    out: path.resolve(r.data.out),
    state: path.resolve(r.data.state),
    now,
    speed: r.data.speed,
    baseUrl: r.data.baseUrl.replace(/\/+$/, ''),
  };
}

/** A fixed clock for one-shot commands with --now; a running clock (from --now, at --speed) otherwise. */
export function clockFor(cfg: CommonConfig, oneShot: boolean): Clock {
  if (cfg.now && oneShot) return fixedClock(cfg.now);
  if (cfg.now || cfg.speed !== 1) return runningClock(cfg.now ?? new Date(), cfg.speed);
  return systemClock;
}

/**
 * Loads the registry; bad rows are reported with their line numbers and skipped. (The registry modules load here,
 * not with the CLI: a later `outage start` serves its page before it needs them.)
 */
export async function loadSources(file: string, log: (s: string) => void): Promise<SourceDef[]> {
  const [{ loadRegistry }, { withOdinExclusions }] = await Promise.all([
    import('../registry/registry.ts'),
    import('../sources/odin/exclusions.ts'),
  ]);
  const { sources, problems } = loadRegistry(file);
  for (const p of problems) log(`registry ${path.basename(file)} line ${p.line}: ${p.message} (row skipped)`);
  if (sources.length === 0) throw new UsageError(`No usable source in ${file}.`);
  return withOdinExclusions(sources); // ODIN drops the utilities the deep rows poll
}

/** A log line on stderr; upstream text in it (names, messages) reaches the terminal escaped (terminal-text.ts). */
export const log = (s: string): void => void process.stderr.write(`${terminalLines(s)}\n`);

/** Says what opening the state re-stamped of an archive written before quarters were named by their start. */
export function logRestamp(r: Restamp | null): void {
  if (r)
    log(
      `archive: ${r.moved.toLocaleString('en-US')} quarter hours re-named by their start (${r.dropped} replaced by a later cycle of the same quarter); the days from ${r.fromDay} are published again`,
    );
}
