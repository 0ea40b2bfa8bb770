// The NorthWestern Energy request over real HTTP on 127.0.0.1, serving the recorded list wrapped as the upstream sends
// it ({d: "<JSON text>"}). Tested on the peer's edited sample only (payloads/nwe/sample.json): values rounded/edited,
// field names as the peer's adapter reads them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { UNCHANGED } from '../connector.ts';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { sourceHeaders } from '../source-http.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';
import { loadAtlas } from '../../geo/counties.ts';

const PATH = '/get-outage-map-data';
const REFERER = 'https://northwesternenergy.com/outages';
const ETAG = '"v1"';
/** Bodies served at PATH?{key}: each a way the answer can go wrong. */
const BROKEN: Record<string, string> = {
  html: '<html>maintenance</html>',
  inner: JSON.stringify({ d: '<html>error</html>' }),
  nod: JSON.stringify({ Message: 'Authentication failed.' }),
  aspnet: JSON.stringify({ d: JSON.stringify({ Message: 'There was an error processing the request.' }) }),
  row: JSON.stringify({ d: JSON.stringify([{ AREA: 'Butte', LATITUDE: 46, LONGITUDE: -112.5 }]) }),
};
const hits: Array<{ url: string; method?: string; referer?: string; origin?: string; inm?: string }> = [];
let server: http.Server;
let client: HttpClient;
let base = '';
let recorded: Array<{ NUM_CUST: number }>;

beforeAll(async () => {
  // Load the county shapes first: the load blocks the event loop for seconds, long enough for the server to drop
  // an idle keep-alive socket that the client would then reuse.
  loadAtlas();
  // Without the shared data the server answers an empty list, and only the tests that need no recording run.
  recorded = hasSharedData ? (sharedJson('payloads/nwe/sample.json') as typeof recorded) : [];
  server = http.createServer((req, res) => {
    const { referer, origin } = req.headers;
    const inm = req.headers['if-none-match'];
    hits.push({ url: req.url ?? '', method: req.method, referer, origin, inm });
    res.setHeader('content-type', 'application/json; charset=utf-8');
    const key = (req.url ?? '').split('?')[1] ?? '';
    if (req.url === PATH) {
      res.setHeader('etag', ETAG);
      if (inm === ETAG) return void res.writeHead(304).end();
      return void res.end(JSON.stringify({ d: JSON.stringify(recorded) }));
    }
    if (req.url?.startsWith(`${PATH}?`) && key in BROKEN) return void res.end(BROKEN[key]);
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
    connector: 'nwe' as never,
    utility: 'NorthWestern Energy',
    states: ['MT', 'SD', 'NE'],
    url: `${base}${path}`,
    options: { referer: REFERER },
  });
const ctx = (path: string, scope = '') => {
  const def = source(path);
  return { http: client.forSource(undefined, sourceHeaders(def.options), scope), source: def, priority: 0 };
};

describe('nwe fetch', () => {
  it.skipIf(!hasSharedData)('one GET with the outage page as Referer; the list inside d is the raw', async () => {
    hits.length = 0;
    const c = ctx(PATH);
    const raw = await fetch(c);
    expect(hits).toEqual([
      { url: PATH, method: 'GET', referer: REFERER, origin: 'https://northwesternenergy.com', inm: undefined },
    ]);
    expect(raw).toEqual(recorded);
    const snap = normalize(raw, c.source);
    expect(snap.customers_out).toBe(recorded.reduce((s, o) => s + o.NUM_CUST, 0));
    expect(snap.incidents.map((i) => i.customers_out)).toEqual(recorded.map((o) => o.NUM_CUST));
  });

  it('is UNCHANGED on a 304 while the snapshot is held, and the list again when it is not', async () => {
    await fetch(ctx(PATH, 'held'));
    hits.length = 0;
    expect(await fetch({ ...ctx(PATH, 'held'), held: true })).toBe(UNCHANGED);
    expect(await fetch(ctx(PATH, 'held'))).toEqual(recorded);
    expect(hits.map((h) => h.inm)).toEqual([ETAG, ETAG]);
  });

  it('rejects a url that is not get-outage-map-data before any request', async () => {
    hits.length = 0;
    for (const path of ['/outages', '/get-outage-map-data/extra', '/api/get-outage-map-data']) {
      await expect(fetch(ctx(path))).rejects.toMatchObject({
        reason: 'config',
        message: expect.stringMatching(/get-outage-map-data/),
      });
    }
    await expect(fetch({ ...ctx(PATH), source: { ...source(PATH), url: 'not a url' } })).rejects.toMatchObject({
      reason: 'config',
    });
    expect(hits).toEqual([]);
  });

  it('fails the poll on a non-2xx answer and on bodies that are not JSON, outside or inside d', async () => {
    await expect(fetch(ctx(`${PATH}?down=1`))).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    await expect(fetch(ctx(`${PATH}?html`))).rejects.toMatchObject({ reason: 'bad_body' });
    await expect(fetch(ctx(`${PATH}?inner`))).rejects.toMatchObject({
      reason: 'bad_body',
      message: expect.stringMatching(/d is not JSON text \(starts with "<html>error<\/html>"\)/),
    });
  });

  it('fails the poll as a schema error on a body of the wrong shape, naming the path', async () => {
    await expect(fetch(ctx(`${PATH}?nod`))).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/: d: expected string \(JSON text\), got undefined/),
    });
    const read = (key: string) => {
      const c = ctx(`${PATH}?${key}`);
      return fetch(c).then((raw) => normalize(raw, c.source));
    };
    await expect(read('aspnet')).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/d: expected array, got object \(Message: There was an error/),
    });
    await expect(read('row')).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/d\.0\.NUM_CUST: expected a count/),
    });
  });
});
