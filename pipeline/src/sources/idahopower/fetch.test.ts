// The Idaho Power request over real HTTP on 127.0.0.1, serving the recorded answer. Tested on the peer's edited sample
// only (payloads/idaho-power/sample.json): values rounded/edited, field names as the peer's adapter reads them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { sourceHeaders } from '../source-http.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';
import { loadAtlas } from '../../geo/counties.ts';

const PATH = '/api/Outage/GetCurrentOutageInformation';
const REFERER = 'https://www.idahopower.com/outages/';
const hits: Array<{ url: string; method?: string; referer?: string; origin?: string }> = [];
let server: http.Server;
let client: HttpClient;
let base = '';
let recorded: { object: { totalCustomersAffected: number; outages: Array<{ omsCustomerCount: number }> } };

beforeAll(async () => {
  // Load the county shapes first: the load blocks the event loop for seconds, long enough for the server to drop
  // an idle keep-alive socket that the client would then reuse.
  loadAtlas();
  // Without the shared data the server answers an empty list, and only the tests that need no recording run.
  recorded = hasSharedData
    ? (sharedJson('payloads/idaho-power/sample.json') as typeof recorded)
    : { object: { totalCustomersAffected: 0, outages: [] } };
  server = http.createServer((req, res) => {
    const { referer, origin } = req.headers;
    hits.push({ url: req.url ?? '', method: req.method, referer, origin });
    res.setHeader('content-type', 'application/json; charset=utf-8');
    if (req.url === PATH) return void res.end(JSON.stringify(recorded));
    if (req.url === `${PATH}?broken=1`) return void res.end('{"object": {"outages": "none"}}');
    if (req.url === `${PATH}?html=1`) return void res.end('<html>maintenance</html>');
    res.writeHead(503).end('<html>busy</html>');
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

const source = (path: string) =>
  sourceDef({
    connector: 'idahopower' as never,
    utility: 'Idaho Power',
    states: ['ID', 'OR'],
    url: `${base}${path}`,
    options: { referer: REFERER },
  });
const ctx = (path: string) => {
  const def = source(path);
  return { http: client.forSource(undefined, sourceHeaders(def.options)), source: def, priority: 0 };
};

describe('idahopower fetch', () => {
  it.skipIf(!hasSharedData)('one GET with the outage page as Referer; the answer is the raw', async () => {
    hits.length = 0;
    const c = ctx(PATH);
    const raw = await fetch(c);
    expect(hits).toEqual([{ url: PATH, method: 'GET', referer: REFERER, origin: 'https://www.idahopower.com' }]);
    expect(raw).toEqual(recorded);
    const snap = normalize(raw, c.source);
    expect(snap.customers_out).toBe(recorded.object.totalCustomersAffected);
    expect(snap.incidents.map((i) => i.customers_out)).toEqual(recorded.object.outages.map((o) => o.omsCustomerCount));
  });

  it('rejects a url that is not GetCurrentOutageInformation before any request', async () => {
    hits.length = 0;
    for (const path of ['/api/Outage/GetOutageSummary', '/outages/']) {
      await expect(fetch(ctx(path))).rejects.toMatchObject({
        reason: 'config',
        message: expect.stringMatching(/GetCurrentOutageInformation/),
      });
    }
    await expect(fetch({ ...ctx(PATH), source: { ...source(PATH), url: 'not a url' } })).rejects.toMatchObject({
      reason: 'config',
    });
    expect(hits).toEqual([]);
  });

  it('fails the poll on a non-2xx answer, a body that is not JSON, and a body of the wrong shape', async () => {
    await expect(fetch(ctx(`${PATH}?down=1`))).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    await expect(fetch(ctx(`${PATH}?html=1`))).rejects.toMatchObject({ reason: 'bad_body' });
    const c = ctx(`${PATH}?broken=1`);
    await expect(fetch(c).then((raw) => normalize(raw, c.source))).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/object\.outages: expected array, got string/),
    });
  });
});
