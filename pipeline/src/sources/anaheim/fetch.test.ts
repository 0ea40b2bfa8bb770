// The Anaheim request over real HTTP on 127.0.0.1, serving the peer's ActiveIncidents sample as the GIS host would.
// Tested on the peer's edited sample only: values rounded/edited; field names as the peer's adapter reads them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { sourceHeaders } from '../source-http.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';
import { loadAtlas } from '../../geo/counties.ts';

const PATH = '/electricoutages/ActiveIncidents.cshtml';
const REFERER = 'https://www.anaheim.net/';
const hits: Array<{ method?: string; url?: string; referer?: string }> = [];
let server: http.Server;
let client: HttpClient;
let base = '';
let recorded: { features: Array<{ properties: { ID?: string } }> };

beforeAll(async () => {
  // Load the county shapes first: the load blocks the event loop for seconds, long enough for the server to drop
  // an idle keep-alive socket that the client would then reuse.
  loadAtlas();
  // Without the shared data the server answers an empty collection, and only the tests that need no recording run.
  recorded = hasSharedData ? (sharedJson('payloads/anaheim/sample.json') as typeof recorded) : { features: [] };
  server = http.createServer((req, res) => {
    const { method, url } = req;
    hits.push({ method, url, referer: req.headers.referer });
    res.setHeader('content-type', 'application/json; charset=utf-8');
    if (url === PATH) return void res.end(JSON.stringify(recorded));
    if (url === `${PATH}?broken=1`) return void res.end('{"type": "FeatureCollection", "features": {}}');
    if (url === `${PATH}?html=1`) return void res.end('<html>maintenance</html>');
    res.writeHead(503).end('busy');
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
    connector: 'anaheim' as never,
    utility: 'Anaheim Public Utilities',
    states: ['CA'],
    url: `${base}${path}`,
    options: { referer: REFERER },
  });
const ctx = (path: string) => {
  const def = source(path);
  return { http: client.forSource(undefined, sourceHeaders(def.options)), source: def, priority: 0 };
};

describe('anaheim fetch', () => {
  it.skipIf(!hasSharedData)('one GET of ActiveIncidents.cshtml with the Referer; the answer is the raw', async () => {
    hits.length = 0;
    const c = ctx(PATH);
    const raw = await fetch(c);
    expect(hits).toEqual([{ method: 'GET', url: PATH, referer: REFERER }]);
    expect(raw).toEqual(recorded);
    const snap = normalize(raw, c.source);
    expect(snap.customers_out).toBe(recorded.features.filter((f) => f.properties.ID).length);
    expect(snap.incidents).toHaveLength(new Set(recorded.features.map((f) => f.properties.ID)).size);
  });

  it('rejects a url that is not ActiveIncidents.cshtml before any request', async () => {
    hits.length = 0;
    for (const path of ['/electricoutages/', '/electricoutages/ActiveIncidents.cshtml/extra']) {
      await expect(fetch(ctx(path))).rejects.toMatchObject({
        reason: 'config',
        message: expect.stringMatching(/ActiveIncidents\.cshtml/),
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
      message: expect.stringMatching(/features: expected array, got object/),
    });
  });
});
