// `sources probe` and `sources parse` through the real CLI as a child process, against an upstream on 127.0.0.1:
// a saved probe parsed back to the same report, and the clear message of each failure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DEFAULT_HTTP } from '../src/sources/http.ts';
import type { ProbeIndex } from '../src/registry/probe.ts';
import { closeAll, makeTempDir, removeTempDir, testTempDir } from './clean-machine.ts';
import { hasSharedData, sharedJson } from './shared-data.ts';
import { sum } from './probe-cases.ts';

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const BIN = fileURLToPath(new URL('../../bin/outage.js', import.meta.url));
interface Exit {
  code: number;
  stdout: string;
  stderr: string;
}
/** The real CLI as a child process; killed before the test's own timeout so it never outlives the test. */
async function cli(...args: string[]): Promise<Exit> {
  try {
    const r = await promisify(execFile)(process.execPath, [BIN, ...args], {
      encoding: 'utf8',
      timeout: 150_000,
      maxBuffer: 64 << 20,
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number | string; stdout: string; stderr: string; killed?: boolean };
    if (typeof e.code !== 'number') throw err;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('outage sources probe / parse (the real CLI, loopback only)', () => {
  const DATE = 'Mon, 27 Jul 2026 21:13:16 GMT';
  // Read as the suite is collected; without the shared data only the tests that need no recording run.
  const we = (hasSharedData ? sharedJson('payloads/wec/we-energies-latest-2026-07-27T2113Z.json') : { events: [] }) as {
    events: Array<{ Slices: Array<{ AffectedCusts: number }> }>;
  };
  const body = Buffer.from(JSON.stringify(we.events));
  const held: http.ServerResponse[] = [];
  const agents: string[] = [];
  let server: http.Server;
  let base = '';
  let dir = '';
  let registry = '';
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      agents.push(String(req.headers['user-agent']));
      const p = req.url ?? '';
      if (p === '/outagesummary/view/OutageEventJSON')
        return void res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', date: DATE }).end(body);
      if (p.startsWith('/slow/')) return void held.push(res); // never answers: the request deadline must end it
      if (p.startsWith('/html/'))
        return void res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<!doctype html><html><body>Outage map</body></html>');
      if (p.startsWith('/busy/')) return void res.writeHead(429, { 'retry-after': '120' }).end('slow down');
      res.writeHead(404).end('not found');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    dir = makeTempDir('sources-probe-cli');
    registry = path.join(dir, 'sources.csv');
    const row = (id: string, prefix: string) =>
      `${id},We Energies,WI;MI,wec,${base}${prefix}/outagesummary/view/OutageEventJSON,10,2,,1148141,active,`;
    fs.writeFileSync(
      registry,
      `${[
        'id,utility,state,connector,url,interval_min,tier,options,customers,status,status_reason',
        row('we-energies', ''),
        row('missing', '/missing'),
        row('slow', '/slow'),
        row('html', '/html'),
        row('busy', '/busy'),
      ].join('\n')}\n`,
    );
  });
  afterAll(async () => {
    await closeAll(
      () => {
        for (const r of held) r.destroy();
      },
      () => server?.closeAllConnections(),
      () => new Promise((r) => server?.close(r)),
      () => removeTempDir(dir),
    );
  });

  it.skipIf(!hasSharedData)(
    '--save writes the body byte for byte and a complete index.json; parse replays it to the same --json report',
    async () => {
      const saved = path.join(dir, 'we-probe');
      const probe = await cli('sources', 'probe', 'we-energies', '--sources', registry, '--save', saved, '--json');
      expect(probe.code, probe.stderr).toBe(0);
      expect(fs.readFileSync(path.join(saved, '01-OutageEventJSON.json')).equals(body)).toBe(true);
      const index = JSON.parse(fs.readFileSync(path.join(saved, 'index.json'), 'utf8')) as ProbeIndex;
      expect(index).toMatchObject({
        format: 'outage-probe/1',
        user_agent: DEFAULT_HTTP.userAgent,
        result: { ok: true },
        source: {
          id: 'we-energies',
          connector: 'wec',
          url: `${base}/outagesummary/view/OutageEventJSON`,
          states: ['WI', 'MI'],
          options: {},
          customers: 1148141,
        },
      });
      expect(index.requests).toEqual([
        {
          seq: 1,
          method: 'GET',
          url: `${base}/outagesummary/view/OutageEventJSON`,
          request_body: null,
          status: 200,
          headers: { 'content-type': 'application/json; charset=utf-8', date: DATE },
          file: '01-OutageEventJSON.json',
          bytes: body.length,
          sha256: createHash('sha256').update(body).digest('hex'),
          at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          ms: expect.any(Number),
          error: null,
        },
      ]);
      expect(Date.parse(index.probed_at)).toBeGreaterThan(Date.now() - 300_000);
      expect(agents).toContain(DEFAULT_HTTP.userAgent);
      const report = JSON.parse(probe.stdout);
      const out = sum(
        we.events.flatMap((e) => e.Slices),
        (x) => x.AffectedCusts,
      );
      expect(report.snapshot.customers_out).toBe(out);
      expect(report.national.customers_out).toBe(
        sum(report.snapshot.counties as Array<{ customers_out: number }>, (c) => c.customers_out),
      );
      expect(report.states.map((s: { state: string }) => s.state).sort()).toEqual(['MI', 'WI']);

      // Offline: the saved directory replayed through the wec fetch gives the same report (the table form and single
      // files are covered in-process by src/cli/sources-probe.test.ts).
      const r = await cli('sources', 'parse', '--connector', 'wec', '--json', saved);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(report);
      expect(r.stderr).toMatch(/replayed 1 of 1 saved answers/);
    },
    180_000,
  );

  it('a 404, a timeout, an HTML page and a 429 with Retry-After: a clear message and exit 1', async () => {
    const run = (id: string, ...more: string[]) => cli('sources', 'probe', id, '--sources', registry, ...more);
    const [missing, slow, html, busy] = await Promise.all([
      run('missing'),
      run('slow', '--timeout', '1'),
      run('html'),
      run('busy'),
    ]);
    const expectations: Array<[Exit, number, RegExp]> = [
      [
        missing,
        1,
        /^outage: http_status: probe missing: http:\/\/127\.0\.0\.1:\d+\/missing\/outagesummary\/view\/OutageEventJSON answered HTTP 404; check the row's url/m,
      ],
      [slow, 1, /^outage: timeout: probe slow: .*no complete answer within the 1000 ms request deadline/m],
      [
        html,
        1,
        /^outage: bad_body: probe html: .* did not return JSON \(starts with "<!doctype html>.*\); the answer is not JSON/m,
      ],
      [
        busy,
        1,
        /^outage: http_status: probe busy: .* answered HTTP 429 \(Retry-After 120 s\); the host asks us to slow down/m,
      ],
    ];
    for (const [r, code, message] of expectations) {
      expect(r.stderr).toMatch(message);
      expect(r.code, r.stderr).toBe(code);
      expect(r.stderr, 'no stack trace').not.toMatch(/\n\s+at /);
    }
    expect(missing.stderr).toMatch(
      /GET http:\/\/127\.0\.0\.1:\d+\/missing\/outagesummary\/view\/OutageEventJSON → 404/,
    );
  });

  it('parse: a payload that does not parse exits 1 naming the file and the field', async () => {
    const t = testTempDir('sources-parse');
    const broken = path.join(t, 'broken.json');
    fs.writeFileSync(broken, JSON.stringify({ events: [{ Slices: 'none' }] }));
    const probeDir = path.join(t, 'probe');
    fs.mkdirSync(probeDir);
    fs.writeFileSync(
      path.join(probeDir, 'index.json'),
      JSON.stringify({
        source: { states: ['WI'] },
        requests: [{ url: 'https://www.we-energies.com/outagesummary/view/OutageEventJSON', status: 'ok' }],
      }),
    );
    const parse = (...args: string[]) => cli('sources', 'parse', ...args);
    const results = await Promise.all([
      parse('--connector', 'wec', '--states', 'WI', broken),
      parse('--connector', 'wec', probeDir),
    ]);
    const expectations: Array<[number, RegExp]> = [
      [
        1,
        new RegExp(
          `^outage: schema: ${esc(broken)}: WEC OutageEventJSON answer has an unexpected shape: events\\.0\\.Slices: `,
          'm',
        ),
      ],
      [1, new RegExp(`^outage: schema: ${esc(path.join(probeDir, 'index.json'))}: requests\\.0\\.status: `, 'm')],
    ];
    expectations.forEach(([code, message], i) => {
      expect(results[i].stderr).toMatch(message);
      expect(results[i].code, results[i].stderr).toBe(code);
      expect(results[i].stderr).not.toMatch(/\n\s+at /);
    });
  });
});
