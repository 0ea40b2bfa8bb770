// The SienaTech request over real HTTP on 127.0.0.1, serving the recorded file at the map's pushpin path. Tested on
// the peer's edited sample only (payloads/sienatech/sample.xml): values rounded/edited, field names as the peer's
// adapter reads them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedPath, sourceDef } from '../../../test/shared-data.ts';
import { loadAtlas } from '../../geo/counties.ts';

const PATH = '/Outages/Home/UpdatePushpin';
const hits: Array<{ url: string; method?: string; accept?: string; length?: string; body: string }> = [];
let server: http.Server;
let client: HttpClient;
let base = '';
let xml = '';

beforeAll(async () => {
  // Load the county shapes first: the load blocks the event loop for seconds, long enough for the server to drop
  // an idle keep-alive socket that the client would then reuse.
  loadAtlas();
  // Without the shared data the server answers a file without outages, and only the tests that need none run.
  xml = hasSharedData ? readFileSync(sharedPath('payloads/sienatech/sample.xml'), 'utf8') : '<NewDataSet />';
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const { url = '', method, headers } = req;
      hits.push({ url, method, accept: headers.accept, length: headers['content-length'], body });
      res.setHeader('content-type', 'text/xml; charset=utf-8');
      if (method !== 'POST') return void res.writeHead(405).end();
      if (url === PATH) return void res.end(xml);
      if (url === `${PATH}?html=1`) return void res.end('<!DOCTYPE html><html><body>Down for maintenance</body>');
      if (url === `${PATH}?other=1`) return void res.end('<OutageData><Incidents/></OutageData>');
      res.writeHead(503).end('<html>busy</html>');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new HttpClient(LOOPBACK_HTTP);
});
afterAll(async () => {
  await client.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const source = (url: string) =>
  sourceDef({ connector: 'sienatech' as never, utility: 'United Power', states: ['CO'], url });
const ctx = (path: string) => ({ http: client.forSource(), source: source(`${base}${path}`), priority: 0 });
const read = async (path: string) => {
  const c = ctx(path);
  return normalize(await fetch(c), c.source);
};

describe('sienatech fetch', () => {
  it('one POST with an empty body, asking for XML; the raw is the text as served', async () => {
    hits.length = 0;
    expect(await fetch(ctx(PATH))).toBe(xml);
    expect(hits).toEqual([
      { url: PATH, method: 'POST', accept: 'application/xml, text/xml, */*', length: '0', body: '' },
    ]);
  });

  it.skipIf(!hasSharedData)('normalises what it fetched as the recorded file reads', async () => {
    const snap = await read(PATH);
    const counts = [...xml.matchAll(/<CURCUST>(\d+)<\/CURCUST>/g)].map((m) => Number(m[1]));
    expect(snap.customers_out).toBe(counts.reduce((s, n) => s + n, 0));
    expect(snap.incidents.map((i) => i.customers_out)).toEqual(counts);
  });

  it('rejects any other url before a request', async () => {
    hits.length = 0;
    for (const path of ['/Outages/Home/Index', '/Outages/Home/UpdatePushpins', `/x${PATH}`, '/']) {
      await expect(fetch(ctx(path))).rejects.toMatchObject({
        reason: 'config',
        message: expect.stringMatching(/Outages\/Home\/UpdatePushpin.*e\.g\. https:\/\/outages\.unitedpower\.com/),
      });
    }
    await expect(fetch({ ...ctx(PATH), source: source('not a url') })).rejects.toMatchObject({ reason: 'config' });
    expect(hits).toEqual([]);
  });

  it('fails the poll on a non-2xx answer, a body that is not XML, and XML of another shape', async () => {
    await expect(fetch(ctx(`${PATH}?down=1`))).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    await expect(read(`${PATH}?html=1`)).rejects.toMatchObject({ reason: 'bad_body' });
    await expect(read(`${PATH}?other=1`)).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/expected root element <NewDataSet>, got <OutageData>/),
    });
  });
});
