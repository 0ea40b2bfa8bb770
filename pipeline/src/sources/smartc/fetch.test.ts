// The SmartC request chains over real HTTP on 127.0.0.1: the OPPD bundle's three answers, each at its own path,
// and the (hand-made) WidgetAPI sample.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { fetch, flavourOf, serviceUrls } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedPath, sourceDef } from '../../../test/shared-data.ts';
import { loadAtlas } from '../../geo/counties.ts';

const API = '/ServiceAPI/api/1';
const WIDGET = '/WidgetAPI/Outage/PreloginGetOutageData?isPlannedOutage=0';
const hits: string[] = [];
let server: http.Server;
let client: HttpClient;
let base = '';
let bundle: {
  events: { data: Array<{ affectedCount: number }> };
  counties: unknown;
  accounts: { data: { count: number } };
};

beforeAll(async () => {
  // Load the county shapes first: the load blocks the event loop for seconds, long enough for the server to drop
  // an idle keep-alive socket that the client would then reuse.
  loadAtlas();
  // Without the shared data the server has no files, and only the test that needs none runs.
  const files: Record<string, unknown> = {};
  if (hasSharedData) {
    bundle = JSON.parse(
      fs.readFileSync(sharedPath('payloads/smartc/oppd-serviceapi-bundle-2026-10-07T1501Z.json'), 'utf8'),
    ).reports;
    Object.assign(files, {
      [`${API}/outage/alloutages/2/1/false`]: bundle.events,
      [`${API}/outage/AllOutagesListView/2/1/false`]: bundle.counties,
      [`${API}/Account/Count`]: bundle.accounts,
      '/bare/outage/alloutages/2/1': bundle.events, // a tenant without the two extras (CLECO's path shape)
      [WIDGET]: JSON.parse(fs.readFileSync(sharedPath('payloads/smartc/sample.json'), 'utf8')),
    });
  }
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const body = files[req.url ?? ''];
    if (body === undefined) return void res.writeHead(404).end();
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(body));
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
  sourceDef({ connector: 'smartc' as never, states: ['NE'], url: `${base}${path}`, options });

describe('smartc fetch', () => {
  it.skipIf(!hasSharedData)(
    'ServiceAPI: events, county list view and account count, all from the registry url',
    async () => {
      hits.length = 0;
      const def = source(`${API}/outage/alloutages/2/1/false`);
      const snap = normalize(await fetch({ http: client.forSource(), source: def, priority: 0 }), def);
      expect(hits.sort()).toEqual([
        `${API}/Account/Count`,
        `${API}/outage/AllOutagesListView/2/1/false`,
        `${API}/outage/alloutages/2/1/false`,
      ]);
      expect(snap.customers_out).toBe(bundle.events.data.reduce((s, e) => s + e.affectedCount, 0));
      expect(snap.customers_served).toBe(bundle.accounts.data.count);
      expect(snap.counties.length).toBeGreaterThan(0);
    },
  );
  it.skipIf(!hasSharedData)(
    'ServiceAPI: the extras can be turned off, and a tenant without them still polls',
    async () => {
      hits.length = 0;
      const off = source(`${API}/outage/alloutages/2/1/false`, { county_list: false, account_count: false });
      await fetch({ http: client.forSource(), source: off, priority: 0 });
      expect(hits).toEqual([`${API}/outage/alloutages/2/1/false`]);
      const bare = source('/bare/outage/alloutages/2/1');
      const raw = (await fetch({ http: client.forSource(), source: bare, priority: 0 })) as {
        counties: unknown;
        accounts: unknown;
      };
      expect(raw).toMatchObject({ counties: null, accounts: null });
      expect(normalize(raw, bare).customers_served).toBeNull();
    },
  );
  it.skipIf(!hasSharedData)('WidgetAPI: one GET of PreloginGetOutageData', async () => {
    hits.length = 0;
    const def = sourceDef({ connector: 'smartc' as never, states: ['WI'], url: `${base}${WIDGET}` });
    const snap = normalize(await fetch({ http: client.forSource(), source: def, priority: 0 }), def);
    expect(hits).toEqual([WIDGET]);
    expect(snap.customers_out).toBe(18);
  });
  it('derives the extra URLs and rejects bad rows before any request', async () => {
    expect(serviceUrls('https://myoppd-svc.cxlive.ai/ServiceAPI/api/1/outage/alloutages/2/1/false?key=k')).toEqual({
      counties: 'https://myoppd-svc.cxlive.ai/ServiceAPI/api/1/outage/AllOutagesListView/2/1/false?key=k',
      accounts: 'https://myoppd-svc.cxlive.ai/ServiceAPI/api/1/Account/Count?key=k',
    });
    expect(flavourOf('https://mge-svc.smartcmobile.com/WidgetAPI/Outage/PreloginGetOutageData?isPlannedOutage=0')).toBe(
      'widget',
    );
    hits.length = 0;
    for (const def of [
      source('/outage/summary'),
      source(`${API}/outage/alloutages/2/1/false`, { county_list: 'yes' }),
    ]) {
      await expect(fetch({ http: client.forSource(), source: def, priority: 0 })).rejects.toMatchObject({
        reason: 'config',
      });
    }
    expect(hits).toEqual([]);
  });
});
