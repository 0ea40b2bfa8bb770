// `npm run fuzz`: the full connector fuzz (issue 16) — FUZZ_RUNS mutations (default 200) of every connector's real
// payloads, each a cycle beside a healthy neighbour, then FUZZ_CLI_RUNS real `outage poll --once` runs with every
// connector mutated at once; prints the table per connector and exits 1 when any case failed.
// Env: FUZZ_SEED (default 20261016), FUZZ_RUNS, FUZZ_CONNECTORS (comma list), FUZZ_CASE (rerun one case), FUZZ_CLI_RUNS.
import fc from 'fast-check';
import { FIXTURES, fixtureFor } from '../pipeline/test/fuzz/fixtures.ts';
import { ConnectorFuzz, type CaseOutcome } from '../pipeline/test/fuzz/harness.ts';
import { mutationArb } from '../pipeline/test/fuzz/mutations.ts';
import { DEFAULT_SEED, problemOf, reproduce, seedFor, table, tally, type Tally } from '../pipeline/test/fuzz/report.ts';
import { cliRun } from '../pipeline/test/fuzz/cli.ts';
import { loadAtlas } from '../pipeline/src/geo/counties.ts';

const int = (name: string, fallback: number): number => {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  if (!/^-?\d+$/.test(v)) throw new Error(`${name} must be a whole number, got \`${v}\``);
  return Number(v);
};
const seed = int('FUZZ_SEED', DEFAULT_SEED);
const runs = int('FUZZ_RUNS', 200);
const only = process.env.FUZZ_CASE ? int('FUZZ_CASE', 0) : null;
const cliRuns = int('FUZZ_CLI_RUNS', only === null ? 5 : 0);
const fixtures = process.env.FUZZ_CONNECTORS
  ? process.env.FUZZ_CONNECTORS.split(',').map((c) => fixtureFor(c.trim()))
  : FIXTURES;

/** The cases of one connector: the same seed always gives the same mutations. */
const casesOf = (connector: string, routes: number) =>
  fc.sample(mutationArb(routes), { seed: seedFor(seed, connector), numRuns: only === null ? runs : only + 1 });

async function fuzzConnector(connector: string): Promise<Tally> {
  const fixture = fixtureFor(connector);
  const t0 = Date.now();
  const fuzz = await ConnectorFuzz.open(fixture);
  const outcomes: CaseOutcome[] = [];
  try {
    const base = await fuzz.run(null);
    const baseProblem =
      problemOf(base) ??
      Object.entries(base.polls)
        .find(([, p]) => p !== 'ok')
        ?.join(': ');
    if (baseProblem)
      throw new Error(`${connector}: the unmutated recordings already fail (${baseProblem}); fix the fixture first`);
    const cases = casesOf(connector, fixture.routes.length);
    for (let i = only ?? 0; i < cases.length; i++) {
      const o = await fuzz.run(cases[i]);
      outcomes.push(o);
      const problem = problemOf(o);
      if (problem || only !== null)
        console.log(
          `  ${connector} case ${i}: ${JSON.stringify(o.mutation)} on ${o.route} → ${problem ?? 'ok'} (${JSON.stringify(o.polls)}, ${o.ms} ms)`,
        );
    }
  } finally {
    await fuzz.close();
  }
  const t = tally(connector, outcomes, Date.now() - t0);
  if (only !== null) for (const f of t.failures) f.index = only; // the one outcome is that case
  return t;
}

async function cliRounds(): Promise<string[]> {
  const lines: string[] = [];
  for (let r = 0; r < cliRuns; r++) {
    const cases = fixtures.map((f) => ({
      fixture: f,
      mutation: fc.sample(mutationArb(f.routes.length), {
        seed: seedFor(seed + 1_000_003 * (r + 1), f.connector),
        numRuns: 1,
      })[0],
    }));
    const o = await cliRun(cases);
    const problems = [
      o.status !== 0 && `exit ${o.status}`,
      o.hung && 'hung',
      o.neighbour,
      o.absurd.length && `${o.absurd.length} absurd values, first ${JSON.stringify(o.absurd[0])}`,
    ].filter(Boolean);
    lines.push(
      `| ${r + 1} | ${o.status} | ${o.hung ? 'yes' : 'no'} | ${(o.ms / 1000).toFixed(1)} | ${o.neighbour ? 'no' : 'yes'} | ${o.absurd.length} |`,
    );
    if (problems.length)
      console.log(`  CLI run ${r + 1}: ${problems.join('; ')}\n    ${o.stderr.split('\n').slice(-8).join('\n    ')}`);
  }
  return lines;
}

loadAtlas(); // seconds of synchronous work: before any server or deadline runs
console.log(
  `connector fuzz: seed ${seed}, ${only === null ? `${runs} mutations per connector` : `case ${only} only`}, ${fixtures.length} connectors`,
);
const tallies: Tally[] = [];
for (const f of fixtures) {
  const t = await fuzzConnector(f.connector);
  tallies.push(t);
  console.log(
    `${f.connector}: ${t.cases} cases in ${(t.ms / 1000).toFixed(0)} s: ${t.nonZero} non-zero, ${t.hung} hung, ${t.absurd} absurd, ${t.offSchema} off-schema, ${t.neighbourLost} neighbour lost`,
  );
}
console.log(`\n${table(tallies)}\n`);
const failing = tallies.flatMap((t) => t.failures.map((f) => ({ connector: t.connector, ...f })));
for (const f of failing)
  console.log(
    `FAILED ${f.connector} case ${f.index}: ${JSON.stringify(f.mutation)} on ${f.route}\n  ${f.problem}\n  rerun: ${reproduce(seed, f.connector, f.index)}`,
  );
const cli = await cliRounds();
if (cli.length)
  console.log(
    `\nreal CLI (poll --once, every connector mutated at once):\n| run | exit | hung | seconds | neighbour published | absurd values |\n| --- | --- | --- | --- | --- | --- |\n${cli.join('\n')}`,
  );
const cliBad = cli.some((l) => !/^\| \d+ \| 0 \| no \| [\d.]+ \| yes \| 0 \|$/.test(l));
process.exitCode = failing.length || cliBad ? 1 : 0;
