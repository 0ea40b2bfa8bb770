// The TEP request over real HTTP on 127.0.0.1, serving the peer's UNS sample (both divisions) as the mapfeed would.
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

const PATH = '/OutageApp/mapfeed';
const REFERER = 'https://www.tep.com/outages/';
// The UNS sample's "updated" (Jun 30, 5:00 PM MST), sent as the server's Date so the ETRs get their year.
const DATE = 'Wed, 01 Jul 2026 00:00:00 GMT';
interface Hit {
  method?: string;
  url?: string;
  type?: string;
  referer?: string;
  body: string;
}
const hits: Hit[] = [];
let server: http.Server;
let client: HttpClient;
let base = '';
let recorded: { outages: Array<{ division: string; customersOut: string }>; [k: string]: unknown };

beforeAll(async () => {
  // Load the county shapes first: the load blocks the event loop for seconds, long enough for the server to drop
  // an idle keep-alive socket that the client would then reuse.
  loadAtlas();
  // Without the shared data the server answers an empty list, and only the tests that need no recording run.
  recorded = hasSharedData ? (sharedJson('payloads/tep/uns-sample.json') as typeof recorded) : { outages: [] };
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const { method, url } = req;
      hits.push({ method, url, type: req.headers['content-type'], referer: req.headers.referer, body });
      res.setHeader('date', DATE);
      res.setHeader('content-type', 'application/json; charset=utf-8');
      // the real host refuses a GET (403, as the peer notes)
      if (method !== 'POST') return void res.writeHead(403).end();
      if (url === PATH) return void res.end(JSON.stringify(recorded));
      if (url === `${PATH}?broken=1`) return void res.end('{"data": {"outages": {"division": "TEP"}}}');
      if (url === `${PATH}?html=1`) return void res.end('<html>maintenance</html>');
      res.writeHead(503).end('busy');
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

const source = (path: string, options: Record<string, unknown> = {}) =>
  sourceDef({
    connector: 'tep' as never,
    utility: 'UNS Electric',
    states: ['AZ'],
    url: `${base}${path}`,
    options: { referer: REFERER, ...options },
  });
const ctx = (path: string, options: Record<string, unknown> = {}) => {
  const def = source(path, options);
  return { http: client.forSource(undefined, sourceHeaders(def.options)), source: def, priority: 0 };
};

describe('tep fetch', () => {
  it.skipIf(!hasSharedData)(
    'one POST of an empty form with the outage page as Referer, dated by the server',
    async () => {
      hits.length = 0;
      const c = ctx(PATH, { division: 'USE' });
      const raw = await fetch(c);
      expect(hits).toEqual([
        { method: 'POST', url: PATH, type: 'application/x-www-form-urlencoded', referer: REFERER, body: '' },
      ]);
      expect(raw).toEqual({ captured_at: new Date(DATE).toISOString(), answer: recorded });
      const snap = normalize(raw, c.source);
      const use = recorded.outages.filter((o) => o.division === 'USE');
      expect(snap.customers_out).toBe(Number(recorded.AffectedCustomersUSE));
      expect(snap.customers_out).toBe(use.reduce((s, o) => s + Number(o.customersOut), 0));
      expect(snap.incidents).toHaveLength(use.length);
      expect(snap.incidents.every((i) => i.etr !== null)).toBe(true);
      expect(snap.counties.every((cty) => cty.fips.startsWith('04'))).toBe(true);
    },
  );

  it('rejects a url that is not the mapfeed, or a bad division, before any request', async () => {
    hits.length = 0;
    for (const path of ['/OutageApp/outages', '/OutageApp/mapfeed/extra']) {
      await expect(fetch(ctx(path))).rejects.toMatchObject({
        reason: 'config',
        message: expect.stringMatching(/OutageApp\/mapfeed/),
      });
    }
    await expect(fetch({ ...ctx(PATH), source: { ...source(PATH), url: 'not a url' } })).rejects.toMatchObject({
      reason: 'config',
    });
    await expect(fetch(ctx(PATH, { division: 'U S E' }))).rejects.toMatchObject({
      reason: 'config',
      message: expect.stringMatching(/options\.division/),
    });
    expect(hits).toEqual([]);
  });

  it('fails the poll on a non-2xx answer, a body that is not JSON, and a body of the wrong shape', async () => {
    await expect(fetch(ctx(`${PATH}?down=1`))).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    await expect(fetch(ctx(`${PATH}?html=1`))).rejects.toMatchObject({ reason: 'bad_body' });
    const c = ctx(`${PATH}?broken=1`);
    await expect(fetch(c).then((raw) => normalize(raw, c.source))).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/data\.outages: expected array, got object/),
    });
  });
});
