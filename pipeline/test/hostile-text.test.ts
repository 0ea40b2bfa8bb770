// Hostile upstream text through the real CLI (issue 24 parts 2, 3, 4 and 10): upstreams on 127.0.0.1 name
// municipalities and incidents with control characters, terminal escapes, markup, spreadsheet formulas and 100 KB
// names; `outage poll --once` must publish valid feeds that carry them as text, CSV a spreadsheet will not evaluate,
// no control character or oversized name anywhere, say in its log what it cleaned; `sources parse` and `probe`
// must print no escape sequence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { csvParse } from 'd3-dsv';
import { ScriptedFeed, tempDir } from './scripted-feed.ts';
import { csvProblems, feedProblems, uncleanChar } from './fuzz/absurd.ts';

const BIN = fileURLToPath(new URL('../../bin/outage.js', import.meta.url));
const ESC = '\u001b]0;pwned\u0007\u001b[2J';
const MARKUP = '<img src=x onerror=alert(1)>';
const FORMULA = '=HYPERLINK("https://evil.example","click")';
const LONG = 'A'.repeat(100_000);
const MUNICIPALITIES = [`Harris${ESC}burg\u0000\u202e`, `Derry ${MARKUP}`, FORMULA, LONG, `Swatara\ufffe\ud800`];
const OMAP = {
  nc: '2500',
  data: [{ nm: 'Dauphin', nc: 2500, tc: 130000, mun: MUNICIPALITIES.map((nm) => ({ nm, nc: 500, tc: 4000 })) }],
};
const ARCGIS = {
  features: [
    {
      attributes: {
        OUTAGE_ID: `${'I'.repeat(5_000)}\u0000`,
        EST_CUSTOMERS: 300,
        OUTAGE_CAUSE: FORMULA,
        CREW_CURRENT_STATUS: "+cmd|' /C calc'!A0",
        CITY: '@SUM(1+1)',
      },
      geometry: { x: -76.88, y: 40.27 },
    },
  ],
};
/** A count no utility has, in a municipality whose name is an escape sequence: its message quotes the name. */
const IMPLAUSIBLE = { nc: '1', data: [{ nm: 'Dauphin', nc: 1, mun: [{ nm: `Evil${ESC}`, nc: 9e15 }] }] };

const feed = new ScriptedFeed();
const tmp = tempDir('hostile-text');
const out = path.join(tmp.dir, 'public');
const registry = path.join(tmp.dir, 'sources.csv');
let poll: Run;

beforeAll(async () => {
  await feed.start();
  feed.set('/omap/Tabular', OMAP);
  feed.set('/evil/Tabular', IMPLAUSIBLE);
  feed.set('/arc/0/query', ARCGIS);
  fs.writeFileSync(
    registry,
    [
      'id,utility,state,connector,url,interval_min,tier',
      `ppl,PPL Electric,PA,omap,${feed.base}/omap/Tabular?opco=PA,15,2`,
      `evil,Evil Electric,PA,omap,${feed.base}/evil/Tabular?opco=PA,15,2`,
      `arc,Arc Electric,PA,arcgis,${feed.base}/arc/0,15,2`,
    ].join('\n'),
  );
  const dirs = ['--sources', registry, '--state', path.join(tmp.dir, 'state'), '--out', out];
  poll = await runCli(['poll', '--once', '--no-deliveries', ...dirs]);
});
afterAll(async () => {
  await feed.stop();
  tmp.remove();
});

/** Every published file under api/v1 by path relative to the output root. */
function published(): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(json|csv|rss|atom|geojson)$/.test(e.name))
        files.set(path.relative(out, p), fs.readFileSync(p, 'utf8'));
    }
  };
  walk(path.join(out, 'api', 'v1'));
  return files;
}
const file = (rel: string) => fs.readFileSync(path.join(out, 'api/v1', rel), 'utf8');
/** Every string in a JSON value. */
const strings = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : v && typeof v === 'object' ? Object.values(v).flatMap(strings) : [];

describe('poll --once over hostile upstream text', () => {
  it('exits 0, fails only the implausible source, and says what it cleaned', () => {
    expect(poll.status, poll.stderr).toBe(0);
    expect(poll.stderr).toMatch(
      /^ {2}ppl: text cleaned: \d+ control characters removed, .* cut to their caps \(longest 100,000 characters\)$/m,
    );
    expect(poll.stderr).toMatch(/^ {2}arc: text cleaned: /m);
    expect(poll.stderr).toMatch(/^ {2}evil: implausible_value: area Evil\]0;pwned\[2J customers_out/m);
  });

  it('publishes valid RSS and Atom that carry the names as text, not markup', () => {
    for (const rel of ['feeds/events.rss', 'feeds/events.atom']) expect(feedProblems(rel, file(rel))).toEqual([]);
    const atom = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' }).parse(file('feeds/events.atom'));
    const titles = [atom.feed.entry].flat().map((e: { title: { '@type': string; '#text': string } }) => e.title);
    expect(titles.every((t) => t['@type'] === 'text')).toBe(true);
    expect(titles.map((t) => t['#text'])).toContain(
      `Outage began: Derry ${MARKUP} (Dauphin, PA; PPL Electric) — 500 customers out`,
    );
    expect(titles.map((t) => t['#text'])).toContain(
      'Outage began: Harris]0;pwned[2Jburg (Dauphin, PA; PPL Electric) — 500 customers out',
    );
  });

  it('writes CSV cells a spreadsheet shows as text, numbers as numbers', () => {
    const areas = csvParse(file('live/counties/42043.areas.csv'));
    expect(areas.map((a) => a.name)).toContain(`'${FORMULA}`);
    const [incident] = csvParse(file('live/counties/42043.incidents.csv'));
    expect([incident.cause, incident.crew_status, incident.city]).toEqual([
      `'${FORMULA}`,
      "'+cmd|' /C calc'!A0",
      "'@SUM(1+1)",
    ]);
    expect(incident.lon).toBe('-76.88');
    const csv = [...published()].filter(([rel]) => rel.endsWith('.csv'));
    expect(csv.length).toBeGreaterThan(3);
    expect(csv.flatMap(([rel, text]) => csvProblems(rel, text))).toEqual([]);
  });

  it('publishes no control character, override, non-character or name beyond its cap in any file', () => {
    const bad: string[] = [];
    for (const [rel, text] of published()) {
      // each string of a JSON document; each line of a CSV file or a feed
      const values = /json$/.test(rel) ? strings(JSON.parse(text)) : text.split('\n');
      for (const v of values) {
        const problem = uncleanChar(v);
        if (problem) bad.push(`${rel}: ${problem}`);
      }
      if (text.includes('A'.repeat(200))) bad.push(`${rel}: a name longer than its cap (200)`);
      if (text.includes('I'.repeat(100))) bad.push(`${rel}: an id longer than its cap (100)`);
    }
    expect(bad).toEqual([]);
    const names = JSON.parse(file('live/counties/42043.areas.json')).data.areas.map((a: { name: string }) => a.name);
    expect(names).toContain(`${'A'.repeat(199)}…`);
    const ids = JSON.parse(file('live/counties/42043.incidents.json')).data.incidents.map(
      (i: { incident_id: string }) => i.incident_id,
    );
    expect(ids).toEqual([expect.stringMatching(/^I{87}~[0-9a-f]{12}$/)]);
  });
});

describe('the CLI prints no escape sequence', () => {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting their absence
  const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
  it('sources parse: the table and the log', async () => {
    const body = path.join(tmp.dir, 'tabular.json');
    fs.writeFileSync(body, JSON.stringify({ ...OMAP, data: [...OMAP.data, { nm: `Nowhere${ESC}`, nc: 3 }] }));
    const run = await runCli(['sources', 'parse', body, '--connector', 'omap', '--states', 'PA']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Nowhere]0;pwned[2J');
    expect(run.stdout).toMatch(/^text cleaned: \d+ control characters removed/m);
    expect(run.stdout + run.stderr).not.toMatch(RAW);
  });
  it('sources probe: the request log, the table and a failure message', async () => {
    const ok = await runCli(['sources', 'probe', 'ppl', '--sources', registry]);
    expect(ok.status, ok.stderr).toBe(0);
    const bad = await runCli(['sources', 'probe', 'evil', '--sources', registry]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('area Evil]0;pwned[2J customers_out');
    for (const r of [ok, bad]) expect(r.stdout + r.stderr).not.toMatch(RAW);
  });
  it('sources: the list with each last error', async () => {
    const run = await runCli(['sources', '--sources', registry, '--state', path.join(tmp.dir, 'state')]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Evil]0;pwned');
    expect(run.stdout + run.stderr).not.toMatch(RAW);
  });
});

type Run = { status: number | null; stdout: string; stderr: string };

/** The CLI, spawned asynchronously (the scripted upstream answers from this process's event loop). */
function runCli(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, OUTAGE_REQUEST_DEADLINE_MS: '10000', OUTAGE_SOURCE_DEADLINE_MS: '20000' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('exit', (status) => {
      clearTimeout(killer);
      resolve({ status, stdout, stderr });
    });
  });
}
