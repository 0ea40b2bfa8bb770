// The NiSource request over real HTTP on 127.0.0.1, serving the recorded NIPSCO answer as is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { sourceHeaders } from '../source-http.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';
import { loadAtlas } from '../../geo/counties.ts';

const PATH = '/nisource-api/ldc/GetPowerOutages';
const REFERER = 'https://www.nipsco.com/outages/power-outages';
const hits: Array<{ url: string; referer?: string; origin?: string }> = [];
/** What the server answers at PATH, per test. */
let answer: { status: number; body: string } = { status: 200, body: '{"outageList":[]}' };
let server: http.Server;
let client: HttpClient;
let base = '';
let recorded: { outageList: Array<{ affected: number; cause: string }> };

beforeAll(async () => {
  // Load the county shapes first: the load blocks the event loop for seconds, long enough for the server to drop
  // an idle keep-alive socket that the client would then reuse.
  loadAtlas();
  recorded = hasSharedData ? (sharedJson('payloads/nisource/sample.json') as typeof recorded) : { outageList: [] };
  server = http.createServer((req, res) => {
    hits.push({ url: req.url ?? '', referer: req.headers.referer, origin: req.headers.origin });
    if (req.url !== PATH) return void res.writeHead(404).end();
    res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' }).end(answer.body);
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
    connector: 'nisource' as never,
    utility: 'NIPSCO',
    states: ['IN'],
    url: `${base}${path}`,
    options: { referer: REFERER },
  });
/** One poll as the pipeline runs it: the row's referer on the source's HTTP view, then normalize. */
const poll = async (path: string) => {
  const def = source(path);
  const raw = await fetch({ http: client.forSource(undefined, sourceHeaders(def.options)), source: def, priority: 0 });
  return normalize(raw, def);
};

describe('nisource fetch', () => {
  it.skipIf(!hasSharedData)(
    'one GET of GetPowerOutages with the map page as Referer, normalising as recorded',
    async () => {
      hits.length = 0;
      answer = { status: 200, body: JSON.stringify(recorded) };
      const snap = await poll(PATH);
      expect(hits).toEqual([{ url: PATH, referer: REFERER, origin: 'https://www.nipsco.com' }]);
      const unplanned = recorded.outageList.filter((o) => o.cause !== 'scheduled');
      expect(snap.customers_out).toBe(unplanned.reduce((s, o) => s + o.affected, 0));
      expect(snap.incidents).toHaveLength(unplanned.length);
      expect(snap).toEqual(normalize(recorded, source(PATH)));
    },
  );
  it('rejects a url that is not GetPowerOutages before any request', async () => {
    hits.length = 0;
    await expect(poll('/nisource-api/ldc/GetCityPowerOutages')).rejects.toMatchObject({ reason: 'config' });
    await expect(poll('/outages/power-outages')).rejects.toThrow(/nisource-api\/ldc\/GetPowerOutages/);
    expect(hits).toEqual([]);
  });
  it('fails the poll on a non-2xx answer, a body that is not JSON, and a JSON body of another shape', async () => {
    answer = { status: 503, body: 'Service Unavailable' };
    await expect(poll(PATH)).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    await expect(poll(`/nisource${PATH}`)).rejects.toMatchObject({ reason: 'http_status', status: 404 });
    answer = { status: 200, body: '<html>Sorry</html>' };
    await expect(poll(PATH)).rejects.toMatchObject({ reason: 'bad_body' });
    answer = { status: 200, body: '{"outageList":{"affected":3}}' };
    await expect(poll(PATH)).rejects.toMatchObject({ reason: 'schema', message: expect.stringMatching(/outageList/) });
  });
});
