// `outage sources verify` offline: the simulator over real HTTP on 127.0.0.1 (every row answers and parses), then drift
// served on loopback beside it (a Kubra view answering 404, a changed schema, an HTML error page with status 200, a
// 429, a host that does not resolve) through the real CLI: the exit code, --json, the Markdown file, the state file the
// next publish serves, and --save fixtures that `sources parse` replays. Then the total deadline, bad arguments, a
// self-signed certificate, and the pipeline publishing the saved report.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { Command } from 'commander';
import { systemClock } from '../src/clock.ts';
import { UsageError } from '../src/errors.ts';
import { Simulator } from '../src/simulator/server.ts';
import { LOOPBACK_HTTP } from '../src/sources/http.ts';
import { parseRegistry } from '../src/registry/registry.ts';
import type { SourceDef } from '../src/sources/source-def.ts';
import { runVerify } from '../src/registry/verify.ts';
import { eiaCheck } from '../src/registry/verify-eia.ts';
import type { VerifyReport } from '../src/registry/verify-report.ts';
import {
  readVerifyReport,
  VERIFICATION_FILE,
  VERIFY_REPORT_FILE,
  verificationDoc,
} from '../src/publish/verification.ts';
import { MemoryTreeWriter } from '../src/publish/tree-writer.ts';
import { Pipeline } from '../src/pipeline.ts';
import { SCHEMAS } from '../src/contract/schemas.ts';
import { registerVerify } from '../src/cli/sources-verify.ts';
import { closeAll, makeTempDir, removeTempDir, testTempDir } from './clean-machine.ts';

const BIN = fileURLToPath(new URL('../../bin/outage.js', import.meta.url));
const NO_EIA = eiaCheck('/nonexistent'); // the committed customers table; territory not checked

interface Exit {
  code: number;
  stdout: string;
  stderr: string;
}
/** The real CLI as a child process; killed before the test's own timeout so it never outlives the test. */
async function cli(...args: string[]): Promise<Exit> {
  try {
    const r = await promisify(execFile)(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 150_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number | string; stdout: string; stderr: string };
    if (typeof e.code !== 'number') throw err;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The published document's schema (the envelope around verificationDoc). */
function validDocument(doc: object): boolean {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  const validate = ajv.compile(SCHEMAS.SourcesVerification);
  const ok = validate({ data: { generated_at: new Date().toISOString(), ...doc } });
  if (!ok) throw new Error(JSON.stringify(validate.errors?.slice(0, 3)));
  return ok;
}

const KUBRA_VIEW = '/stormcenter/api/v1/stormcenters/inst-1/views/old-view/currentState?preview=false';
const WEC = '/outagesummary/view/OutageEventJSON';
const HTML_PAGE = '<!doctype html><html><head><title>Error</title></head><body>Service | unavailable</body></html>';

/** The drifted upstreams, each on its own path of one loopback server; `held` requests never get an answer. */
function driftServer(held: http.ServerResponse[]): http.Server {
  return http.createServer((req, res) => {
    const url = req.url ?? '';
    if (url === `/kubra${KUBRA_VIEW}`) return void res.writeHead(404, { 'content-type': 'text/html' }).end('gone');
    if (url === `/changed${WEC}`)
      return void res.writeHead(200, { 'content-type': 'application/json' }).end('[{"Slices":"none"}]'); // the feed is an array of events
    if (url === `/html${WEC}`) return void res.writeHead(200, { 'content-type': 'text/html' }).end(HTML_PAGE);
    if (url === `/busy${WEC}`) return void res.writeHead(429, { 'retry-after': '120' }).end('slow down');
    if (url.startsWith('/slow/')) return void held.push(res);
    res.writeHead(404).end();
  });
}

const listen = async (server: http.Server): Promise<string> => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

describe('outage sources verify', () => {
  const sim = new Simulator({ clock: systemClock, sources: 8 });
  const held: http.ServerResponse[] = [];
  const drift = driftServer(held);
  let dir = '';
  let simRows: SourceDef[] = [];
  let registry = '';
  let drifted = '';
  beforeAll(async () => {
    await sim.start();
    const base = await listen(drift);
    dir = makeTempDir('sources-verify');
    simRows = parseRegistry(sim.registryCsv()).sources;
    const [nisc, arcgis] = ['nisc', 'arcgis'].map(
      (c) =>
        sim
          .registryCsv()
          .split('\n')
          .find((l) => l.includes(`,${c},`))!,
    );
    const row = (id: string, connector: string, url: string) => `${id},Drift ${id},WI,${connector},${url},15,2,,`;
    registry = path.join(dir, 'sources.csv');
    drifted = [
      row('view-moved', 'kubra', `${base}/kubra${KUBRA_VIEW}`),
      row('schema-changed', 'wec', `${base}/changed${WEC}`),
      row('html-page', 'wec', `${base}/html${WEC}`),
      row('busy', 'wec', `${base}/busy${WEC}`),
      row('no-such-host', 'nisc', 'https://outage-feed.example.invalid/Hosted_Outage_Map/summary.json'),
    ].join('\n');
    const header = 'id,utility,state,connector,url,interval_min,tier,options,customers';
    fs.writeFileSync(registry, [header, nisc, arcgis, drifted, ''].join('\n'));
  });
  afterAll(() =>
    closeAll(
      () => {
        for (const r of held) r.destroy();
      },
      () => drift.closeAllConnections(),
      () => new Promise((r) => drift.close(r)),
      () => sim.stop(),
      () => removeTempDir(dir),
    ),
  );

  it('the simulator over real HTTP: every row answers 200 and parses, with its counts', async () => {
    const report = await runVerify(simRows, {
      registry: 'sim.csv',
      deadlineMs: 120_000,
      concurrency: 4,
      http: LOOPBACK_HTTP,
      eia: NO_EIA,
    });
    expect(report.summary).toEqual({ rows: simRows.length, ok: simRows.length, failed: 0, not_probed: 0 });
    expect(report.rows.map((r) => r.id)).toEqual(simRows.map((s) => s.id));
    for (const r of report.rows) {
      expect(r, r.id).toMatchObject({ answered: true, status: 200, parsed: true, failure: null });
      expect(r.requests, r.id).toBeGreaterThan(0);
      expect(r.counties, r.id).toEqual(expect.any(Number));
    }
    expect(report.rows.some((r) => (r.counties ?? 0) > 0)).toBe(true);
    expect(validDocument(verificationDoc(report, true))).toBe(true);
  });

  it('drift through the real CLI: exit 1, each failure with its advice in --json, the Markdown file, the state file, fixtures', async () => {
    const [state, saved, md] = ['state', 'saved', 'report.md'].map((p) => path.join(dir, p));
    const args = ['--sources', registry, '--state', state, '--save', saved, '--markdown', md, '--json'];
    const r = await cli('sources', 'verify', ...args);
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout) as VerifyReport;
    expect(report).toMatchObject({ format: 'outage-verify/1', summary: { rows: 7, ok: 2, failed: 5, not_probed: 0 } });
    const byId = new Map(report.rows.map((row) => [row.id, row]));
    const expected: Array<[string, number | null, string, RegExp]> = [
      ['view-moved', 404, 'kubra_view_not_found', /Kubra view id may have changed.*`currentState`/],
      ['schema-changed', 200, 'schema_changed', /shape changed at `events\.0\.Slices`/],
      ['html-page', 200, 'html_page', /HTML page with status 200/],
      ['busy', 429, 'rate_limited', /Retry-After 120 s/],
      ['no-such-host', null, 'dns', /outage-feed\.example\.invalid does not resolve/],
    ];
    for (const [id, status, kind, advice] of expected) {
      const row = byId.get(id)!;
      expect(row, id).toMatchObject({ status, answered: status !== null, parsed: false, failure: { kind } });
      expect(row.failure!.advice, id).toMatch(advice);
    }
    // The state file is what the next publish serves, and it is a valid document.
    expect(readVerifyReport(state)).toEqual(report);
    expect(validDocument(verificationDoc(readVerifyReport(state), false))).toBe(true);
    // The Markdown: one table row per source, a section per failure; the HTML page's pipe cannot split a cell.
    const markdown = fs.readFileSync(md, 'utf8');
    expect(markdown.split('\n').filter((l) => l.startsWith('| '))).toHaveLength(2 + 7);
    expect(markdown).toMatch(/^### view-moved: Drift view-moved \(kubra_view_not_found\)$/m);
    expect(markdown).toMatch(/^- What to do: .*Kubra view id may have changed/m);
    expect(r.stderr).toMatch(/\[7\/7\]/);
    // --save: every row's answers, each a fixture `sources parse` replays to the figures the report gave.
    expect(fs.readdirSync(saved).sort()).toEqual([...byId.keys()].sort());
    const ok = report.rows.find((row) => row.connector === 'nisc' && !row.failure)!;
    const parse = await cli('sources', 'parse', '--connector', 'nisc', '--json', path.join(saved, ok.id));
    expect(parse.code, parse.stderr).toBe(0);
    expect(JSON.parse(parse.stdout).snapshot).toMatchObject({ customers_out: ok.customers_out });
    expect(JSON.parse(parse.stdout).snapshot.counties).toHaveLength(ok.counties!);
    const view = JSON.parse(fs.readFileSync(path.join(saved, 'view-moved', 'index.json'), 'utf8'));
    expect(view.requests).toEqual([expect.objectContaining({ status: 404, file: null })]);
  });

  it('the total deadline: a row in flight fails as `deadline`, a row not reached is reported not probed', async () => {
    const base = `http://127.0.0.1:${(drift.address() as AddressInfo).port}`;
    const rows = parseRegistry(
      [
        'id,utility,state,connector,url,interval_min,tier',
        `hangs,Hangs,WI,wec,${base}/slow${WEC},15,2`,
        `later,Later,WI,wec,${base}/slow/later${WEC},15,2`,
      ].join('\n'),
    ).sources;
    const report = await runVerify(rows, {
      registry: 'x',
      deadlineMs: 500,
      concurrency: 1,
      http: LOOPBACK_HTTP,
      eia: NO_EIA,
    });
    expect(held.some((r) => r.req.url?.startsWith('/slow/later'))).toBe(false); // its turn never came
    expect(report.summary).toEqual({ rows: 2, ok: 0, failed: 2, not_probed: 1 });
    expect(report.rows.map((r) => [r.id, r.failure?.kind, r.requests])).toEqual([
      ['hangs', 'deadline', 1],
      ['later', 'deadline', 0],
    ]);
    expect(report.rows[1].failure!.advice).toMatch(/--deadline more seconds, or verify the rest with --only/);
  });

  it('--only picks rows; no active row of that id, a bad number or a --save directory of other files: exit 2', async () => {
    const r = await cli('sources', 'verify', '--sources', registry, '--state', path.join(dir, 's2'), '--only', 'nope');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^outage: --only: no active row `nope`$/m);
    const foreign = testTempDir('verify-save');
    fs.writeFileSync(path.join(foreign, 'notes.txt'), 'mine');
    const cases: Array<[string[], RegExp]> = [
      [['--deadline', '0'], /--deadline: expected a number above 0, got `0`/],
      [['--concurrency', '1.5'], /--concurrency: expected a whole number above 0, got `1\.5`/],
      [['--only', 'busy', '--save', foreign], /--save .*: holds entries that are not saved probes \(notes\.txt\)/],
    ];
    for (const [args, message] of cases) {
      const program = new Command('outage').exitOverride();
      registerVerify(program.command('sources'));
      const run = program.parseAsync(['node', 'outage', 'sources', 'verify', '--sources', registry, ...args]);
      await expect(run, args.join(' ')).rejects.toThrow(UsageError);
      await expect(run).rejects.toThrow(message);
    }
    expect(fs.readdirSync(foreign)).toEqual(['notes.txt']);
  });

  it('the pipeline publishes the saved report with the next cycle, and a document saying none has run before', async () => {
    const tmp = testTempDir('verify-publish');
    const tree = new MemoryTreeWriter(new Date());
    const p = await Pipeline.open({
      stateDir: path.join(tmp, 'state'),
      outDir: path.join(tmp, 'public'),
      sources: simRows,
      clock: systemClock,
      simulated: true,
      http: LOOPBACK_HTTP,
      writer: (now: Date) => Object.assign(tree, { now }),
    });
    const published = () => JSON.parse(tree.files.get(VERIFICATION_FILE)!.body.toString('utf8')).data;
    try {
      await p.build();
      expect(published()).toMatchObject({
        simulated: true,
        report: null,
        message: expect.stringMatching(/^No verification/),
      });
      const report = await runVerify(simRows.slice(0, 2), {
        registry: 'r',
        deadlineMs: 60_000,
        concurrency: 2,
        http: LOOPBACK_HTTP,
        eia: NO_EIA,
      });
      fs.writeFileSync(path.join(tmp, 'state', VERIFY_REPORT_FILE), JSON.stringify(report));
      await p.cycle({ all: true });
      expect(published()).toEqual({
        generated_at: expect.any(String),
        simulated: true,
        report,
        message: `2 of 2 sources answered and parsed on ${report.finished_at}.`,
      });
    } finally {
      await p.close();
    }
  });

  // A self-signed certificate on loopback (made by openssl for the test): what an expired or mismatched one looks like.
  it.skipIf(spawnSync('openssl', ['version']).status !== 0)(
    'a certificate the client refuses: tls_certificate',
    async () => {
      const tmp = testTempDir('verify-tls');
      const [key, cert] = [path.join(tmp, 'key.pem'), path.join(tmp, 'cert.pem')];
      const args = ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1'];
      expect(spawnSync('openssl', [...args, '-subj', '/CN=localhost']).status).toBe(0);
      const server = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (_req, res) =>
        res.end('[]'),
      );
      try {
        await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
        const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}${WEC}`;
        const rows = parseRegistry(
          `id,utility,state,connector,url,interval_min,tier\ntls,TLS,WI,wec,${url},15,2\n`,
        ).sources;
        const report = await runVerify(rows, { registry: 'r', deadlineMs: 30_000, concurrency: 1, eia: NO_EIA });
        expect(report.rows[0]).toMatchObject({ answered: false, status: null, failure: { kind: 'tls_certificate' } });
        expect(report.rows[0].failure!.advice).toMatch(/openssl s_client -connect 127\.0\.0\.1:443/);
      } finally {
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
      }
    },
    60_000,
  );

  it('publishes a document saying no verification has run when the state holds none', () => {
    const doc = verificationDoc(readVerifyReport(testTempDir('verify-none')), false);
    expect(doc).toMatchObject({ report: null, message: expect.stringMatching(/^No verification has run/) });
    expect(validDocument(doc)).toBe(true);
  });
});
