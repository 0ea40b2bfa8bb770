// The LUMA request over real HTTP on 127.0.0.1, serving the peer's sample as LUMA would. Tested on the peer's
// hand-made sample only: values made up; field names as the peer's adapter reads them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { sourceHeaders } from '../source-http.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

const PATH = '/miluma-outage-api/outage/regionsWithoutService';
const REFERER = 'https://miluma.lumapr.com/';
const hits: Array<{ method?: string; url: string; referer?: string; origin?: string }> = [];
let server: http.Server;
let client: HttpClient;
let base = '';
let recorded: { totals: { totalClientsWithoutService: number; totalClients: number }; regions: unknown[] };

beforeAll(async () => {
  // Without the shared data the server answers empty totals, and only the tests that need no recording run.
  recorded = hasSharedData
    ? (sharedJson('payloads/luma/sample.json') as typeof recorded)
    : { totals: { totalClientsWithoutService: 0, totalClients: 0 }, regions: [] };
  server = http.createServer((req, res) => {
    hits.push({ method: req.method, url: req.url ?? '', referer: req.headers.referer, origin: req.headers.origin });
    res.setHeader('content-type', 'application/json; charset=utf-8');
    if (req.url === PATH) return void res.end(JSON.stringify(recorded));
    if (req.url === `${PATH}?broken=1`) return void res.end('{"totals": {}, "regions": {"name": "Ponce"}}');
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
    connector: 'luma' as never,
    utility: 'LUMA Energy',
    states: ['PR'],
    url: `${base}${path}`,
    options: { referer: REFERER },
  });
const ctx = (path: string) => {
  const def = source(path);
  return { http: client.forSource(undefined, sourceHeaders(def.options)), source: def, priority: 0 };
};

describe('luma fetch', () => {
  it.skipIf(!hasSharedData)('one GET with the MiLUMA site as Referer; the answer is the raw', async () => {
    hits.length = 0;
    const c = ctx(PATH);
    const raw = await fetch(c);
    expect(hits).toEqual([{ method: 'GET', url: PATH, referer: REFERER, origin: 'https://miluma.lumapr.com' }]);
    expect(raw).toEqual(recorded);
    const snap = normalize(raw, c.source);
    expect(snap.customers_out).toBe(recorded.totals.totalClientsWithoutService);
    expect(snap.customers_served).toBe(recorded.totals.totalClients);
    expect(snap.areas).toHaveLength(recorded.regions.length);
  });

  it('rejects a url that is not regionsWithoutService before any request', async () => {
    hits.length = 0;
    for (const path of ['/miluma-outage-api/outage/municipality', '/outage/regionsWithoutService']) {
      await expect(fetch(ctx(path))).rejects.toMatchObject({
        reason: 'config',
        message: expect.stringMatching(/regionsWithoutService/),
      });
    }
    await expect(fetch({ ...ctx(PATH), source: { ...source(PATH), url: 'not a url' } })).rejects.toMatchObject({
      reason: 'config',
    });
    expect(hits).toEqual([]);
  });

  it('fails the poll on a non-2xx answer, and on a body of the wrong shape', async () => {
    await expect(fetch(ctx(`${PATH}?down=1`))).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    const c = ctx(`${PATH}?broken=1`);
    await expect(fetch(c).then((raw) => normalize(raw, c.source))).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/regions: expected array, got object/),
    });
  });
});
