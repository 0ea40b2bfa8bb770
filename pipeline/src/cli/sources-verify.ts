// `outage sources verify`: every active registry row probed once, politely, with a report for the terminal (or
// --json), a Markdown file, and the state directory (the next publish serves it at /api/v1/sources/verification).
// The connectors load when it runs (the CLI loads this module for its options).
import path from 'node:path';
import { CommanderError, Option, type Command } from 'commander';
import { UsageError } from '../errors.ts';
import { writeFileAtomic } from '../publish/atomic-write.ts';
import { DEFAULT_HTTP } from '../sources/http.ts';
import type { SourceDef } from '../sources/source-def.ts';
import type { VerifyRow } from '../registry/verify-report.ts';
import { loadSources, log } from './common.ts';

export const VERIFY_DEFAULTS = { deadlineS: 900, concurrency: 8, markdown: 'verify-report.md' };

/** The parent `sources` command declares --sources, --state and --json too and takes them wherever they stand. */
function optionValue(cmd: Command, name: string): unknown {
  for (const c of [cmd, cmd.parent]) if (c && c.getOptionValueSource(name) === 'cli') return c.getOptionValue(name);
  return cmd.getOptionValue(name);
}

function positive(cmd: Command, name: string, flag: string, integer = false): number {
  const raw = cmd.getOptionValue(name);
  const n = Number(raw);
  if (!(n > 0) || (integer && !Number.isInteger(n)))
    throw new UsageError(`${flag}: expected ${integer ? 'a whole number' : 'a number'} above 0, got \`${raw}\``);
  return n;
}

/** --only ids (comma-separated) picked from the active rows; an id that is not one is a usage error. */
function pick(sources: SourceDef[], only: string | undefined): SourceDef[] {
  if (only === undefined) return sources;
  const ids = only.split(/[,\s]+/).filter(Boolean);
  const unknown = ids.filter((id) => !sources.some((s) => s.id === id));
  if (!ids.length || unknown.length)
    throw new UsageError(`--only: ${unknown.length ? `no active row \`${unknown.join('`, `')}\`` : 'no id given'}`);
  return sources.filter((s) => ids.includes(s.id));
}

/** A path as the report shows it: relative to the working directory when inside it (no runner paths published). */
const shown = (file: string): string => {
  const rel = path.relative(process.cwd(), file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
};

const progress = (r: VerifyRow, done: number, total: number): void =>
  log(`[${done}/${total}] ${r.id}: ${r.failure ? r.failure.kind : `ok, ${r.counties} counties`} · ${r.ms} ms`);

/** Resolves once the text is handed to the OS (index.ts exits right after the command; a pipe takes 64 KB at a time). */
const print = (text: string) =>
  new Promise<void>((resolve, reject) => process.stdout.write(text, (err) => (err ? reject(err) : resolve())));

export function registerVerify(sources: Command): void {
  sources
    .command('verify')
    .description(
      "probe every active registry row once, politely (polling's per-host limits and deadlines, a total deadline), and report per row: answer, parsed, customers, counties, territory, EIA-861 customers, time, and on failure what to do",
    )
    .option('--sources <file>', 'source registry CSV', 'data/sources.csv')
    .option('--state <dir>', 'directory the report is kept in for publishing (verify-report.json)', 'state')
    .option('--only <ids>', 'verify only these rows (comma-separated ids)')
    .option(
      '--save <dir>',
      "write every row's answers as a fixture: DIR/<id>/ with index.json, as `sources probe --save`",
    )
    .option('--markdown <file>', 'the Markdown report (default: <state>/verify-report.md)')
    .addOption(
      new Option('--deadline <seconds>', 'total deadline; rows not probed by then fail').default(
        VERIFY_DEFAULTS.deadlineS,
      ),
    )
    .addOption(
      new Option('--concurrency <n>', 'rows probed at once (the per-host limits hold across them)').default(
        VERIFY_DEFAULTS.concurrency,
      ),
    )
    .addOption(new Option('--timeout <seconds>', 'per-request deadline').default(DEFAULT_HTTP.requestDeadlineMs / 1000))
    .option(
      '--eia-dir <dir>',
      "directory with the EIA-861 2018 reference tables eia861-utilities.csv and eia861-territory.csv (default: the repository's data/reference)",
    )
    .option('--json', 'print the report as JSON instead of a table')
    .action(async (_opts: unknown, cmd: Command) => {
      const deadline = positive(cmd, 'deadline', '--deadline');
      const concurrency = positive(cmd, 'concurrency', '--concurrency', true);
      const timeoutMs = Math.round(positive(cmd, 'timeout', '--timeout') * 1000);
      const file = path.resolve(String(optionValue(cmd, 'sources')));
      const state = path.resolve(String(optionValue(cmd, 'state')));
      const markdown = path.resolve(
        String(cmd.getOptionValue('markdown') ?? path.join(state, VERIFY_DEFAULTS.markdown)),
      );
      const save = cmd.getOptionValue('save') as string | undefined;
      const rows = pick(await loadSources(file, log), cmd.getOptionValue('only') as string | undefined);
      const [{ runVerify, checkSaveDir }, { eiaCheck }, { EIA_DIR }, report, { VERIFY_REPORT_FILE }] =
        await Promise.all([
          import('../registry/verify.ts'),
          import('../registry/verify-eia.ts'),
          import('../registry/eia-reference.ts'),
          import('../registry/verify-report.ts'),
          import('../publish/verification.ts'),
        ]);
      if (save) checkSaveDir(path.resolve(save));
      const result = await runVerify(rows, {
        registry: shown(file),
        deadlineMs: deadline * 1000,
        concurrency,
        http: { requestDeadlineMs: timeoutMs, bodyTimeoutMs: Math.min(timeoutMs, DEFAULT_HTTP.bodyTimeoutMs) },
        saveDir: save ? path.resolve(save) : null,
        eia: eiaCheck(path.resolve(String(cmd.getOptionValue('eiaDir') ?? EIA_DIR))),
        onRow: progress,
      });
      const json = `${JSON.stringify(result, null, 2)}\n`;
      writeFileAtomic(path.join(state, VERIFY_REPORT_FILE), json);
      writeFileAtomic(markdown, report.formatMarkdown(result));
      log(
        `report: ${path.join(state, VERIFY_REPORT_FILE)} (published by the next cycle or \`outage build\`), ${markdown}`,
      );
      await print(optionValue(cmd, 'json') === true ? json : report.formatTerminal(result));
      // The exit status is the verdict (as `sources check`): 1 when any row failed, the report written all the same.
      if (result.summary.failed)
        throw new CommanderError(1, 'outage.sources.verify', `verify: ${report.verdict(result)}`);
    });
}
