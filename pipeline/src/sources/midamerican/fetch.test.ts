// The MidAmerican request over real HTTP on 127.0.0.1, serving the recorded answer as is. That answer is the peer's
// golden fixture raw, HAND-MADE in the vendor shape (placeholder names; field names as the peer's adapter reads them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { sourceHeaders } from '../source-http.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';
import { loadAtlas } from '../../geo/counties.ts';

const PATH = '/OutageWatch/api/County/CountyInfo/';
const REFERER = 'https://www.midamericanenergy.com/OutageWatch/dsk.html';
interface Seen {
  method?: string;
  url?: string;
  type?: string;
  referer?: string;
  origin?: string;
  body: string;
}
const seen: Seen[] = [];
/** What the server answers at PATH, per test. */
let answer: { status: number; body: string } = { status: 200, body: '[]' };
let server: http.Server;
let client: HttpClient;
let base = '';
let recorded: Array<{ NumOutages: number }> = [];

beforeAll(async () => {
  // Load the county shapes first: the load blocks the event loop for seconds, long enough for the server to drop
  // an idle keep-alive socket that the client would then reuse.
  loadAtlas();
  if (hasSharedData) recorded = sharedJson('payloads/midamerican/sample.json') as typeof recorded;
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const { method, url, headers: h } = req;
      seen.push({ method, url, type: h['content-type'], referer: h.referer, origin: h.origin, body });
      if (method !== 'POST' || url !== PATH) return void res.writeHead(404).end();
      res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' }).end(answer.body);
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
  sourceDef({
    connector: 'midamerican' as never,
    utility: 'MidAmerican Energy',
    states: ['IA', 'IL', 'SD'],
    url,
    options: { referer: REFERER },
  });
/** One poll as the pipeline runs it: the row's referer on the source's HTTP view, then normalize. */
const poll = async (url: string) => {
  const def = source(url);
  const raw = await fetch({ http: client.forSource(undefined, sourceHeaders(def.options)), source: def, priority: 0 });
  return { raw, snap: normalize(raw, def) };
};

describe('midamerican fetch', () => {
  it.skipIf(!hasSharedData)('POSTs {} as JSON with the map page as Referer; the answer is the raw', async () => {
    seen.length = 0;
    answer = { status: 200, body: JSON.stringify(recorded) };
    const { raw, snap } = await poll(`${base}${PATH}`);
    expect(seen).toEqual([
      {
        method: 'POST',
        url: PATH,
        type: 'application/json',
        referer: REFERER,
        origin: 'https://www.midamericanenergy.com',
        body: '{}',
      },
    ]);
    expect(raw).toEqual(recorded);
    expect(snap.customers_out).toBe(recorded.reduce((s, r) => s + r.NumOutages, 0));
    expect(snap.counties.map((c) => c.fips)).toEqual(['19153', '19173']);
  });
  it('rejects a url that is not CountyInfo before any request', async () => {
    seen.length = 0;
    for (const url of [`${base}/OutageWatch/dsk.html`, `${base}/OutageWatch/api/County/`, 'not a url']) {
      await expect(poll(url)).rejects.toMatchObject({
        reason: 'config',
        message: expect.stringMatching(/OutageWatch\/api\/County\/CountyInfo\//),
      });
    }
    expect(seen).toEqual([]);
  });
  it('fails the poll on a non-2xx answer, a body that is not JSON, and a JSON body of another shape', async () => {
    answer = { status: 503, body: 'Service Unavailable' };
    await expect(poll(`${base}${PATH}`)).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    answer = { status: 200, body: '<html>Sorry</html>' };
    await expect(poll(`${base}${PATH}`)).rejects.toMatchObject({ reason: 'bad_body' });
    answer = { status: 200, body: '[{"CountyNam":"POLK","NumOutages":{"n":3}}]' };
    await expect(poll(`${base}${PATH}`)).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/0\.NumOutages: expected number or string, got object/),
    });
  });
});
