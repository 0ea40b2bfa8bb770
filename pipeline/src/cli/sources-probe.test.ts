// The probe and parse commands in-process: bad input is a UsageError (exit 2), a payload that does not parse a
// SourceError naming the file; --json works wherever it stands (the parent `sources` declares it too).
import { afterEach, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { SourceError, UsageError } from '../errors.ts';
import { registerParse, registerProbe } from './sources-probe.ts';
import { testTempDir } from '../../test/clean-machine.ts';
import { hasSharedData, sharedPath } from '../../test/shared-data.ts';

/** `outage sources …` with the two commands; resolves to stdout, rejects with what the action threw. */
async function run(...args: string[]): Promise<string> {
  const program = new Command('outage').exitOverride();
  const sources = program.command('sources').option('--sources <file>', 'registry', 'sources.csv').option('--json');
  registerProbe(sources);
  registerParse(sources);
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation(((s: string | Uint8Array, ...rest: unknown[]) => {
    out += String(s);
    (rest.find((r) => typeof r === 'function') as (() => void) | undefined)?.(); // the flush callback print() awaits
    return true;
  }) as typeof process.stdout.write);
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  await program.parseAsync(['node', 'outage', 'sources', ...args]);
  return out;
}
afterEach(() => vi.restoreAllMocks());

const NISC = 'https://outagemap-data.cloud.coop/kiuc/Hosted_Outage_Map/summary.json';

describe('outage sources parse', () => {
  it.skipIf(!hasSharedData)('reads index.json given as a path, and --json before the verb', async () => {
    const dir = path.join(testTempDir('parse-cli'), 'kiuc');
    fs.mkdirSync(dir);
    fs.copyFileSync(sharedPath('payloads/kiuc/summary.json'), path.join(dir, 'summary.json'));
    fs.writeFileSync(
      path.join(dir, 'index.json'),
      JSON.stringify({ source: { utility: 'KIUC', states: ['HI'] }, requests: [{ url: NISC, file: 'summary.json' }] }),
    );
    const report = JSON.parse(await run('--json', 'parse', '--connector', 'nisc', path.join(dir, 'index.json')));
    const regions = JSON.parse(fs.readFileSync(sharedPath('payloads/kiuc/summary.json'), 'utf8')).regionDataSets[0]
      .regions;
    expect(report.snapshot.counties).toEqual([
      { fips: '15007', customers_out: regions[0].numberOut, customers_served: regions[0].numberServed },
    ]);
    expect(report.states).toEqual([expect.objectContaining({ state: 'HI', customers_out: regions[0].numberOut })]);
    expect(await run('parse', '--connector', 'nisc', dir)).toMatch(
      new RegExp(`^15007 {2}Kauai +HI +${regions[0].numberOut} `, 'm'),
    );
  });
  it.skipIf(!hasSharedData)(
    'reads one raw document (the We Energies capture): the table lists every county, most customers out first',
    async () => {
      const file = sharedPath('payloads/wec/we-energies-latest-2026-07-27T2113Z.json');
      const events = (
        JSON.parse(fs.readFileSync(file, 'utf8')) as { events: Array<{ Slices: Array<{ AffectedCusts: number }> }> }
      ).events;
      const out = events.flatMap((e) => e.Slices).reduce((n, x) => n + x.AffectedCusts, 0);
      const report = JSON.parse(await run('parse', '--connector', 'wec', '--states', 'WI;MI', '--json', file));
      expect(report.snapshot.customers_out).toBe(out);
      const table = await run('parse', '--connector', 'wec', '--states', 'WI;MI', file);
      expect(table).toMatch(new RegExp(`^customers_out ${out.toLocaleString('en-US')} in \\d+ counties`, 'm'));
      const rows = table.split('\n').filter((l) => /^\d{5} /.test(l));
      expect(rows.length).toBe(report.snapshot.counties.length);
      const outs = rows.map((l) => Number(l.split(/\s{2,}/)[3].replace(/,/g, '')));
      expect(outs.length).toBeGreaterThan(1);
      expect(outs).toEqual([...outs].sort((x, y) => y - x));
    },
  );
  it('refuses a connector it does not know', async () => {
    await expect(run('parse', '--connector', 'nope', 'x.json')).rejects.toThrow(
      /--connector: `nope` is not one of kubra, nisc/,
    );
  });
  it.each([
    [['--states', 'HI', 'page.html'], SourceError, /page\.html is not JSON .*it starts with "<html>/],
    [['page.html'], UsageError, /--states is needed for a single file/],
    [['--states', 'XX;HI', 'page.html'], UsageError, /--states: `XX;HI` is not a list of US state codes/],
    [['--states', 'HI', '--options', '[1]', 'page.html'], UsageError, /--options: expected a JSON object such as/],
    [['--states', 'HI', '--options', '{', 'page.html'], UsageError, /--options: expected a JSON object, got `\{`/],
    [['--states', 'HI', 'missing.json'], UsageError, /Cannot read .*missing\.json/],
    [['.'], UsageError, /has no index\.json: save one with `outage sources probe ID --save/],
  ])('%j', async (args, type, message) => {
    const dir = testTempDir('parse-cli-bad');
    fs.writeFileSync(path.join(dir, 'page.html'), '<html>');
    const abs = args.map((a) => (a === 'page.html' || a === 'missing.json' || a === '.' ? path.join(dir, a) : a));
    const got = run('parse', '--connector', 'nisc', ...abs);
    await expect(got).rejects.toThrow(type);
    await expect(run('parse', '--connector', 'nisc', ...abs)).rejects.toThrow(message);
  });
});

describe('outage sources probe', () => {
  it.each([
    [['x', '--sources', '/nonexistent/sources.csv'], /Cannot read the source registry/],
    [['kiuc', '--timeout', '0'], /--timeout: expected a number of seconds above 0, got `0`/],
    [['broken'], /sources\.csv line 3 \(broken\) cannot be used: url: url must be an absolute http\(s\) URL/],
    [['gated-one'], /^gated-one \(line 4\) is gated and is never fetched: needs a key$/],
    [['nope'], /^No row with id `nope`/],
  ])('%j → a usage error, before any request', async (args, message) => {
    const dir = testTempDir('probe-cli-bad');
    const registry = path.join(dir, 'sources.csv');
    fs.writeFileSync(
      registry,
      [
        'id,utility,state,connector,url,interval_min,tier,status,status_reason',
        'kiuc,KIUC,HI,nisc,http://127.0.0.1:9/summary.json,15,3,active,',
        'broken,KIUC,HI,nisc,not-a-url,15,3,active,',
        'gated-one,Gated,HI,nisc,https://outagemap-data.cloud.coop/x/Hosted_Outage_Map/summary.json,15,3,gated,needs a key',
      ].join('\n'),
    );
    const withRegistry = args.includes('--sources') ? args : [...args, '--sources', registry];
    await expect(run('probe', ...withRegistry)).rejects.toThrow(UsageError);
    await expect(run('probe', ...withRegistry)).rejects.toThrow(message);
  });
});
