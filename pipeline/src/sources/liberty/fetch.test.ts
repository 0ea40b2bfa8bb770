// The Liberty request over real HTTP on 127.0.0.1, serving the peer's sample as Liberty's OutageAPI would (edited
// values: it proves the request, not facts about Liberty): one GET of the region's city summary; the answer is the raw.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { sourceHeaders } from '../source-http.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedPath, sourceDef } from '../../../test/shared-data.ts';
import { closeAll } from '../../../test/clean-machine.ts';
import { loadAtlas } from '../../geo/counties.ts';

const PATH = '/OutageAPI/api/1/Outage/OutageSummaryCity?companyGroupCode=LUMO';
const REFERER = 'https://outage.libertyutilities.com/';
const hits: Array<{ url: string; referer?: string }> = [];
let server: http.Server;
let client: HttpClient;
let base = '';
let body = '{"status":{"code":200,"error":false},"data":[]}';

beforeAll(async () => {
  loadAtlas(); // blocks the loop for seconds: before the server, so no idle keep-alive socket is dropped under us
  if (hasSharedData) body = readFileSync(sharedPath('payloads/liberty/sample.json'), 'utf8');
  server = http.createServer((req, res) => {
    hits.push({ url: req.url ?? '', referer: req.headers.referer });
    res.setHeader('content-type', 'application/json; charset=utf-8');
    if (req.url === PATH) return void res.end(body);
    if (req.url?.endsWith('=REFUSED'))
      return void res.end('{"status":{"code":401,"error":true,"message":"Unauthorized"},"data":null}');
    res.writeHead(503).end('busy');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new HttpClient(LOOPBACK_HTTP);
});
afterAll(async () => {
  await closeAll(
    () => client.close(),
    () => server.closeAllConnections(),
    () => new Promise((r) => server.close(r)),
  );
});

const ctx = (path: string) => {
  const source = sourceDef({
    connector: 'liberty',
    utility: 'Liberty Utilities — Empire District',
    states: ['MO', 'AR', 'KS', 'OK'],
    url: `${base}${path}`,
    options: { referer: REFERER },
  });
  return { http: client.forSource(undefined, sourceHeaders(source.options)), source, priority: 0 };
};

describe('liberty fetch', () => {
  it.skipIf(!hasSharedData)(
    'one GET of the city summary with the outage page as Referer; the answer is the raw',
    async () => {
      hits.length = 0;
      const c = ctx(PATH);
      const raw = await fetch(c);
      expect(hits).toEqual([{ url: PATH, referer: REFERER }]);
      expect(raw).toEqual(JSON.parse(body));
      const cities = (JSON.parse(body) as { data: Array<{ customer_affected: string }> }).data;
      expect(normalize(raw, c.source).customers_out).toBe(cities.reduce((s, x) => s + Number(x.customer_affected), 0));
    },
  );

  it('an answer whose status is an error fails the poll; so does a 503; a url without its region is refused unsent', async () => {
    const refused = ctx('/OutageAPI/api/1/Outage/OutageSummaryCity?companyGroupCode=REFUSED');
    await expect(fetch(refused).then((raw) => normalize(raw, refused.source))).rejects.toMatchObject({
      reason: 'http_status',
      status: 401,
    });
    await expect(fetch(ctx('/OutageAPI/api/1/Outage/OutageSummaryCity?companyGroupCode=DOWN'))).rejects.toMatchObject({
      reason: 'http_status',
      status: 503,
    });
    hits.length = 0;
    for (const path of [
      '/OutageAPI/api/1/Outage/OutageSummaryCity',
      '/OutageAPI/api/1/Outage/OutageSummary?companyGroupCode=LUMO',
    ])
      await expect(fetch(ctx(path))).rejects.toMatchObject({ reason: 'config', message: /companyGroupCode=LUMO/ });
    expect(hits).toEqual([]);
  });
});
