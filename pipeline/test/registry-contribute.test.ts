// CONTRIBUTING's path, done as a contributor does it, so it cannot rot: a utility is a registry row plus a saved probe.
// The test takes a copy of data/sources.csv, adds one row by hand, saves a probe directory written by hand from a real
// recording (Flint Energies' Milsoft viewer, 10 October 2026: boundaries.json and outageSummary.json of one moment), and
// runs the real CLI: `outage sources check` on the copy (the probe replayed as the row's fixture) and `outage sources
// parse` on the probe. Every recorded US utility already has a row, so the copy first loses Flint EMC's own row: the
// one the test adds is then new to it. Figures are computed here from the recorded bodies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { fromRoot } from '../src/package-root.ts';
import { REGISTRY_COLUMNS, type CheckProblem } from '../src/registry/findings.ts';
import { makeTempDir, removeTempDir } from './clean-machine.ts';
import { hasSharedData, sharedJson, sharedPath } from './shared-data.ts';

const BIN = fileURLToPath(new URL('../../bin/outage.js', import.meta.url));
const RECORDED = 'payloads/milsoft/flint-emc';
const MOMENT = '2026-10-10T1053Z';
const PROBE = 'probes/flint-energies-2026-10-10';

/** The real CLI as a child process (killed before the test's timeout); a non-zero exit is returned, not thrown. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await promisify(execFile)(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 100_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number | string; stdout: string; stderr: string };
    if (typeof e.code !== 'number') throw err;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** EIA-861 2018 customers of a utility in a state, looked up in the committed reference as a contributor does. */
function eiaCustomers(utility: number, state: string): number {
  const rows = parse(fs.readFileSync(fromRoot('data/reference/eia861-utilities.csv')), { columns: true }) as Array<
    Record<string, string>
  >;
  const row = rows.find((r) => r.utility_number === String(utility) && r.state === state);
  if (!row?.customers) throw new Error(`EIA-861 2018 has no customers for ${utility} in ${state}`);
  return Number(row.customers);
}

/** The row a contributor writes (CONTRIBUTING step 2), in the shipped columns. */
const contributorRow = (customers: number): Record<string, string | number> => ({
  id: 'flint-energies',
  utility: 'Flint Energies',
  state: 'GA',
  connector: 'milsoft',
  url: 'https://outage.flintemc.com/data/boundaries.json',
  interval_min: 15,
  tier: 3,
  options: JSON.stringify({ referer: 'https://outage.flintemc.com/' }),
  customers,
  eia_id: 6411,
  platform: 'milsoft',
  customers_source: 'EIA-861 2018',
  map_page: 'https://outage.flintemc.com/',
  provenance: `the outage map's network requests, saved ${MOMENT} (data/boundaries.json, data/outageSummary.json); EIA-861 2018`,
  status: 'active',
  status_reason: '',
  fixture: PROBE,
  evidence: 'own',
  territory_extra: '',
});

/** The shipped registry without Flint EMC's row and with `row` at its place in id order; its line number. */
function registryWith(row: Record<string, string | number>): { text: string; line: number } {
  const lines = fs.readFileSync(fromRoot('data/sources.csv'), 'utf8').trimEnd().split('\n');
  const kept = lines.filter((l) => !l.startsWith('flint-emc,'));
  if (kept.length !== lines.length - 1) throw new Error('data/sources.csv has no single flint-emc row to take out');
  const added = stringify([REGISTRY_COLUMNS.map((c) => row[c] ?? '')]).trimEnd();
  const at = kept.findIndex((l, i) => i > 0 && l.split(',')[0] > String(row.id));
  kept.splice(at, 0, added);
  return { text: `${kept.join('\n')}\n`, line: at + 1 };
}

interface Boundary {
  name: string;
  customersOutNow: number;
  customersServed: number;
}

describe.skipIf(!hasSharedData)('a utility added the contributor way: a registry row and a saved probe', () => {
  const boundaries = (hasSharedData ? sharedJson(`${RECORDED}-boundaries-${MOMENT}.json`) : [{ boundaries: [] }]) as [
    { boundaries: Boundary[] },
  ];
  const summary = (hasSharedData ? sharedJson(`${RECORDED}-outagesummary-${MOMENT}.json`) : {}) as {
    customersOutNow: number;
    customersServed: number;
  };
  const counties = boundaries[0].boundaries;
  let dir = '';
  let fixtures = '';
  let probe = '';
  beforeAll(() => {
    dir = makeTempDir('contribute');
    // the recorded-data collection as a contributor has it: the shared payloads, and their own probe beside them
    fixtures = path.join(dir, 'shared-data');
    probe = path.join(fixtures, PROBE);
    fs.mkdirSync(probe, { recursive: true });
    fs.symlinkSync(sharedPath('payloads'), path.join(fixtures, 'payloads'));
    // "A saved probe, by hand": each answer's body byte for byte, and index.json naming the requests
    fs.copyFileSync(sharedPath(`${RECORDED}-boundaries-${MOMENT}.json`), path.join(probe, '01-boundaries.json'));
    fs.copyFileSync(sharedPath(`${RECORDED}-outagesummary-${MOMENT}.json`), path.join(probe, '02-outageSummary.json'));
    const index = {
      source: { url: 'https://outage.flintemc.com/data/boundaries.json', states: ['GA'], options: {} },
      requests: [
        { url: 'https://outage.flintemc.com/data/boundaries.json', file: '01-boundaries.json' },
        { url: 'https://outage.flintemc.com/data/outageSummary.json', file: '02-outageSummary.json' },
      ],
    };
    fs.writeFileSync(path.join(probe, 'index.json'), `${JSON.stringify(index, null, 2)}\n`);
  });
  afterAll(() => removeTempDir(dir));

  /** `sources check` on a copy of the registry holding `row`: the exit code, the row's line and every problem. */
  async function check(row: Record<string, string | number>) {
    const { text, line } = registryWith(row);
    const file = path.join(dir, 'sources.csv');
    fs.writeFileSync(file, text);
    const r = await cli('sources', 'check', '--sources', file, '--fixtures', fixtures, '--json');
    return { code: r.code, line, problems: JSON.parse(r.stdout) as CheckProblem[], stderr: r.stderr };
  }

  it('passes `sources check`, its probe replayed as the fixture, and fails it when the row or probe is wrong', async () => {
    const customers = eiaCustomers(6411, 'GA');
    const good = await check(contributorRow(customers));
    expect(good.code, good.stderr).toBe(0);
    expect(good.problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(good.problems.filter((p) => p.line === good.line)).toEqual([]);
    // the EIA-861 reference is the committed one: no warning that it is missing
    expect(good.problems.filter((p) => p.line === 0)).toEqual([]);

    const tooMany = await check(contributorRow(customers * 2));
    expect(tooMany.code).toBe(1);
    expect(tooMany.problems.filter((p) => p.severity === 'error')).toEqual([
      expect.objectContaining({ line: tooMany.line, id: 'flint-energies', column: 'customers' }),
    ]);

    fs.renameSync(path.join(probe, '01-boundaries.json'), path.join(probe, 'moved.json'));
    try {
      const broken = await check(contributorRow(customers));
      expect(broken.code).toBe(1);
      expect(broken.problems.filter((p) => p.severity === 'error')).toEqual([
        expect.objectContaining({
          line: broken.line,
          column: 'fixture',
          message: expect.stringMatching(/01-boundaries/),
        }),
      ]);
    } finally {
      fs.renameSync(path.join(probe, 'moved.json'), path.join(probe, '01-boundaries.json'));
    }
  }, 240_000);

  it("`sources parse` of the probe gives the recording's own figures", async () => {
    const r = await cli('sources', 'parse', '--connector', 'milsoft', probe, '--json');
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as {
      snapshot: { customers_out: number; customers_served: number; counties: Array<Record<string, number>> };
      national: { customers_out: number; customers_served: number; counties_out: number };
    };
    const sum = (f: (b: Boundary) => number) => counties.reduce((n, b) => n + f(b), 0);
    // the headline is the viewer's outageSummary; the counties are its boundaries, one per county
    expect(report.snapshot.customers_out).toBe(summary.customersOutNow);
    expect(report.snapshot.customers_served).toBe(summary.customersServed);
    expect(report.national.customers_out).toBe(sum((b) => b.customersOutNow));
    expect(report.national.customers_served).toBe(sum((b) => b.customersServed));
    expect(report.national.counties_out).toBe(counties.filter((b) => b.customersOutNow > 0).length);
    // a boundary with no customer out and none served is an unused polygon (the viewer skips it too)
    const used = counties.filter((b) => b.customersOutNow > 0 || b.customersServed > 0);
    expect(report.snapshot.counties).toHaveLength(used.length);
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    expect(sorted(report.snapshot.counties.map((c) => c.customers_out))).toEqual(
      sorted(used.map((b) => b.customersOutNow)),
    );
    expect(sorted(report.snapshot.counties.map((c) => c.customers_served))).toEqual(
      sorted(used.map((b) => b.customersServed)),
    );
    expect(r.stderr).toMatch(/replayed 2 of 2 saved answers/);
  }, 120_000);
});
