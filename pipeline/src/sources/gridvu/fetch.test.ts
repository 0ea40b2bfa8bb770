// The GridVu request over real HTTP on 127.0.0.1, serving the recorded answer. Tested on the peer's edited sample only
// (payloads/gridvu/sample.json): values rounded/edited, field names as the peer's adapter reads them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { sourceHeaders } from '../source-http.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';
import { loadAtlas } from '../../geo/counties.ts';

const PATH = '/GridVuServer/Public/getAllOutages';
const REFERER = 'https://outages.lbwl.com/';
const hits: Array<{ url: string; method?: string; agent?: string; referer?: string }> = [];
let server: http.Server;
let client: HttpClient;
let base = '';
let recorded: { outageLst: Array<{ idf: string; custAffected: number; planned?: boolean }> };

beforeAll(async () => {
  // Load the county shapes first: the load blocks the event loop for seconds, long enough for the server to drop
  // an idle keep-alive socket that the client would then reuse.
  loadAtlas();
  // Without the shared data the server answers an empty list, and only the tests that need no recording run.
  recorded = hasSharedData ? (sharedJson('payloads/gridvu/sample.json') as typeof recorded) : { outageLst: [] };
  server = http.createServer((req, res) => {
    const { referer } = req.headers;
    hits.push({ url: req.url ?? '', method: req.method, agent: req.headers['user-agent'], referer });
    res.setHeader('content-type', 'application/json; charset=utf-8');
    if (req.url === PATH) return void res.end(JSON.stringify(recorded));
    if (req.url === `${PATH}?broken=1`) return void res.end('{"outageLst": {"custAffected": 3}}');
    if (req.url === `${PATH}?html=1`) return void res.end('<html><title>Maintenance</title></html>');
    res.writeHead(503).end('<html>unavailable</html>');
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

const source = (path: string, options: Record<string, unknown> = {}) =>
  sourceDef({
    connector: 'gridvu' as never,
    utility: 'Lansing Board of Water & Light',
    states: ['MI'],
    url: `${base}${path}`,
    options,
  });
const ctx = (path: string, options: Record<string, unknown> = {}) => {
  const def = source(path, options);
  return { http: client.forSource(undefined, sourceHeaders(def.options)), source: def, priority: 0 };
};

describe('gridvu fetch', () => {
  it.skipIf(!hasSharedData)('one GET of getAllOutages; the answer is the raw', async () => {
    hits.length = 0;
    const c = ctx(PATH);
    const raw = await fetch(c);
    expect(hits).toEqual([{ url: PATH, method: 'GET', agent: client.options.userAgent, referer: undefined }]);
    expect(raw).toEqual(recorded);
    const snap = normalize(raw, c.source);
    const unplanned = recorded.outageLst.filter((o) => o.planned !== true);
    expect(snap.customers_out).toBe(unplanned.reduce((s, o) => s + o.custAffected, 0));
    expect(snap.incidents.map((i) => i.id)).toEqual(unplanned.map((o) => o.idf));
  });

  it('sends the outage page as Referer when the row sets options.referer', async () => {
    hits.length = 0;
    await fetch(ctx(PATH, { referer: REFERER }));
    expect(hits).toEqual([{ url: PATH, method: 'GET', agent: client.options.userAgent, referer: REFERER }]);
  });

  it('rejects a url that is not getAllOutages before any request', async () => {
    hits.length = 0;
    for (const path of ['/', '/GridVuServer/Public/getOutage', '/GridVuServer/getAllOutages']) {
      await expect(fetch(ctx(path))).rejects.toMatchObject({
        reason: 'config',
        message: expect.stringMatching(/GridVuServer\/Public\/getAllOutages/),
      });
    }
    await expect(fetch({ ...ctx(PATH), source: { ...source(PATH), url: 'not a url' } })).rejects.toMatchObject({
      reason: 'config',
    });
    expect(hits).toEqual([]);
  });

  it('fails the poll on a non-2xx answer, an HTML page instead of JSON, and a body of the wrong shape', async () => {
    await expect(fetch(ctx(`${PATH}?down=1`))).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    await expect(fetch(ctx(`${PATH}?html=1`))).rejects.toMatchObject({ reason: 'bad_body' });
    const c = ctx(`${PATH}?broken=1`);
    await expect(fetch(c).then((raw) => normalize(raw, c.source))).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/outageLst: expected array, got object/),
    });
  });
});
