// The SmartC request chains over real HTTP on 127.0.0.1: the OPPD bundle's three answers, each at its own path,
// and the (hand-made) WidgetAPI sample.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { type Answer, connectorKit, expectRefusedUnsent, recordedJson } from '../test-kit/index.ts';
import { fetch, flavourOf, serviceUrls } from './fetch.ts';
import { normalize } from './normalize.ts';

const API = '/ServiceAPI/api/1';
const WIDGET = '/WidgetAPI/Outage/PreloginGetOutageData?isPlannedOutage=0';
const bundle = recordedJson<{
  reports: {
    events: { data: Array<{ affectedCount: number }> };
    counties: unknown;
    accounts: { data: { count: number } };
  };
}>('payloads/smartc/oppd-serviceapi-bundle-2026-10-07T1501Z.json', {
  reports: { events: { data: [] }, counties: [], accounts: { data: { count: 0 } } },
}).reports;
// Without the shared data the upstream has no files, and only the test that needs none runs.
const files: Record<string, Answer> = hasSharedData
  ? {
      [`${API}/outage/alloutages/2/1/false`]: { json: bundle.events },
      [`${API}/outage/AllOutagesListView/2/1/false`]: { json: bundle.counties },
      [`${API}/Account/Count`]: { json: bundle.accounts },
      '/bare/outage/alloutages/2/1': { json: bundle.events }, // a tenant without the two extras (CLECO's path shape)
      [WIDGET]: { json: recordedJson<unknown>('payloads/smartc/sample.json', null) },
    }
  : {};
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'smartc', states: ['NE'] },
  { routes: files, type: 'application/json', fallback: { status: 404, type: '' } },
);

describe('smartc fetch', () => {
  it.skipIf(!hasSharedData)(
    'ServiceAPI: events, county list view and account count, all from the registry url',
    async () => {
      kit.hits.length = 0;
      const { snap } = await kit.poll(`${API}/outage/alloutages/2/1/false`);
      expect(kit.hits.sort()).toEqual([
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
      kit.hits.length = 0;
      const off = { county_list: false, account_count: false };
      await kit.fetch(kit.source(`${API}/outage/alloutages/2/1/false`, { options: off }));
      expect(kit.hits).toEqual([`${API}/outage/alloutages/2/1/false`]);
      const { raw, snap } = await kit.poll('/bare/outage/alloutages/2/1');
      expect(raw).toMatchObject({ counties: null, accounts: null });
      expect(snap.customers_served).toBeNull();
    },
  );
  it.skipIf(!hasSharedData)('WidgetAPI: one GET of PreloginGetOutageData', async () => {
    kit.hits.length = 0;
    const { snap } = await kit.poll(kit.source(WIDGET, { states: ['WI'] }));
    expect(kit.hits).toEqual([WIDGET]);
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
    const rows = [
      '/outage/summary',
      kit.source(`${API}/outage/alloutages/2/1/false`, { options: { county_list: 'yes' } }),
    ];
    await expectRefusedUnsent(kit, rows);
  });
});
