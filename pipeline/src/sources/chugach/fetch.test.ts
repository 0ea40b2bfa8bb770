// The Chugach request over real HTTP on 127.0.0.1, serving the two halves of the peer's sample at Grids.js and
// Incidents.js (edited values: it proves the requests, not facts about Chugach): both are read, in one raw.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';
import { closeAll } from '../../../test/clean-machine.ts';
import { loadAtlas } from '../../geo/counties.ts';

const hits: string[] = [];
let server: http.Server;
let client: HttpClient;
let base = '';
let sample: { grids: unknown; incidents: unknown } = { grids: { Items: [] }, incidents: { Items: [] } };

beforeAll(async () => {
  loadAtlas(); // blocks the loop for seconds: before the server, so no idle keep-alive socket is dropped under us
  if (hasSharedData) sample = sharedJson('payloads/chugach/sections.json') as typeof sample;
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    res.setHeader('content-type', 'application/javascript');
    if (req.url === '/outage/Grids.js') return void res.end(JSON.stringify(sample.grids));
    if (req.url === '/outage/Incidents.js') return void res.end(JSON.stringify(sample.incidents));
    if (req.url === '/half/Grids.js') return void res.end(JSON.stringify(sample.grids));
    res.writeHead(404).end('<html>Not found</html>');
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

const ctx = (path: string) => ({
  http: client.forSource(),
  source: sourceDef({ connector: 'chugach', utility: 'Chugach Electric', states: ['AK'], url: `${base}${path}` }),
  priority: 0,
});

describe('chugach fetch', () => {
  it.skipIf(!hasSharedData)('GETs Grids.js and the Incidents.js beside it; the raw holds both answers', async () => {
    hits.length = 0;
    const c = ctx('/outage/Grids.js');
    const raw = await fetch(c);
    expect(hits.sort()).toEqual(['/outage/Grids.js', '/outage/Incidents.js']);
    expect(raw).toEqual(sample);
    const incidents = (sample.incidents as { Items: Array<{ CUSTOMERS_AFFECTED: number }> }).Items;
    const snap = normalize(raw, c.source);
    expect(snap.incidents.map((i) => i.customers_out)).toEqual(incidents.map((i) => i.CUSTOMERS_AFFECTED));
  });

  it('both answers are required; a url that is not Grids.js is refused before any request', async () => {
    await expect(fetch(ctx('/half/Grids.js'))).rejects.toMatchObject({ reason: 'http_status', status: 404 });
    hits.length = 0;
    await expect(fetch(ctx('/outage/Incidents.js'))).rejects.toMatchObject({
      reason: 'config',
      message: expect.stringMatching(/Grids\.js/),
    });
    expect(hits).toEqual([]);
  });
});
