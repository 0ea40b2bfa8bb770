// The PSE request over real HTTP on 127.0.0.1, serving the recorded storm answer as PSE would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { sourceHeaders } from '../source-http.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';
import { loadAtlas } from '../../geo/counties.ts';

const PATH = '/api/sitecore/OutageMap/AnonymoussMapListView';
const REFERER = 'https://www.pse.com/en/outage/outage-map';
const hits: Array<{ url: string; referer?: string }> = [];
let server: http.Server;
let client: HttpClient;
let base = '';
let recorded: { UnplannedOutageSummary: { CustomerAfftectedCount: number }; PseMap: unknown[] };

beforeAll(async () => {
  // Load the county shapes first: the load blocks the event loop for seconds, long enough for the server to drop
  // an idle keep-alive socket that the client would then reuse.
  loadAtlas();
  // Without the shared data the server answers an empty map, and only the tests that need no recording run.
  recorded = hasSharedData
    ? (sharedJson('payloads/puget/pse-outages-2026-03-13T2218Z.json') as typeof recorded)
    : { UnplannedOutageSummary: { CustomerAfftectedCount: 0 }, PseMap: [] };
  server = http.createServer((req, res) => {
    hits.push({ url: req.url ?? '', referer: req.headers.referer });
    res.setHeader('content-type', 'application/json; charset=utf-8');
    if (req.url === PATH) return void res.end(JSON.stringify(recorded));
    if (req.url === `${PATH}?broken=1`) return void res.end('{"PseMap": "none"}');
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
    connector: 'puget' as never,
    utility: 'Puget Sound Energy',
    states: ['WA'],
    url: `${base}${path}`,
    options: { referer: REFERER },
  });
const ctx = (path: string) => {
  const def = source(path);
  return { http: client.forSource(undefined, sourceHeaders(def.options)), source: def, priority: 0 };
};

describe('puget fetch', () => {
  it.skipIf(!hasSharedData)(
    'one GET of the list view with the map page as Referer; the answer is the raw',
    async () => {
      hits.length = 0;
      const c = ctx(PATH);
      const raw = await fetch(c);
      expect(hits).toEqual([{ url: PATH, referer: REFERER }]);
      expect(raw).toEqual(recorded);
      const snap = normalize(raw, c.source);
      expect(snap.customers_out).toBe(recorded.UnplannedOutageSummary.CustomerAfftectedCount);
      expect(snap.incidents.length).toBeGreaterThan(0);
    },
  );

  it('rejects a url that is not the list view before any request', async () => {
    hits.length = 0;
    // PSE's path has a double "s"; the single-s spelling is a 404 upstream
    for (const path of ['/api/sitecore/OutageMap/AnonymousMapListView', '/outage-map']) {
      await expect(fetch(ctx(path))).rejects.toMatchObject({
        reason: 'config',
        message: expect.stringMatching(/AnonymoussMapListView/),
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
      message: expect.stringMatching(/PseMap: expected array, got string/),
    });
  });
});
