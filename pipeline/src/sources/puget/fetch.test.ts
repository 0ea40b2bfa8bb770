// The PSE request over real HTTP on 127.0.0.1, serving the recorded storm answer as PSE would.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { connectorKit, expectRefusedUnsent, recordedJson } from '../test-kit/index.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';

const PATH = '/api/sitecore/OutageMap/AnonymoussMapListView';
const REFERER = 'https://www.pse.com/en/outage/outage-map';
// Without the shared data the upstream answers an empty map, and only the tests that need no recording run.
type Summary = { CustomerAfftectedCount: number };
const recorded = recordedJson<{
  UnplannedOutageSummary: Summary;
  PlannedOutageSummary?: Summary;
  PSPSSummary?: Summary;
  PseMap: unknown[];
}>('payloads/puget/pse-outages-2026-03-13T2218Z.json', {
  UnplannedOutageSummary: { CustomerAfftectedCount: 0 },
  PseMap: [],
});
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'puget', utility: 'Puget Sound Energy', states: ['WA'], options: { referer: REFERER } },
  {
    type: 'application/json; charset=utf-8',
    routes: { [PATH]: { json: recorded }, [`${PATH}?broken=1`]: { body: '{"PseMap": "none"}' } },
    fallback: { status: 503, body: '<html>busy</html>' },
    hit: (r) => ({ url: r.url, referer: r.headers.referer }),
  },
);

describe('puget fetch', () => {
  it.skipIf(!hasSharedData)(
    'one GET of the list view with the map page as Referer; the answer is the raw',
    async () => {
      kit.hits.length = 0;
      const { raw, snap } = await kit.poll(PATH);
      expect(kit.hits).toEqual([{ url: PATH, referer: REFERER }]);
      expect(raw).toEqual(recorded);
      // PSE's headline in parts: unplanned, planned work and shutoffs, every customer without power.
      const parts = [recorded.UnplannedOutageSummary, recorded.PlannedOutageSummary, recorded.PSPSSummary];
      expect(snap.customers_out).toBe(parts.reduce((s, p) => s + (p?.CustomerAfftectedCount ?? 0), 0));
      expect(snap.incidents.length).toBeGreaterThan(0);
    },
  );

  it('rejects a url that is not the list view before any request', async () => {
    // PSE's path has a double "s"; the single-s spelling is a 404 upstream
    const paths = ['/api/sitecore/OutageMap/AnonymousMapListView', '/outage-map'];
    await expectRefusedUnsent(kit, paths, /AnonymoussMapListView/);
    await expectRefusedUnsent(kit, ['not a url']);
  });

  it('fails the poll on a non-2xx answer, and on a body of the wrong shape', async () => {
    await expect(kit.fetch(`${PATH}?down=1`)).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    await expect(kit.poll(`${PATH}?broken=1`)).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/PseMap: expected array, got string/),
    });
  });
});
