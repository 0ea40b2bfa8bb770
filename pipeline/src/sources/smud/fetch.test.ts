// The SMUD request over real HTTP on 127.0.0.1, serving the peer's sample as SMUD would. Tested on the peer's edited
// sample only: values rounded/edited; field names as the peer's adapter reads them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { sourceHeaders } from '../source-http.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';
import { loadAtlas } from '../../geo/counties.ts';

const PATH = '/omkml/api/communitylist/';
const REFERER = 'https://myaccount.smud.org/manage/outage';
const hits: Array<{ url: string; referer?: string; origin?: string }> = [];
let server: http.Server;
let client: HttpClient;
let base = '';
let recorded: { returndata: Array<{ Title: string; CustomersImpacted: number }> };

beforeAll(async () => {
  // Load the county shapes first: the load blocks the event loop for seconds, long enough for the server to drop
  // an idle keep-alive socket that the client would then reuse.
  loadAtlas();
  // Without the shared data the server answers an empty list, and only the tests that need no recording run.
  recorded = hasSharedData ? (sharedJson('payloads/smud/sample.json') as typeof recorded) : { returndata: [] };
  server = http.createServer((req, res) => {
    hits.push({ url: req.url ?? '', referer: req.headers.referer, origin: req.headers.origin });
    res.setHeader('content-type', 'application/json; charset=utf-8');
    if (req.url === PATH) return void res.end(JSON.stringify(recorded));
    if (req.url === `${PATH}?broken=1`) return void res.end('{"returndata": {"Title": "SMUD"}}');
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
    connector: 'smud' as never,
    utility: 'Sacramento Municipal Utility District',
    states: ['CA'],
    url: `${base}${path}`,
    options: { referer: REFERER },
  });
const ctx = (path: string) => {
  const def = source(path);
  return { http: client.forSource(undefined, sourceHeaders(def.options)), source: def, priority: 0 };
};

describe('smud fetch', () => {
  it.skipIf(!hasSharedData)(
    'one GET of the community list with the outage page as Referer; the answer is the raw',
    async () => {
      hits.length = 0;
      const c = ctx(PATH);
      const raw = await fetch(c);
      expect(hits).toEqual([{ url: PATH, referer: REFERER, origin: 'https://myaccount.smud.org' }]);
      expect(raw).toEqual(recorded);
      const snap = normalize(raw, c.source);
      expect(snap.customers_out).toBe(recorded.returndata.find((r) => r.Title === 'SMUD')?.CustomersImpacted);
      expect(snap.areas).toHaveLength(recorded.returndata.filter((r) => r.Title !== 'SMUD').length);
    },
  );

  it('rejects a url that is not the community list before any request', async () => {
    hits.length = 0;
    // the parallel outage list and KML are other shapes
    for (const path of ['/omkml/api/OutageList/', '/omkml/api/communitylist/kml']) {
      await expect(fetch(ctx(path))).rejects.toMatchObject({
        reason: 'config',
        message: expect.stringMatching(/communitylist/),
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
      message: expect.stringMatching(/returndata: expected array, got object/),
    });
  });
});
