// The Clark PUD request over real HTTP on 127.0.0.1, serving the peer's sample as the JSONP call the map loads. Tested
// on the peer's edited sample only: values rounded/edited; field names as the peer's adapter reads them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { sourceHeaders } from '../source-http.ts';
import { fetch, unwrap } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';
import { loadAtlas } from '../../geo/counties.ts';

const PATH = '/outage-map/data.js';
const REFERER = 'https://www.clarkpublicutilities.com/outage-map/';
const hits: Array<{ url: string; referer?: string; origin?: string }> = [];
let server: http.Server;
let client: HttpClient;
let base = '';
let recorded: { totalAffectedCustomerCount: number; openOutages: Array<{ affectedCustomerCount: number }> };

beforeAll(async () => {
  // Load the county shapes first: the load blocks the event loop for seconds, long enough for the server to drop
  // an idle keep-alive socket that the client would then reuse.
  loadAtlas();
  // The fixture wraps the call's argument as {ok, result}; without the shared data the server answers no outages.
  recorded = hasSharedData
    ? (sharedJson('payloads/clark-pud/sample.json') as { result: typeof recorded }).result
    : { totalAffectedCustomerCount: 0, openOutages: [] };
  server = http.createServer((req, res) => {
    hits.push({ url: req.url ?? '', referer: req.headers.referer, origin: req.headers.origin });
    res.setHeader('content-type', 'application/javascript; charset=utf-8');
    if (req.url === PATH) return void res.end(`gksUpdateOutageData(${JSON.stringify(recorded, null, 1)});\n`);
    if (req.url === `${PATH}?html=1`) return void res.end('<!DOCTYPE html><html>maintenance</html>');
    if (req.url === `${PATH}?shape=1`) return void res.end('gksUpdateOutageData({"openOutages": {"key": 1}})');
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
    connector: 'clarkpud' as never,
    utility: 'Clark Public Utilities',
    states: ['WA'],
    url: `${base}${path}`,
    options: { referer: REFERER },
  });
const ctx = (path: string) => {
  const def = source(path);
  return { http: client.forSource(undefined, sourceHeaders(def.options)), source: def, priority: 0 };
};

describe('clarkpud fetch', () => {
  it.skipIf(!hasSharedData)('one GET of data.js with the map as Referer; the call argument is the raw', async () => {
    hits.length = 0;
    const c = ctx(PATH);
    const raw = await fetch(c);
    expect(hits).toEqual([{ url: PATH, referer: REFERER, origin: 'https://www.clarkpublicutilities.com' }]);
    expect(raw).toEqual(recorded);
    const snap = normalize(raw, c.source);
    expect(snap.customers_out).toBe(recorded.totalAffectedCustomerCount);
    expect(snap.incidents).toHaveLength(recorded.openOutages.length);
  });

  it('rejects a url that is not data.js before any request', async () => {
    hits.length = 0;
    for (const path of ['/outage-map/', '/outage-map/data.json']) {
      await expect(fetch(ctx(path))).rejects.toMatchObject({ reason: 'config', message: /outage-map\/data\.js/ });
    }
    await expect(fetch({ ...ctx(PATH), source: { ...source(PATH), url: 'not a url' } })).rejects.toMatchObject({
      reason: 'config',
    });
    expect(hits).toEqual([]);
  });

  it('fails the poll on a non-2xx answer, a body that is not the call, and a call of the wrong shape', async () => {
    await expect(fetch(ctx(`${PATH}?down=1`))).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    await expect(fetch(ctx(`${PATH}?html=1`))).rejects.toMatchObject({
      reason: 'bad_body',
      message: expect.stringContaining('starts with "<!DOCTYPE html>'),
    });
    const c = ctx(`${PATH}?shape=1`);
    await expect(fetch(c).then((raw) => normalize(raw, c.source))).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/openOutages: expected array, got object/),
    });
  });

  it('unwraps exactly gksUpdateOutageData(…) with an optional ; and whitespace', () => {
    expect(unwrap('u', 'gksUpdateOutageData({"openOutages":[]})')).toEqual({ openOutages: [] });
    expect(unwrap('u', ' gksUpdateOutageData( {"a":1} ) ;\r\n')).toEqual({ a: 1 });
    for (const bad of [
      'otherCallback({"a":1})',
      'gksUpdateOutageData({"a":1}',
      'gksUpdateOutageData({"a":1}); alert(1)',
      '{"a":1}',
      'gksUpdateOutageData({"a":)',
    ]) {
      expect(() => unwrap('u', bad)).toThrow(expect.objectContaining({ reason: 'bad_body' }));
    }
  });
});
