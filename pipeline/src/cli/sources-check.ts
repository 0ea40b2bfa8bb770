// `outage sources check`: the registry checks of registry/check.ts over one file, as a table of problems.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CommanderError, Option, type Command } from 'commander';
import { log } from './common.ts';
import type { CheckProblem } from '../registry/findings.ts';
import type { CheckReport } from '../registry/check.ts';

interface CheckConfig {
  sources: string;
  eiaDir: string;
  fixtures: string;
  shipped: boolean;
  json: boolean;
}

/**
 * The parent `sources` command declares --sources and --json too, and commander lets a parent take its own options
 * wherever they stand; so a value the user typed is looked for on both, this command's default used otherwise.
 */
function optionValue(cmd: Command, name: string): unknown {
  for (const c of [cmd, cmd.parent]) if (c && c.getOptionValueSource(name) === 'cli') return c.getOptionValue(name);
  return cmd.getOptionValue(name);
}

export function registerCheck(sources: Command): void {
  sources
    .command('check')
    .description(
      'check a registry file: columns, ids, URL shapes, placeholders, status, EIA-861 ids/customers/states, fixtures; exits 1 on any error',
    )
    .option('--sources <file>', 'source registry CSV', 'data/sources.csv')
    // The defaults are resolved when the check runs (registry/eia-reference.ts names them).
    .addOption(
      new Option(
        '--eia-dir <dir>',
        "directory with the EIA-861 2018 reference tables eia861-utilities.csv and eia861-territory.csv (default: the repository's data/reference)",
      ),
    )
    .addOption(
      new Option(
        '--fixtures <dir>',
        'directory the `fixture` column is relative to (default: ../shared/data beside the repository, or $OUTAGE_SHARED_DATA)',
      ),
    )
    .option('--local', 'a local test registry: loopback hosts allowed, the shipped columns and status optional')
    .option('--json', 'print the problems as a JSON array instead of a table')
    .action(async (_opts: unknown, cmd: Command) => {
      // `../shared/data` beside the repository (or $OUTAGE_SHARED_DATA): where a row's `fixture` path points.
      const { EIA_DIR, SHARED_DATA_DIR } = await import('../registry/eia-reference.ts');
      const cfg: CheckConfig = {
        sources: path.resolve(String(optionValue(cmd, 'sources'))),
        eiaDir: path.resolve(String(cmd.getOptionValue('eiaDir') ?? EIA_DIR)),
        fixtures: path.resolve(String(cmd.getOptionValue('fixtures') ?? SHARED_DATA_DIR)),
        shipped: cmd.getOptionValue('local') !== true,
        json: optionValue(cmd, 'json') === true,
      };
      const report = await runCheck(cfg);
      const errors = report.problems.filter((p) => p.severity === 'error').length;
      if (cfg.json) process.stdout.write(`${JSON.stringify(report.problems, null, 2)}\n`);
      else process.stdout.write(formatReport(report, cfg.sources));
      // The exit status is the verdict: CommanderError is the typed way out that index.ts turns into an exit code.
      if (errors > 0) throw new CommanderError(1, 'outage.sources.check', `${errors} error(s) in ${cfg.sources}`);
    });
}

async function runCheck(cfg: CheckConfig): Promise<CheckReport> {
  const t0 = Date.now();
  const [{ loadEiaReference }, { replayFixtures }, { checkRegistryFile }, { loadFixtureSamples }] = await Promise.all([
    import('../registry/eia-reference.ts'),
    import('../registry/replay.ts'),
    import('../registry/check.ts'),
    import('../registry/evidence.ts'),
  ]);
  const eia = loadEiaReference(cfg.eiaDir);
  const eiaNote = eia
    ? `EIA-861 ${eia.year} reference: ${path.dirname(eia.files.customers)}`
    : `EIA-861 reference not found in ${cfg.eiaDir}: eia_id, customers and states not checked`;
  const fixtureRoot = existsSync(cfg.fixtures) ? cfg.fixtures : null;
  // A fixture may be a saved probe directory: replayed through the connector's real fetch code, on loopback only.
  const options = { eia, fixtureRoot, shipped: cfg.shipped, samples: loadFixtureSamples() };
  const report = checkRegistryFile(cfg.sources, {
    ...options,
    parseFixture: await replayFixtures(cfg.sources, options),
  });
  log(`${eiaNote}; fixtures: ${fixtureRoot ?? `${cfg.fixtures} not found`} · ${Date.now() - t0} ms`);
  return report;
}

const COLUMNS = ['line', 'severity', 'id', 'column', 'message'] as const;

/** A plain table (line, severity, id, column, message) and one summary line. */
export function formatReport(report: CheckReport, file: string): string {
  const cells = (p: CheckProblem) => [
    p.line === 0 ? '-' : String(p.line),
    p.severity,
    p.id ?? '',
    p.column ?? '',
    p.message,
  ];
  const rows = report.problems.map(cells);
  const widths = COLUMNS.slice(0, 4).map((c, i) => Math.max(c.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    `${r
      .slice(0, 4)
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')}  ${r[4]}`.trimEnd();
  const table = rows.length ? `${[line([...COLUMNS]), ...rows.map(line)].join('\n')}\n` : '';
  const errors = report.problems.filter((p) => p.severity === 'error').length;
  const warnings = report.problems.length - errors;
  const statuses = Object.entries(report.by_status)
    .map(([s, n]) => `${n} ${s}`)
    .join(', ');
  const verdict = errors ? 'FAILED' : 'OK';
  return `${table}${verdict}: ${path.relative(process.cwd(), file) || file}: ${report.rows} rows${statuses ? ` (${statuses})` : ''}, ${errors} error(s), ${warnings} warning(s)\n`;
}
