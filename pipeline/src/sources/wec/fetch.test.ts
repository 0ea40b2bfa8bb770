// The WEC request over real HTTP on 127.0.0.1, serving the recorded We Energies answer (the scraper wrapper removed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';
import { loadAtlas } from '../../geo/counties.ts';

const PATH = '/outagesummary/view/OutageEventJSON';
// The scraper's capture time, sent as the server's Date so the display times get their year.
const DATE = 'Mon, 27 Jul 2026 21:13:16 GMT';
const hits: string[] = [];
let server: http.Server;
let client: HttpClient;
let base = '';
let recorded: { captured_at: string; events: Array<{ Slices: Array<{ AffectedCusts: number }> }> };

beforeAll(async () => {
  // Load the county shapes first: the load blocks the event loop for seconds, long enough for the server to drop
  // an idle keep-alive socket that the client would then reuse.
  loadAtlas();
  // Without the shared data the server answers an empty list, and only the test that needs no recording runs.
  recorded = hasSharedData
    ? (sharedJson('payloads/wec/we-energies-latest-2026-07-27T2113Z.json') as typeof recorded)
    : { captured_at: '', events: [] };
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url !== PATH) return void res.writeHead(404).end();
    res.setHeader('date', DATE);
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.end(JSON.stringify(recorded.events));
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
  sourceDef({ connector: 'wec' as never, utility: 'We Energies', states: ['WI', 'MI'], url: `${base}${path}` });

describe('wec fetch', () => {
  it.skipIf(!hasSharedData)(
    'one GET of OutageEventJSON, dated by the server, normalising like the recorded capture',
    async () => {
      hits.length = 0;
      const def = source(PATH);
      const raw = await fetch({ http: client.forSource(), source: def, priority: 0 });
      expect(hits).toEqual([PATH]);
      expect(raw.captured_at).toBe(new Date(recorded.captured_at).toISOString());
      const snap = normalize(raw, def);
      expect(snap.customers_out).toBe(
        recorded.events.flatMap((e) => e.Slices).reduce((s, x) => s + x.AffectedCusts, 0),
      );
      expect(snap).toEqual(normalize(recorded, def));
    },
  );
  it('rejects a url that is not OutageEventJSON before any request; a missing answer fails the poll', async () => {
    hits.length = 0;
    await expect(
      fetch({ http: client.forSource(), source: source('/outagesummary/view/outagegrid'), priority: 0 }),
    ).rejects.toMatchObject({ reason: 'config' });
    expect(hits).toEqual([]);
    await expect(fetch({ http: client.forSource(), source: source(`/wps${PATH}`), priority: 0 })).rejects.toMatchObject(
      { reason: 'http_status', status: 404 },
    );
  });
});
