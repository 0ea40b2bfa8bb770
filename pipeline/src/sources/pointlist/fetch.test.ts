// The point-list request over real HTTP on 127.0.0.1: one GET of the row's url, serving the peer's KUB sample (edited
// values) at a path of our choosing, read by the row's options; bad options fail before any request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { sourceHeaders } from '../source-http.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';
import { closeAll } from '../../../test/clean-machine.ts';
import { loadAtlas } from '../../geo/counties.ts';

const PATH = '/outages/current.json';
const OPTIONS = {
  list: 'electricOutage',
  count: 'customerCount',
  id: 'id',
  lon: 'x',
  lat: 'y',
  total: 'electricOutageInfo.0.electricCustomersWithoutPower',
  referer: 'https://utility.test/outage-map',
};
const hits: Array<{ url: string; method?: string; referer?: string }> = [];
let server: http.Server;
let client: HttpClient;
let base = '';
let answer: { electricOutage: Array<{ id: number; customerCount: string }>; electricOutageInfo: unknown[] };

beforeAll(async () => {
  loadAtlas(); // blocks the loop for seconds: before the server, so no idle keep-alive socket is dropped under us
  answer = hasSharedData
    ? (sharedJson('payloads/kub/sample.json') as typeof answer)
    : { electricOutage: [], electricOutageInfo: [] };
  server = http.createServer((req, res) => {
    hits.push({ url: req.url ?? '', method: req.method, referer: req.headers.referer });
    if (req.url !== PATH) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
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

const ctx = (options: Record<string, unknown>) => {
  const source = sourceDef({ connector: 'pointlist', states: ['TN'], url: `${base}${PATH}`, options });
  return { http: client.forSource(undefined, sourceHeaders(source.options)), source, priority: 0 };
};

describe('pointlist fetch', () => {
  it.skipIf(!hasSharedData)('one GET of the url, with the row’s Referer; the answer is the raw', async () => {
    hits.length = 0;
    const c = ctx(OPTIONS);
    const raw = await fetch(c);
    expect(hits).toEqual([{ url: PATH, method: 'GET', referer: OPTIONS.referer }]);
    expect(raw).toEqual(answer);
    const snap = normalize(raw, c.source);
    expect(snap.incidents.map((i) => i.id)).toEqual(answer.electricOutage.map((o) => String(o.id)));
    expect(snap.customers_out).toBe(
      (answer.electricOutageInfo[0] as Record<string, number>).electricCustomersWithoutPower,
    );
  });

  it('fails on options that name no list or count before any request', async () => {
    hits.length = 0;
    for (const options of [{}, { list: 'electricOutage', lat: 'y', lon: 'x' }, { ...OPTIONS, noun: '' }])
      await expect(fetch(ctx(options))).rejects.toMatchObject({
        reason: 'config',
        message: expect.stringMatching(/pointlist options/),
      });
    expect(hits).toEqual([]);
  });
});
