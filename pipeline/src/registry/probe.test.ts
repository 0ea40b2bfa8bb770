// probe.ts: body file names, the saved directory's rules, and a failed poll recorded rather than thrown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { UsageError } from '../errors.ts';
import { bodyFileName, probeSource, saveProbe, type ProbeIndex } from './probe.ts';
import { closeAll, testTempDir } from '../../test/clean-machine.ts';
import { hasSharedData, sharedPath, sourceDef } from '../../test/shared-data.ts';

describe('bodyFileName', () => {
  const json = Buffer.from('{"a":1}');
  it.each([
    [1, 'https://kubra.io/data/x/public/reports/county_report.json', 'application/json', json, '01-county_report.json'],
    [
      2,
      'https://kubra.io/stormcenter/api/v1/stormcenters/i/views/v/currentState?preview=false',
      'application/json',
      json,
      '02-currentState.json',
    ],
    [
      3,
      'https://www.outageentry.com/Outage/ajax/ajaxShellOut.php',
      'text/html; charset=UTF-8',
      json,
      '03-ajaxShellOut.php',
    ],
    [4, 'https://outage.gvea.com/data/outages', undefined, Buffer.from(' [1]'), '04-outages.json'],
    [5, 'https://host.example/map/', 'text/html', Buffer.from('<!doctype html>'), '05-map.html'],
    [12, 'https://host.example/', 'text/plain', Buffer.from('ok'), '12-index.txt'],
    [
      6,
      'https://host.example/a/..%2F..%2Fetc%2Fpasswd',
      'application/xml',
      Buffer.from('<?xml'),
      '06-_2F.._2Fetc_2Fpasswd.xml',
    ],
  ])('%i %s → %s', (seq, url, type, body, name) => {
    expect(bodyFileName(seq, url, type, body)).toBe(name);
  });
});

describe('saveProbe', () => {
  const run = (files: Record<string, string>) => ({
    index: { requests: Object.keys(files).map((file) => ({ file })) } as unknown as ProbeIndex,
    bodies: new Map(Object.entries(files).map(([k, v]) => [k, Buffer.from(v)])),
  });
  it('writes the bodies and index.json; a later save replaces an earlier probe entirely', () => {
    const dir = path.join(testTempDir('probe-save'), 'p');
    saveProbe(dir, run({ '01-a.json': '[1]', '02-b.json': '[2]' }));
    expect(fs.readdirSync(dir).sort()).toEqual(['01-a.json', '02-b.json', 'index.json']);
    saveProbe(dir, run({ '01-c.json': '[3]' }));
    expect(fs.readdirSync(dir).sort()).toEqual(['01-c.json', 'index.json']);
    expect(fs.readFileSync(path.join(dir, '01-c.json'), 'utf8')).toBe('[3]');
  });
  it('refuses a directory holding anything else, and deletes nothing', () => {
    const dir = testTempDir('probe-save-foreign');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'mine');
    expect(() => saveProbe(dir, run({ '01-a.json': '[1]' }))).toThrow(UsageError);
    expect(() => saveProbe(dir, run({ '01-a.json': '[1]' }))).toThrow(/notes\.txt.*give a new or empty directory/);
    expect(fs.readdirSync(dir)).toEqual(['notes.txt']);
  });
});

describe('probeSource', () => {
  let server: http.Server;
  let base = '';
  const summary = hasSharedData
    ? fs.readFileSync(sharedPath('payloads/milsoft/flint-emc-outagesummary-2026-10-10T1053Z.json'))
    : Buffer.alloc(0);
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/ok/data/outages.json')
        return void res
          .writeHead(200, { 'content-type': 'application/json', etag: '"v1"', 'x-other': 'dropped' })
          .end(fs.readFileSync(sharedPath('payloads/milsoft/flint-emc-outages-2026-10-10T1053Z.json')));
      if (req.url === '/ok/data/outageSummary.json')
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(summary);
      if (req.url?.startsWith('/busy/')) return void res.writeHead(429, { 'retry-after': '90' }).end('slow down');
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() =>
    closeAll(
      () => server.closeAllConnections(),
      () => new Promise((r) => server.close(r)),
    ),
  );

  it.skipIf(!hasSharedData)(
    'records every request in call order with the headers that matter; the optional summary 404 is kept as a failed request',
    async () => {
      const source = sourceDef({ connector: 'milsoft', states: ['GA'], url: `${base}/ok/data/outages.json` });
      const run = await probeSource(source);
      expect(run.error).toBeNull();
      expect(run.index.requests.map((r) => [r.seq, new URL(r.url).pathname, r.status, r.file])).toEqual([
        [1, '/ok/data/outages.json', 200, '01-outages.json'],
        [2, '/ok/data/outageSummary.json', 200, '02-outageSummary.json'],
      ]);
      expect(run.index.requests[0].headers).toEqual({
        'content-type': 'application/json',
        etag: '"v1"',
        date: expect.stringMatching(/ GMT$/),
      });
      expect(run.bodies.get('02-outageSummary.json')!.equals(summary)).toBe(true);
      expect(run.index.result).toEqual({
        ok: true,
        customers_out: JSON.parse(summary.toString()).customersOutNow,
        counties: run.snapshot!.counties.length,
        incidents: run.snapshot!.incidents.length,
      });

      const noSummary = await probeSource({ ...source, url: `${base}/nosum/data/outages.json` });
      expect(noSummary.error).toMatchObject({ reason: 'http_status', status: 404 }); // the data file itself is missing
      expect(noSummary.index.requests.map((r) => [r.status, r.file, r.error?.split(':')[0]])).toEqual([
        [404, null, 'http_status'],
        [404, null, 'http_status'],
      ]);
    },
  );
  it('a refusal is returned, not thrown, with its Retry-After in the index', async () => {
    const run = await probeSource(sourceDef({ connector: 'nisc', states: ['HI'], url: `${base}/busy/summary.json` }));
    expect(run.snapshot).toBeNull();
    expect(run.error).toMatchObject({ reason: 'http_status', status: 429, retryAfter: 90 });
    expect(run.index.result).toEqual({
      ok: false,
      reason: 'http_status',
      message: `${base}/busy/summary.json answered HTTP 429 (Retry-After 90 s)`,
    });
    expect(run.index.requests[0]).toMatchObject({ status: 429, headers: { 'retry-after': '90' }, file: null });
  });
});
