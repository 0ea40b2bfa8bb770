// The Green Mountain Power request over real HTTP on 127.0.0.1, serving the peer's sample as GMP would (edited values:
// it proves the request, not facts about GMP): one GET with the outage page as Referer; the answer is the raw.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { sourceHeaders } from '../source-http.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedPath, sourceDef } from '../../../test/shared-data.ts';
import { closeAll } from '../../../test/clean-machine.ts';
import { loadAtlas } from '../../geo/counties.ts';

const PATH = '/api/v2/outages/incidents/towns?all=true';
const REFERER = 'https://greenmountainpower.com/outages/';
const hits: Array<{ url: string; referer?: string }> = [];
let server: http.Server;
let client: HttpClient;
let base = '';
let body = '[]';

beforeAll(async () => {
  loadAtlas(); // blocks the loop for seconds: before the server, so no idle keep-alive socket is dropped under us
  if (hasSharedData) body = readFileSync(sharedPath('payloads/gmp/sample.json'), 'utf8');
  server = http.createServer((req, res) => {
    hits.push({ url: req.url ?? '', referer: req.headers.referer });
    res.setHeader('content-type', 'application/json; charset=utf-8');
    if (req.url === PATH) return void res.end(body);
    if (req.url === `${PATH}&html=1`) return void res.end('<!DOCTYPE html><html><body>Down</body></html>');
    res.writeHead(503).end('busy');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new HttpClient(LOOPBACK_HTTP);
});
afterAll(async () => {
  await closeAll(
    () => client.close(),
    () => server.closeAllConnections(),
    () => new Promise((r) => server.close(r)),
  );
});

const ctx = (path: string) => {
  const source = sourceDef({
    connector: 'gmp',
    utility: 'Green Mountain Power',
    states: ['VT'],
    url: `${base}${path}`,
    options: { referer: REFERER },
  });
  return { http: client.forSource(undefined, sourceHeaders(source.options)), source, priority: 0 };
};

describe('gmp fetch', () => {
  it.skipIf(!hasSharedData)(
    'one GET of the town list with the outage page as Referer; the answer is the raw',
    async () => {
      hits.length = 0;
      const c = ctx(PATH);
      const raw = await fetch(c);
      expect(hits).toEqual([{ url: PATH, referer: REFERER }]);
      expect(raw).toEqual(JSON.parse(body));
      const towns = JSON.parse(body) as Array<{ customers_affected: number }>;
      expect(normalize(raw, c.source).customers_out).toBe(towns.reduce((s, t) => s + t.customers_affected, 0));
    },
  );

  it('fails on an HTML page and a 503; refuses a url that is not the town list before any request', async () => {
    await expect(fetch(ctx(`${PATH}&html=1`))).rejects.toMatchObject({ reason: 'bad_body' });
    await expect(fetch(ctx('/api/v2/outages/incidents/towns?down=1'))).rejects.toMatchObject({
      reason: 'http_status',
      status: 503,
    });
    hits.length = 0;
    await expect(fetch(ctx('/api/v2/outages/incidents?active=true'))).rejects.toMatchObject({
      reason: 'config',
      message: expect.stringMatching(/towns\?all=true/),
    });
    expect(hits).toEqual([]);
  });
});
