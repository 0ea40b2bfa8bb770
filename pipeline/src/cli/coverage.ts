// `outage coverage`: how much of the country a registry covers (EIA-861 customers by own feed without credentials and
// with every credential the registry names, ODIN only, not covered, per state) and the largest utilities not
// covered, with the reason; a table, or the JSON document.
import path from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { coverageFor, type CoverageData } from '../coverage/document.ts';

const fmt = (n: number) => n.toLocaleString('en-US');
const pct = (n: number) => `${n.toFixed(2)} %`;

/** Columns padded to their widest cell; numbers right-aligned. */
function table(head: string[], rows: string[][], right: boolean[]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (right[i] ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(head), ...rows.map(line)].join('\n');
}

/** The plain-text report: the nation and every state (largest gap first), then the largest uncovered utilities. */
export function formatCoverage(data: CoverageData, limit: number): string {
  const scopes = [
    data.national,
    ...[...data.states].sort(
      (a, b) => b.customers_not_covered - a.customers_not_covered || a.scope.localeCompare(b.scope),
    ),
  ];
  const scopeRows = scopes.map((s) => [
    s.scope + (s.territory ? '*' : ''),
    fmt(s.customers),
    pct(s.pct_own_feed),
    pct(s.pct_own_feed_with_credentials),
    pct(s.pct_odin_only),
    pct(s.pct_covered),
    fmt(s.customers_not_covered),
    pct(s.pct_not_covered),
  ]);
  const gaps = data.national.largest_uncovered
    .slice(0, limit)
    .map((u) => [String(u.eia_id), u.utility, u.states.join(';'), fmt(u.customers), u.reason, u.source_id ?? '']);
  const creds = data.credentials;
  return [
    `Coverage of ${data.registry}: EIA-861 2018 customers by how they are seen (US = the 50 states and DC; * = territory, not in US).`,
    'own feed: rows polled without any credential (gated rows not covered); + credentials: also the gated rows that only want the',
    'credential they name; ODIN only, covered and not covered are without credentials.',
    '',
    table(
      ['scope', 'customers', 'own feed', '+ credentials', 'ODIN only', 'covered', 'not covered', 'share'],
      scopeRows,
      [false, true, true, true, true, true, true, true],
    ),
    '',
    creds.sources.length
      ? `+ credentials counts ${creds.sources.length} gated row(s) as polled: ${creds.sources.join(', ')} (set ${creds.env.join(', ')}).`
      : '+ credentials: the registry names no credential.',
    '',
    `The ${gaps.length} largest utilities not covered (US):`,
    table(['eia_id', 'utility', 'states', 'customers', 'reason', 'row'], gaps, [
      true,
      false,
      false,
      true,
      false,
      false,
    ]),
    '',
    `ODIN only: ${data.odin_estimate.method}`,
    '',
  ].join('\n');
}

const positive = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`expected a whole number ≥ 1, got \`${v}\``);
  return n;
};

export function register(program: Command): void {
  program
    .command('coverage')
    .description(
      'how much of the US a registry covers: EIA-861 customers per state by own feed, ODIN only (estimate) and not covered, and the largest utilities not covered with the reason',
    )
    .option('--sources <file>', 'source registry CSV', 'data/sources.csv')
    .option('--limit <n>', 'how many of the largest uncovered utilities to list', positive, 20)
    .option('--json', 'print the /api/v1/coverage document (its `data` member) instead of a table')
    .action((opts: { sources: string; limit: number; json?: boolean }) => {
      const data = coverageFor(path.resolve(opts.sources), { limit: opts.limit });
      process.stdout.write(opts.json ? `${JSON.stringify(data, null, 2)}\n` : formatCoverage(data, opts.limit));
    });
}
