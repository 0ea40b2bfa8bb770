// The registry's figures as data/sources.md prints them (rows, platforms, evidence, coverage, shared hosts, the
// largest utilities not covered) and the rows of data/uncovered-utilities.csv: both derived from data/sources.csv and
// the committed coverage tables, never the other way round. scripts/registry-summary.ts writes them; a test keeps
// the committed copies equal to what this module computes.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { coverageFor, type CoverageData } from '../coverage/document.ts';
import { REGISTRY_CSV, loadRegistry } from './registry.ts';
import type { SourceDef } from '../sources/source-def.ts';

export const SUMMARY_MARKERS = [
  '<!-- generated from data/sources.csv by scripts/registry-summary.ts: start -->',
  '<!-- generated from data/sources.csv by scripts/registry-summary.ts: end -->',
] as const;
export const UNCOVERED_COLUMNS = ['eia_id', 'utility', 'states', 'customers', 'reason'] as const;
type Uncovered = CoverageData['national']['largest_uncovered'][number];

const fmt = (n: number) => n.toLocaleString('en-US');
const pct = (n: number) => `${n.toFixed(1)} %`;

/** "gated: <reason> (row cmp-maine)": the reason in words, with the row that names the utility. */
export function reasonText(u: Uncovered): string {
  const label = u.reason.replace(/_/g, ' ');
  const plain = u.reason === 'no_public_feed' || u.reason === 'state_not_in_feed' || u.detail.startsWith(label);
  const row = u.source_id && u.reason !== 'state_not_in_feed' ? ` (row ${u.source_id})` : '';
  return `${plain ? u.detail : `${label}: ${u.detail}`}${row}`;
}

/** The rows of data/uncovered-utilities.csv: the 20 largest US utilities without an active row of their own. */
export function uncoveredRows(coverage: CoverageData): Array<Record<(typeof UNCOVERED_COLUMNS)[number], string>> {
  return coverage.national.largest_uncovered.map((u) => ({
    eia_id: String(u.eia_id),
    utility: u.utility,
    states: u.states.join(';'),
    customers: String(u.customers),
    reason: reasonText(u),
  }));
}

/** Counts per key, most first (ties by key), as table lines. */
function countBy<T>(items: T[], key: (t: T) => string, add: (t: T) => number = () => 1): Array<[string, number]> {
  const by = new Map<string, number>();
  for (const t of items) by.set(key(t), (by.get(key(t)) ?? 0) + add(t));
  return [...by].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

function platformLines(active: SourceDef[], platform: Map<string, string>): string[] {
  const of = (s: SourceDef) => platform.get(s.id) || s.connector;
  const rows = countBy(active, of).map(([p, n]) => {
    const customers = active.filter((s) => of(s) === p).reduce((sum, s) => sum + (s.customers ?? 0), 0);
    return { p, n, customers };
  });
  return [
    '| platform | active rows | customers (EIA-861 2018) |',
    '| --- | ---: | ---: |',
    ...rows
      .sort((a, b) => b.customers - a.customers || a.p.localeCompare(b.p))
      .map((r) => `| ${r.p} | ${r.n} | ${r.p === 'odin' ? '(baseline, meters)' : fmt(r.customers)} |`),
  ];
}

function evidenceLines(active: SourceDef[], platform: Map<string, string>): string[] {
  const of = (s: SourceDef) => platform.get(s.id) || s.connector;
  const count = (rows: SourceDef[], e: string) => rows.filter((s) => s.evidence === e).length;
  const line = (name: string, rows: SourceDef[]) =>
    `| ${name} | ${count(rows, 'own')} | ${count(rows, 'platform')} | ${count(rows, 'none')} |`;
  return [
    '| platform | own | platform | none |',
    '| --- | ---: | ---: | ---: |',
    ...countBy(active, of).map(([p]) =>
      line(
        p,
        active.filter((s) => of(s) === p),
      ),
    ),
    line('**all**', active),
  ];
}

function coverageLines(c: CoverageData): string[] {
  const us = c.national;
  const states = [...c.states]
    .filter((s) => !s.territory)
    .sort((a, b) => b.customers - b.customers_own_feed - (a.customers - a.customers_own_feed))
    .slice(0, 10);
  return [
    'Own-feed coverage, in the 50 states and DC, two ways (`outage coverage` and `/api/v1/coverage` report both):',
    '',
    `- **without credentials** (gated rows not covered): ${fmt(us.customers_own_feed)} of ${fmt(us.customers)} US customers = **${pct(us.pct_own_feed)}**;`,
    `- **with every credential the registry names** (${c.credentials.env.map((e) => `\`${e}\``).join(', ') || 'none'}): also the ${c.credentials.sources.length} gated rows that only want it (${c.credentials.sources.join(', ') || 'none'}): ${fmt(us.customers_own_feed_with_credentials)} = **${pct(us.pct_own_feed_with_credentials)}**.`,
    '',
    'Largest gaps by state (customers without an active deep row), with both figures:',
    '',
    '| state | customers | own feeds, no credentials | share | own feeds, with credentials | share |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...states.map(
      (s) =>
        `| ${s.scope} | ${fmt(s.customers)} | ${fmt(s.customers_own_feed)} | ${pct(s.pct_own_feed)} | ${fmt(s.customers_own_feed_with_credentials)} | ${pct(s.pct_own_feed_with_credentials)} |`,
    ),
  ];
}

/** The markdown between the markers of data/sources.md. */
export function registrySummary(registryFile: string, coverage = coverageFor(registryFile)): string {
  const records = (parse(readFileSync(registryFile), REGISTRY_CSV) as Array<{ record: Record<string, string> }>).map(
    (r) => r.record,
  );
  const platform = new Map(records.map((r) => [r.id, r.platform || r.connector]));
  const statuses = (st: string) => records.filter((r) => r.status === st).length;
  // the rows polled where no credential is set (as coverage counts them)
  const active = loadRegistry(registryFile, { env: {} }).sources;
  const hosts = countBy(active, (s) => new URL(s.url).host).filter(([, n]) => n >= 5);
  return [
    `Rows: ${records.length} (${statuses('active')} active, ${statuses('gated')} gated, ${statuses('disabled')} disabled).`,
    '',
    ...platformLines(active, platform),
    '',
    'What proves each active row is read right (the `evidence` column above): `own` — a real capture of',
    "the row's own feed is one of its fixtures; `platform` — only another utility's real capture of the same platform;",
    '`none` — only a hand-made or edited sample (`data/fixture-samples.csv`).',
    '',
    ...evidenceLines(active, platform),
    '',
    ...coverageLines(coverage),
    '',
    'Hosts shared by five or more active rows (the scheduler polls each host with limited concurrency):',
    '',
    ...hosts.map(([h, n]) => `- \`${h}\`: ${n} rows`),
    '',
    'The 20 largest EIA-861 utilities in the 50 states and DC without an active row (also `data/uncovered-utilities.csv`):',
    '',
    '| eia_id | utility | states | customers | reason |',
    '| --- | --- | --- | ---: | --- |',
    ...uncoveredRows(coverage).map(
      (u) => `| ${u.eia_id} | ${u.utility} | ${u.states} | ${fmt(Number(u.customers))} | ${u.reason} |`,
    ),
  ].join('\n');
}
