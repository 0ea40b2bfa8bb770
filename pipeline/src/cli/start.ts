// `outage start`: the embedded default — the source simulator, the polling pipeline and the local server together.
// The CLI loads this module for every command (its options): the run itself is in start-run.ts, loaded after the
// server thread has started, so the page of a later start does not wait for those modules.
import type { Command } from 'commander';
import fs, { mkdirSync } from 'node:fs';
import path from 'node:path';
import { addCommonOptions, parseCommon } from './common.ts';
import { serverWorker } from '../serve/worker-server.ts';
import { readManifest } from '../publish/tree-parts.ts';
import { UsageError } from '../errors.ts';
import type { AccountsRuntime } from '../accounts/runtime.ts';
import type { HistoryFile } from './start-run.ts';

/** The history files of `--history-dir` with their kinds (checked before anything starts). */
async function historyFiles(dir: string): Promise<HistoryFile[]> {
  const { importKindOf } = await import('../history/import.ts');
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

/** `--storm-pace`, checked before anything starts: storm hours per clock hour, above 0 and at most 1000. */
function checkStormPace(raw: Record<string, unknown>): void {
  const pace = Number(raw.stormPace);
  if (!(pace > 0) || pace > 1000)
    throw new UsageError(`--storm-pace wants a number above 0 and at most 1000, not \`${raw.stormPace}\``);
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
    .option(
      '--storm-pace <n>',
      'how many times faster than the clock the SIMULATED storm plays (timestamps stay real time; 1 = a 48-hour storm)',
      '12',
    )
    .option('--no-history', 'do not generate and import the SIMULATED decade of history')
    .option('--history-dir <dir>', 'import the real history files in this directory instead of the SIMULATED decade')
    .action(async (raw: Record<string, unknown>, cmd: Command) => {
      liveDirs(raw, cmd);
      checkStormPace(raw);
      const cfg = parseCommon(raw);
      const realHistory = typeof raw.historyDir === 'string' ? await historyFiles(path.resolve(raw.historyDir)) : null;
      mkdirSync(cfg.state, { recursive: true });
      // The account database opens after the first map (a fresh embedded one takes seconds to create); account
      // requests wait for it.
      let openAccounts: (a: Promise<AccountsRuntime>) => void = () => {};
      const accounts = new Promise<AccountsRuntime>((resolve) => (openAccounts = resolve));
      const service = accounts.then((a) => a.service);
      service.catch(() => {}); // a failure to open is reported where `accounts` is awaited
      // The server runs on its own thread (made by bin/outage.js while the CLI loaded): the first cycle's long
      // synchronous stretches here do not hold up the page.
      const thread = serverWorker();
      const port = Number(raw.port);
      const baseUrl = raw.baseUrl === 'http://127.0.0.1:8787' ? `http://127.0.0.1:${port}` : cfg.baseUrl;
      const serving = { outDir: cfg.out, stateDir: cfg.state, port, baseUrl, accounts: service };
      // A later start serves the last published generation at once, before this thread loads anything else (on two
      // cores, loading both at once delays the page). A first start serves after its first cycle (the page says
      // SIMULATED from the published tree); meanwhile the thread prepares the page and the geometry.
      const early = readManifest(cfg.out) ? await thread.listen(serving) : null;
      thread.warm(cfg.state);
      const { runStart } = await import('./start-run.ts');
      await runStart({ raw, cfg, realHistory, thread, serving, early, openAccounts, accounts });
    });
}
