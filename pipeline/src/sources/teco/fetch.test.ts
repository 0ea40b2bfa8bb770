// The outage-tiles POST over real HTTP on 127.0.0.1, serving the peer's hand-made sample (values made up; field
// names as the peer's adapter reads them): no real answer of the current endpoint is recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { DEFAULT_BBOX, fetch } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';
import { loadAtlas } from '../../geo/counties.ts';

const PATH = '/api/v1/outage-tiles';
interface Seen {
  method: string;
  url: string;
  type: string;
  body: string;
}
const seen: Seen[] = [];
let server: http.Server;
let client: HttpClient;
let base = '';
let answer = '{}';

beforeAll(async () => {
  // Load the county shapes first: the load blocks the event loop for seconds, long enough for the server to drop
  // an idle keep-alive socket that the client would then reuse.
  loadAtlas();
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const { method = '', url = '', headers } = req;
      seen.push({ method, url, type: headers['content-type'] ?? '', body });
      if (url === '/broken/api/v1/outage-tiles') return void res.writeHead(503).end('busy');
      res.setHeader('content-type', 'application/json');
      res.end(url === '/malformed/api/v1/outage-tiles' ? JSON.stringify({ hits: { hits: 'none' } }) : answer);
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
  sourceDef({ connector: 'teco' as never, utility: 'Tampa Electric', states: ['FL'], url: `${base}${path}`, options });
const run = (path: string, options: Record<string, unknown> = {}) => {
  const def = source(path, options);
  return fetch({ http: client.forSource(), source: def, priority: 0 });
};

describe('teco fetch', () => {
  it.skipIf(!hasSharedData)('POSTs the box query as JSON and normalises the answer as the recorded one', async () => {
    const recorded = sharedJson('payloads/teco/sample.json') as {
      aggregations: { customerCountSum: { value: number } };
    };
    answer = JSON.stringify(recorded);
    seen.length = 0;
    const def = source(PATH);
    const raw = await fetch({ http: client.forSource(), source: def, priority: 0 });
    expect(seen.map((s) => [s.method, s.url, s.type])).toEqual([['POST', PATH, 'application/json']]);
    const q = JSON.parse(seen[0].body);
    expect(q.size).toBe(10_000);
    expect(q.aggs).toEqual({ customerCountSum: { sum: { field: 'customerCount' } } });
    expect(q.query.bool.filter.geo_bounding_box.polygonCenter).toEqual({
      top_left: { lat: DEFAULT_BBOX[3], lon: DEFAULT_BBOX[0] },
      bottom_right: { lat: DEFAULT_BBOX[1], lon: DEFAULT_BBOX[2] },
    });
    expect(raw).toEqual(recorded);
    expect(normalize(raw, def).customers_out).toBe(recorded.aggregations.customerCountSum.value);
  });
  it('sends options.bbox as the box', async () => {
    answer = JSON.stringify({ hits: { hits: [] } });
    seen.length = 0;
    await run(PATH, { bbox: [-83, 27, -81, 29] });
    expect(JSON.parse(seen[0].body).query.bool.filter.geo_bounding_box.polygonCenter).toEqual({
      top_left: { lat: 29, lon: -83 },
      bottom_right: { lat: 27, lon: -81 },
    });
  });
  it('rejects a wrong url or bbox before any request', async () => {
    seen.length = 0;
    await expect(run('/api/v1/outages')).rejects.toMatchObject({ reason: 'config' });
    await expect(run(PATH, { bbox: [-81, 27, -83, 29] })).rejects.toMatchObject({ reason: 'config' });
    await expect(run(PATH, { bbox: 'tampa' })).rejects.toThrow(/\[west, south, east, north\]/);
    expect(seen).toEqual([]);
  });
  it('fails the poll on a non-2xx answer, and a malformed body fails normalising as a schema error', async () => {
    await expect(run('/broken/api/v1/outage-tiles')).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    const raw = await run('/malformed/api/v1/outage-tiles');
    expect(() => normalize(raw, source('/malformed/api/v1/outage-tiles'))).toThrow(
      expect.objectContaining({ reason: 'schema', message: expect.stringMatching(/hits\.hits: expected array/) }),
    );
  });
});
