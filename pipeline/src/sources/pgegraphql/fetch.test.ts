// The PGE request over real HTTP on 127.0.0.1, answering with the peer's edited sample (payloads/pge-graphql/
// sample.json: values rounded/edited; field names as the peer's adapter reads them), served as is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { sourceHeaders } from '../source-http.ts';
import { OUTAGES_QUERY, fetch } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';
import { loadAtlas } from '../../geo/counties.ts';

const PATH = '/pge-graphql';
const REFERER = 'https://portlandgeneral.com/outages';
interface Hit {
  method?: string;
  url: string;
  type?: string;
  referer?: string;
  origin?: string;
  body: string;
}
const hits: Hit[] = [];
/** What the server answers at PATH, per test. */
let answer: { status: number; body: string } = { status: 200, body: '{"data":{"getOutagesByCounty":[]}}' };
let server: http.Server;
let client: HttpClient;
let base = '';
let recorded: { data: { getOutagesByCounty: Array<{ totalCustomersImpacted: number }> } };

beforeAll(async () => {
  // Load the county shapes first: the load blocks the event loop for seconds, long enough for the server to drop
  // an idle keep-alive socket that the client would then reuse.
  loadAtlas();
  recorded = hasSharedData
    ? (sharedJson('payloads/pge-graphql/sample.json') as typeof recorded)
    : { data: { getOutagesByCounty: [] } };
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const { method, url = '', headers: h } = req;
      hits.push({ method, url, type: h['content-type'], referer: h.referer, origin: h.origin, body });
      if (url !== PATH || method !== 'POST') return void res.writeHead(404).end();
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
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

const source = (path: string) =>
  sourceDef({
    connector: 'pgegraphql' as never,
    utility: 'Portland General Electric',
    states: ['OR'],
    url: `${base}${path}`,
    options: { referer: REFERER },
  });
/** One poll as the pipeline runs it: the row's referer on the source's HTTP view, then normalize. */
const poll = async (path: string) => {
  const def = source(path);
  const raw = await fetch({ http: client.forSource(undefined, sourceHeaders(def.options)), source: def, priority: 0 });
  return normalize(raw, def);
};

describe('pgegraphql fetch', () => {
  it.skipIf(!hasSharedData)('one JSON POST of the county query with the map page as Referer', async () => {
    hits.length = 0;
    answer = { status: 200, body: JSON.stringify(recorded) };
    const snap = await poll(PATH);
    expect(hits).toEqual([
      {
        method: 'POST',
        url: PATH,
        type: 'application/json',
        referer: REFERER,
        origin: 'https://portlandgeneral.com',
        body: JSON.stringify({ query: OUTAGES_QUERY, variables: {} }),
      },
    ]);
    expect(snap.customers_out).toBe(recorded.data.getOutagesByCounty.reduce((s, r) => s + r.totalCustomersImpacted, 0));
    expect(snap).toEqual(normalize(recorded, source(PATH)));
  });
  it('asks for the county list as the map does: the JSON field without a selection, the params left empty', () => {
    expect(OUTAGES_QUERY).toMatch(/getOutagesByCounty\(params: \$params\) \}$/);
  });
  it('rejects a url that is not the GraphQL endpoint before any request', async () => {
    hits.length = 0;
    await expect(poll('/outages')).rejects.toMatchObject({ reason: 'config' });
    await expect(poll('/pge-graphql/outages')).rejects.toThrow(/pge-graphql/);
    const notUrl = { ...source('/pge-graphql'), url: 'apix.portlandgeneral.com/pge-graphql' };
    await expect(fetch({ http: client.forSource(), source: notUrl, priority: 0 })).rejects.toMatchObject({
      reason: 'config',
    });
    expect(hits).toEqual([]);
  });
  it('fails the poll on a non-2xx answer, a body that is not JSON, errors without data, another shape', async () => {
    answer = { status: 503, body: 'Service Unavailable' };
    await expect(poll(PATH)).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    answer = { status: 200, body: '<html>Sorry</html>' };
    await expect(poll(PATH)).rejects.toMatchObject({ reason: 'bad_body' });
    answer = { status: 200, body: '{"errors":[{"message":"Cannot query field \\"county\\""}],"data":null}' };
    await expect(poll(PATH)).rejects.toMatchObject({
      reason: 'bad_body',
      message: expect.stringMatching(/Cannot query/),
    });
    answer = { status: 200, body: '{"data":{"getOutagesByCounty":{"county":"POLK"}}}' };
    await expect(poll(PATH)).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/data\.getOutagesByCounty/),
    });
  });
});
