// The shipped registry passes `outage sources check` (a broken row fails CI with its line number), and the command
// itself: the table, the summary line, --json, and a non-zero exit on an error only.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { register } from '../src/cli/sources.ts';
import { formatReport, registerCheck } from '../src/cli/sources-check.ts';
import { EIA_DIR, loadEiaReference } from '../src/registry/eia-reference.ts';
import { loadFixtureSamples } from '../src/registry/evidence.ts';
import { checkRegistryFile } from '../src/registry/check.ts';
import type { CheckProblem } from '../src/registry/findings.ts';
import { SHARED_DATA, hasSharedData } from './shared-data.ts';

const SHIPPED = path.resolve(fileURLToPath(new URL('../../data/sources.csv', import.meta.url)));

describe('the shipped registry data/sources.csv', () => {
  it('has no error (warnings are listed, not failed)', () => {
    expect(existsSync(SHIPPED), SHIPPED).toBe(true);
    // the committed EIA-861 reference (data/reference) and samples list: no ../shared/data needed but for fixtures
    const eia = loadEiaReference();
    expect(eia).not.toBeNull();
    const samples = loadFixtureSamples();
    const report = checkRegistryFile(SHIPPED, { eia, fixtureRoot: hasSharedData ? SHARED_DATA : null, samples });
    expect(report.rows).toBeGreaterThan(0);
    expect(report.by_status.active).toBeGreaterThanOrEqual(250);
    const errors = report.problems.filter((p) => p.severity === 'error');
    // On failure the message is the table `outage sources check` prints, with line numbers.
    expect(errors, formatReport({ ...report, problems: errors }, SHIPPED)).toEqual([]);
  });
});

/** `outage sources check …` through the real `sources` command; stdout captured, the CommanderError returned. */
async function run(args: string[]): Promise<{ out: string; error: CommanderError | null }> {
  const program = new Command('outage').exitOverride();
  register(program);
  const sources = program.commands.find((c) => c.name() === 'sources')!;
  if (!sources.commands.some((c) => c.name() === 'check')) registerCheck(sources);
  sources.exitOverride();
  let out = '';
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => {
    out += String(s);
    return true;
  });
  const log = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    await program.parseAsync(['node', 'outage', 'sources', 'check', ...args]);
    return { out, error: null };
  } catch (err) {
    if (err instanceof CommanderError) return { out, error: err };
    throw err;
  } finally {
    write.mockRestore();
    log.mockRestore();
  }
}

describe('outage sources check', () => {
  let dir: string;
  const HEADER = 'id,utility,state,connector,url,interval_min,tier';
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sources-check-'));
    writeFileSync(
      path.join(dir, 'bad.csv'),
      `${HEADER}\nok-row,Kauai,HI,nisc,https://outagemap-data.cloud.coop/kiuc/Hosted_Outage_Map/summary.json,15,3\nbad-row,Example,HI,nisc,https://outages.example.com/data/summary.json,15,3\n`,
    );
    writeFileSync(
      path.join(dir, 'eia.csv'),
      `${HEADER},eia_id\nok-row,Kauai,HI,nisc,https://outagemap-data.cloud.coop/kiuc/Hosted_Outage_Map/summary.json,15,3,424242\n`,
    );
    writeFileSync(
      path.join(dir, 'good.csv'),
      `${HEADER}\nok-row,Kauai,HI,nisc,https://outagemap-data.cloud.coop/kiuc/Hosted_Outage_Map/summary.json,15,3\n`,
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(() => vi.restoreAllMocks());

  it('prints the table and a summary, and exits 1 on an error', async () => {
    const { out, error } = await run([
      '--sources',
      path.join(dir, 'bad.csv'),
      '--local',
      '--eia-dir',
      path.join(dir, 'none'),
    ]);
    expect(error?.exitCode).toBe(1);
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^line\s+severity\s+id\s+column\s+message$/);
    expect(
      lines.filter((l) => /^3\s+error\s+bad-row\s+url\s+host `outages\.example\.com` is a placeholder/.test(l)),
    ).toHaveLength(1);
    expect(lines.some((l) => /^-\s+warning\s+eia_id\s+the EIA-861 reference files are not available/.test(l))).toBe(
      true,
    );
    expect(lines.at(-1)).toMatch(/^FAILED: .*bad\.csv: 2 rows \(2 \(empty\)\), 1 error\(s\), \d+ warning\(s\)$/);
  });

  it("passes with warnings only, and --json prints the problems array (the parent command's --json too)", async () => {
    const { out, error } = await run([
      '--sources',
      path.join(dir, 'good.csv'),
      '--local',
      '--json',
      '--eia-dir',
      path.join(dir, 'none'),
      // a fixture directory that is there, so the warnings do not depend on ../shared/data being beside the checkout
      '--fixtures',
      dir,
    ]);
    expect(error).toBeNull();
    // commander hands --json to the parent `sources` command, which has one too; the check still sees it
    const problems = JSON.parse(out) as CheckProblem[];
    expect(problems).toEqual([
      {
        line: 0,
        id: null,
        severity: 'warning',
        column: 'eia_id',
        message: expect.stringMatching(/EIA-861 reference files are not available/),
      },
    ]);
  });

  it('passes the shipped registry without ../shared/data: the EIA-861 reference is committed, fixtures are skipped', async () => {
    const { out, error } = await run(['--fixtures', path.join(dir, 'no-shared-data'), '--json']);
    expect(error).toBeNull();
    const problems = JSON.parse(out) as CheckProblem[];
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(problems.filter((p) => p.line === 0).map((p) => p.message)).toEqual([
      'the fixture directory (../shared/data) is not available: fixtures were not checked',
    ]);
    // the EIA-861 checks ran: Oncor, a Texas wires company, has no Sales_Ult_Cust customers to compare with
    expect(problems.find((p) => p.id === 'oncor' && p.column === 'customers')?.message).toMatch(
      /^EIA-861 2018 for 44372 \(Oncor Electric Delivery Company LLC\) in TX has no customer count/,
    );
  }, 60_000);

  it('reads the EIA-861 reference from --eia-dir, and says so when it is not there', async () => {
    const without = await run(['--sources', path.join(dir, 'eia.csv'), '--local', '--eia-dir', path.join(dir, 'none')]);
    expect(without.error).toBeNull();
    expect(without.out).toMatch(/^-\s+warning\s+eia_id\s+the EIA-861 reference files are not available/m);
    const withEia = await run(['--sources', path.join(dir, 'eia.csv'), '--local', '--eia-dir', EIA_DIR]);
    expect(withEia.error?.exitCode).toBe(1);
    expect(withEia.out).toMatch(/^2\s+error\s+ok-row\s+eia_id\s+424242 is not a utility number in EIA-861 2018$/m);
    expect(withEia.out).not.toMatch(/not available/);
  });
});
