// The CLI's own bad input: clear messages on stderr and exit code 2, never a stack trace.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import http from 'node:http';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { hasSharedData, sharedPath } from './shared-data.ts';
import { closeAll, testTempDir } from './clean-machine.ts';

const BIN = fileURLToPath(new URL('../../bin/outage.js', import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });

describe('outage CLI', () => {
  it.each([
    [['import', 'tornado', 'x.csv'], /Unknown import kind `tornado`; use one of eaglei, mcc, coverage, oe417, eia861/],
    [['import', 'oe417', '/nonexistent/2020_Annual_Summary.xls'], /No such file/],
    [['start', '--history-dir', '/nonexistent/history'], /--history-dir \/nonexistent\/history holds no history files/],
    [['start', '--storm-pace', '0'], /--storm-pace wants a number above 0 and at most 1000, not `0`/],
    [['start', '--storm-pace', 'fast'], /--storm-pace wants a number above 0 and at most 1000, not `fast`/],
    [['poll', '--once', '--sources', '/nonexistent/sources.csv'], /Cannot read the source registry/],
    [['poll', '--once', '--now', 'soon'], /--now: Expected an ISO-8601 instant/],
    [['poll', '--listen', 'nowhere'], /--listen wants host:port \(e\.g\. 127\.0\.0\.1:8787\), not `nowhere`/],
  ])('%j → exit 2 with a message', (args, msg) => {
    const dir = testTempDir('cli');
    const r = run(...args, '--state', path.join(dir, 'state'), '--out', path.join(dir, 'public'));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(msg);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe.skipIf(!hasSharedData)('outage import from a URL', () => {
  it('downloads, imports through the real importer, publishes the report tables; a missing URL is a clear error', async () => {
    const server = http.createServer((req, res) => {
      if (req.url === '/oe417/2020_Annual_Summary.xls')
        fs.createReadStream(sharedPath('history/oe417/2020_Annual_Summary.xls')).pipe(res);
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const dir = testTempDir('cli-url');
    const common = [
      '--state',
      path.join(dir, 'state'),
      '--out',
      path.join(dir, 'public'),
      '--now',
      '2026-09-01T00:00:00Z',
    ];
    const exec = (url: string) =>
      promisify(execFile)(process.execPath, [BIN, 'import', 'oe417', url, ...common], {
        encoding: 'utf8',
        timeout: 55_000,
      }); // killed before the test times out
    try {
      const ok = await exec(`http://127.0.0.1:${port}/oe417/2020_Annual_Summary.xls`);
      expect(ok.stderr).toMatch(
        /import oe417 2020_Annual_Summary\.xls: 383 rows read, 383 loaded, 0 rejected, years 2020/,
      );
      expect(ok.stderr).toMatch(/report tables published/);
      const doc = JSON.parse(
        fs.readFileSync(path.join(dir, 'public/api/v1/reports/2020.data.disturbances.json'), 'utf8'),
      );
      expect(doc.data.rows.length).toBe(383);
      const missing = await exec(`http://127.0.0.1:${port}/nope.xls`).catch((e: { code: number; stderr: string }) => e);
      expect(missing).toMatchObject({ code: 2 });
      expect((missing as { stderr: string }).stderr).toMatch(/Could not download .*HTTP 404\. Nothing was imported\./);
    } finally {
      await closeAll(
        () => server.closeAllConnections(),
        () => new Promise((r) => server.close(r)),
      );
    }
  });
});
