// `outage sources`: the registry the state directory is polled from (beside `npm start`, the simulated one it wrote)
// with each source's status (sources-status.ts), as an aligned table that fits the terminal, or `--json`. DuckDB and
// the health queries load when the command runs (the CLI loads this module for its options).
import type { Command } from 'commander';
import { addCommonOptions, clockFor, loadSources, log, parseCommon, registryOfState } from './common.ts';
import type { SourceRow, StatusFrom } from './sources-status.ts';
import { formatTable, outputWidth, type Column } from './table.ts';
import { registerCheck } from './sources-check.ts';
import { registerParse, registerProbe } from './sources-probe.ts';
import { registerVerify } from './sources-verify.ts';
import { terminalJson } from '../terminal-text.ts';

export function register(program: Command): void {
  const sources = addCommonOptions(
    program
      .command('sources')
      .description(
        "list the registry the state directory is polled from (`outage start`'s simulated one beside it) with each source's live status",
      ),
  )
    .option('--json', 'print JSON instead of a table')
    .action(async (raw: Record<string, unknown>, cmd: Command) => {
      const cfg = parseCommon(raw);
      const registry = registryOfState(cfg, cmd);
      const defs = await loadSources(registry.file, log);
      const now = clockFor(cfg, true)();
      const { sourcesStatus } = await import('./sources-status.ts');
      const { rows, status } = await sourcesStatus(
        { stateDir: cfg.state, outDir: cfg.out, simulated: registry.simulated, now },
        defs,
      );
      log(provenance(rows, registry, status));
      if (raw.json) process.stdout.write(`${terminalJson(rows)}\n`);
      else process.stdout.write(`${formatTable(rows, columns(now), outputWidth())}\n`);
    });
  registerCheck(sources);
  registerProbe(sources);
  registerParse(sources);
  registerVerify(sources);
}

/** The lines beside the table: which registry, where the statuses came from, and how many are fresh. */
function provenance(rows: SourceRow[], registry: { file: string; simulated: boolean }, status: StatusFrom): string {
  const count = (f: SourceRow['freshness']) => rows.filter((r) => r.freshness === f).length;
  const which = registry.simulated ? ' (SIMULATED: the registry `outage start` wrote there, and polls)' : '';
  const first = (why: string) => why.split(/\.\s/)[0].replace(/\.$/, '');
  const from =
    status.from === 'state'
      ? `status from the state database in ${status.dir}`
      : status.from === 'published'
        ? `status as the running poller last published it (${status.file}, generated ${utc(status.generated_at)}): ${first(status.because)}`
        : `no status: ${first(status.because)}`;
  return [
    `${rows.length} sources in ${registry.file}${which}`,
    `${from}`,
    `${count('fresh')} fresh, ${count('stale')} stale, ${count('never polled')} never polled`,
  ].join('\n');
}

const utc = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/** A duration a person reads: `45 s`, `12 min`, `3 h`, `2 d`. */
function span(ms: number): string {
  const s = Math.round(Math.abs(ms) / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  if (s < 172_800) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86_400)} d`;
}

const pct = (v: number | null | undefined) => (v === null || v === undefined ? '' : `${Math.round(v * 100)} %`);
/** Long messages (a quoted answer) are cut here too: the JSON has them whole. */
const ERROR_CELL = 100;

/** The table's columns in plain words; on a narrow terminal the ones with the highest dropOrder go first. */
function columns(now: Date): Column<SourceRow>[] {
  const ago = (iso: string | null) => (iso ? `${span(now.getTime() - Date.parse(iso))} ago` : 'never');
  const due = (iso: string | null) =>
    !iso ? '' : Date.parse(iso) <= now.getTime() ? 'due now' : `in ${span(Date.parse(iso) - now.getTime())}`;
  return [
    { header: 'Source', value: (r) => r.id, shrinkTo: 12 },
    { header: 'Utility', value: (r) => r.utility, shrinkTo: 16 },
    { header: 'Platform', value: (r) => r.connector, dropOrder: 6 },
    { header: 'Polled every', value: (r) => `${r.interval_min} min`, align: 'right', dropOrder: 5 },
    { header: 'Status', value: (r) => r.freshness },
    { header: 'Last success', value: (r) => ago(r.last_success_at), align: 'right', dropOrder: 3 },
    { header: 'Next poll', value: (r) => due(r.next_due_at), align: 'right', dropOrder: 7 },
    { header: 'Out', value: (r) => r.customers_out?.toLocaleString('en-US'), align: 'right' },
    { header: 'OK 24 h', value: (r) => pct(r.health?.last_24h.success_rate), align: 'right', dropOrder: 4 },
    {
      header: 'Stale 24 h',
      value: (r) => (r.health ? `${r.health.last_24h.minutes_stale} min` : ''),
      align: 'right',
      dropOrder: 2,
    },
    {
      header: 'Last error',
      value: (r) => (r.last_reason ? `${r.last_reason}: ${r.last_error ?? ''}`.slice(0, ERROR_CELL) : ''),
      shrinkTo: 16,
    },
  ];
}
