// `outage poll`: one cycle with --once, otherwise a loop that honours each source's own cadence. The pipeline, the
// account runtime and the uploader load when the command runs (the CLI loads this module for its options).
import type { Command } from 'commander';
import { addCommonOptions, clockFor, loadSources, log, logRestamp, parseCommon } from './common.ts';
import { progressReporter } from './progress.ts';
import { logPolls } from './poll-log.ts';
import type { Pipeline } from '../pipeline.ts';
import type { Clock } from '../clock.ts';
import type { AccountsRuntime } from '../accounts/runtime.ts';
import type { RunStats } from '../accounts/deliver.ts';
import { addTargetOptions } from './upload-options.ts';
import { UsageError } from '../errors.ts';

export function register(program: Command): void {
  addTargetOptions(
    addCommonOptions(
      program.command('poll').description('poll the sources that are due, store what changed, republish the tree'),
    ),
    'upload-',
  )
    .option('--once', 'run one cycle and exit')
    .option('--all', 'poll every source, not only the due ones')
    .option('--no-deliveries', 'do not deliver alert rule events from this process (another process does)')
    .option(
      '--listen <host:port>',
      'also serve the published tree and /healthz from this process (the account endpoints need `outage serve`)',
    )
    .action(async (raw: Record<string, unknown>) => {
      const cfg = parseCommon(raw);
      const address = raw.listen ? listenAddress(String(raw.listen)) : null; // bad input fails before any work
      const [{ Pipeline }, { formatSummary }, { AccountsRuntime, newestEventId }, { coverageFor }, { cycleUploader }] =
        await Promise.all([
          import('../pipeline.ts'),
          import('../cycle/summary.ts'),
          import('../accounts/runtime.ts'),
          import('../coverage/document.ts'),
          import('./upload.ts'),
        ]);
      const uploader = cycleUploader(cfg.out, raw);
      const clock = clockFor(cfg, Boolean(raw.once));
      const sources = await loadSources(cfg.sources, log);
      const progress = progressReporter('polling');
      // Alert rules: their watched counties harden polling; each cycle's events are delivered from this process.
      // The pipeline first: its state lock keeps a second process away from the embedded account database too.
      let accounts: AccountsRuntime | null = null;
      let server: { close(): Promise<void> } | null = null;
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
      logRestamp(pipeline.db.restamped);
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
      await accounts?.attach(await newestEventId(pipeline.db));
      // The loop does not wait for the sending (a slow receiver never holds polling); `--once` does, before it exits.
      const deliver = async (wait: boolean) => {
        if (accounts) await deliverAfterCycle(accounts, pipeline, wait);
      };
      try {
        if (raw.once) {
          for (const s of await onceCycles(pipeline, Boolean(raw.all))) {
            pipeline.heartbeat(s);
            progress.stop();
            logPolls(s);
            log(formatSummary(s));
            await uploader?.afterCycle(true);
            await deliver(true);
          }
          return;
        }
        accounts?.startTimer();
        server = address ? await listen(address, cfg.out, cfg.state, cfg.baseUrl) : null;
        await pollLoop(pipeline, clock, cfg.speed, async () => {
          progress.stop();
          await uploader?.afterCycle();
          await deliver(false);
        });
      } finally {
        uploader?.close();
        await server?.close();
        await pipeline.close();
        await accounts?.close();
      }
    });
}

/**
 * `poll --once`: one cycle, published within its budget; the polls it carried past the budget (still fetching, until
 * their own deadline) then land in one more cycle that polls nothing new, so the process exits with every answer stored.
 */
async function onceCycles(pipeline: Pipeline, all: boolean) {
  const first = await pipeline.cycle({ all });
  if (first.late.length === 0) return [first];
  log(`waiting for ${first.late.length} late source(s): ${first.late.slice(0, 5).join(', ')}`);
  await pipeline.settled();
  return [first, await pipeline.cycle({ landOnly: true })];
}

/** A cycle's events to the alert rules' deliveries, logged; `wait: false` leaves the sending to run on its own. */
export async function deliverAfterCycle(accounts: AccountsRuntime, pipeline: Pipeline, wait: boolean): Promise<void> {
  const report = (enqueued: number, events: number, s: RunStats) => {
    if (enqueued || s.attempted)
      log(
        `deliveries: ${enqueued} enqueued from ${events} events, ${s.delivered} delivered, ${s.retrying} to retry, ${s.failed} given up`,
      );
  };
  const d = await accounts.afterCycle(pipeline.db, { wait, onSent: (s) => report(0, 0, s) });
  if (d.stats) report(d.enqueued, d.events, d.stats);
  else if (d.enqueued) log(`deliveries: ${d.enqueued} enqueued from ${d.events} events`);
}

function listenAddress(text: string): { host: string; port: number } {
  const m = /^(.*):(\d+)$/.exec(text);
  if (!m || Number(m[2]) > 65_535)
    throw new UsageError(`--listen wants host:port (e.g. 127.0.0.1:8787), not \`${text}\``);
  return { host: m[1] || '127.0.0.1', port: Number(m[2]) };
}

/** `--listen 127.0.0.1:8787`: the tree and /healthz beside the loop, for a health check or a reverse proxy. */
async function listen(address: { host: string; port: number }, outDir: string, stateDir: string, baseUrl: string) {
  const { startServer } = await import('../serve/server.ts');
  const server = await startServer({ outDir, stateDir, baseUrl, ...address });
  log(`serving ${outDir} and /healthz at ${server.url}/`);
  return server;
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
  // Graceful: a signal during a cycle lets it finish (its generation is published whole), then the loop exits.
  // The handlers go at the first signal, so a second one ends the process at once: every publish is atomic, so even
  // then no half generation is served.
  const onSignal = (signal: NodeJS.Signals) => {
    log(`${signal}: stopping after the cycle in progress (again to stop at once)`);
    stop = true;
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    wake?.();
  };
  const [{ formatSummary }, { loopWaitMs }] = await Promise.all([
    import('../cycle/summary.ts'),
    import('../sources/scheduler.ts'),
  ]);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let first = true;
  while (!stop) {
    const s = await pipeline.cycle({ all: first });
    pipeline.heartbeat(s);
    first = false;
    await afterCycle();
    logPolls(s);
    if (s.polled > 0 || s.events > 0) log(formatSummary(s));
    if (stop) break;
    const next = await pipeline.nextDueAt();
    const waitMs = loopWaitMs(next, clock(), speed);
    // A referenced timer: it is what keeps the process alive between cycles (a signal, or a late poll landing, wakes
    // it early).
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, waitMs);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
      pipeline.carried.onLanded = wake;
      if (pipeline.carried.landed) wake();
    });
    pipeline.carried.onLanded = null;
  }
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  log('poll loop stopped');
}
