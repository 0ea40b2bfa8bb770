// `outage poll`: one cycle with --once, otherwise a loop that honours each source's own cadence.
import type { Command } from 'commander';
import { addCommonOptions, clockFor, loadSources, log, parseCommon } from './common.ts';
import { progressReporter } from './progress.ts';
import { Pipeline, formatSummary } from '../pipeline.ts';
import type { Clock } from '../clock.ts';
import { AccountsRuntime } from '../accounts/runtime.ts';
import { loopWaitMs } from '../sources/scheduler.ts';
import { coverageFor } from '../coverage/document.ts';

export function register(program: Command): void {
  addCommonOptions(
    program.command('poll').description('poll the sources that are due, store what changed, republish the tree'),
  )
    .option('--once', 'run one cycle and exit')
    .option('--all', 'poll every source, not only the due ones')
    .option('--no-deliveries', 'do not deliver alert rule events from this process (another process does)')
    .action(async (raw: Record<string, unknown>) => {
      const cfg = parseCommon(raw);
      const clock = clockFor(cfg, Boolean(raw.once));
      const sources = loadSources(cfg.sources, log);
      const progress = progressReporter('polling');
      // Alert rules: their watched counties harden polling; each cycle's events are delivered from this process.
      // The pipeline first: its state lock keeps a second process away from the embedded account database too.
      let accounts: AccountsRuntime | null = null;
      const pipeline = await Pipeline.open({
        stateDir: cfg.state,
        outDir: cfg.out,
        sources,
        clock,
        simulated: false,
        baseUrl: cfg.baseUrl,
        coverage: coverageFor(cfg.sources),
        onProgress: progress.onProgress,
        watchedCounties: () => accounts?.watched ?? new Set(),
      });
      if (raw.deliveries !== false) {
        accounts = await AccountsRuntime.open({
          stateDir: cfg.state,
          outDir: cfg.out,
          baseUrl: cfg.baseUrl,
          clock,
          log,
        }).catch((err: Error) => {
          log(`deliveries: off (${err.message})`);
          return null;
        });
      }
      await accounts?.attach(pipeline.db);
      const deliver = async () => {
        if (!accounts) return;
        const d = await accounts.afterCycle(pipeline.db);
        if (d.enqueued || d.stats.attempted)
          log(
            `deliveries: ${d.enqueued} enqueued from ${d.events} events, ${d.stats.delivered} delivered, ${d.stats.retrying} to retry, ${d.stats.failed} given up`,
          );
      };
      try {
        if (raw.once) {
          const s = await pipeline.cycle({ all: Boolean(raw.all) });
          progress.stop();
          for (const f of s.failures) log(`  ${f.source}: ${f.reason}: ${f.message}`);
          log(formatSummary(s));
          await deliver();
          return;
        }
        accounts?.startTimer();
        await pollLoop(pipeline, clock, cfg.speed, async () => {
          progress.stop();
          await deliver();
        });
      } finally {
        await pipeline.close();
        await accounts?.close();
      }
    });
}

/** Runs cycles until SIGINT/SIGTERM, sleeping until the next source is due. */
export async function pollLoop(
  pipeline: Pipeline,
  clock: Clock,
  speed: number,
  afterCycle: () => void | Promise<void> = () => {},
): Promise<void> {
  let stop = false;
  let wake: (() => void) | undefined;
  const onSignal = () => {
    stop = true;
    wake?.();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let first = true;
  while (!stop) {
    const s = await pipeline.cycle({ all: first });
    first = false;
    await afterCycle();
    for (const f of s.failures) log(`  ${f.source}: ${f.reason}: ${f.message}`);
    if (s.polled > 0 || s.events > 0) log(formatSummary(s));
    if (stop) break;
    const next = await pipeline.nextDueAt();
    const waitMs = loopWaitMs(next, clock(), speed);
    // A referenced timer: it is what keeps the process alive between cycles (a signal wakes it early).
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, waitMs);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  log('poll loop stopped');
}
