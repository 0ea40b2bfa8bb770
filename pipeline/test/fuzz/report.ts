// Fuzz results per connector: the issue's table (cycles that failed, hung, published absurd values) plus how the
// mutated sources answered, and the first failing cases with what reproduces each.
import type { CaseOutcome } from './harness.ts';
import type { Mutation } from './mutations.ts';
import { CONNECTORS } from '../../src/sources/source-def.ts';

export const DEFAULT_SEED = 20_261_016;

/** Each connector gets its own stream of cases from the one seed. */
export const seedFor = (seed: number, connector: string): number =>
  (seed + (CONNECTORS as readonly string[]).indexOf(connector) * 7_919) | 0;

export interface Failure {
  index: number;
  mutation: Mutation | null;
  route: string | null;
  problem: string;
}

export interface Tally {
  connector: string;
  cases: number;
  /** cycles that threw (the CLI would exit non-zero) */
  nonZero: number;
  hung: number;
  /** cases that published an absurd value (off-schema documents counted apart) */
  absurd: number;
  offSchema: number;
  /** cycles that completed but did not publish the neighbour's fresh count */
  neighbourLost: number;
  /** how the fixture's sources answered the mutated cycles: `ok` or the failure reason, per source poll */
  polls: Record<string, number>;
  failures: Failure[];
  ms: number;
}

/** What is wrong with one case, or null. */
export function problemOf(o: CaseOutcome): string | null {
  if (o.threw) return `the cycle threw: ${o.threw.split('\n').slice(0, 3).join(' | ')}`;
  if (o.hung) return `the cycle took ${o.ms} ms (hung past the limit)`;
  if (o.neighbour) return `the neighbour's data was not published: ${o.neighbour}`;
  if (o.absurd.length)
    return `absurd values published: ${o.absurd
      .slice(0, 3)
      .map((a) => `${a.file} ${a.where} = ${JSON.stringify(a.value)} (${a.rule})`)
      .join('; ')}`;
  return null;
}

export function tally(connector: string, outcomes: CaseOutcome[], ms: number): Tally {
  const t: Tally = {
    connector,
    cases: outcomes.length,
    nonZero: 0,
    hung: 0,
    absurd: 0,
    offSchema: 0,
    neighbourLost: 0,
    polls: {},
    failures: [],
    ms,
  };
  outcomes.forEach((o, index) => {
    if (o.threw) t.nonZero += 1;
    if (o.hung) t.hung += 1;
    if (o.absurd.some((a) => !a.rule.includes('schema '))) t.absurd += 1;
    if (o.absurd.some((a) => a.rule.includes('schema '))) t.offSchema += 1;
    if (o.neighbour && !o.threw) t.neighbourLost += 1;
    for (const p of Object.values(o.polls)) t.polls[p] = (t.polls[p] ?? 0) + 1;
    const problem = problemOf(o);
    if (problem && t.failures.length < 5) t.failures.push({ index, mutation: o.mutation, route: o.route, problem });
  });
  return t;
}

const pad = (rows: string[][]): string => {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`).join('\n');
};

/** The issue's table, one row per connector, as Markdown. */
export function table(tallies: Tally[]): string {
  const rows = [
    [
      'connector',
      'cycles that exited non-zero',
      'hung past 60 s',
      'absurd values published',
      'off-schema documents',
      'neighbour not published',
      'source polls (ok / reasons)',
      'seconds',
    ],
  ];
  rows.push(rows[0].map((h) => '-'.repeat(Math.max(3, Math.min(h.length, 3)))));
  for (const t of tallies) {
    const polls = Object.entries(t.polls)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    rows.push([
      t.connector,
      `${t.nonZero} / ${t.cases}`,
      String(t.hung),
      String(t.absurd),
      String(t.offSchema),
      String(t.neighbourLost),
      polls,
      (t.ms / 1000).toFixed(0),
    ]);
  }
  return pad(rows);
}

/** How to rerun one failing case (cases are independent: each starts from the recordings' state). */
export const reproduce = (seed: number, connector: string, index: number): string =>
  `FUZZ_SEED=${seed} FUZZ_CONNECTORS=${connector} FUZZ_CASE=${index} npm run fuzz`;
