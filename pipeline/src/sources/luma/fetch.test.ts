// The LUMA request over real HTTP on 127.0.0.1, serving the peer's sample as LUMA would. Tested on the peer's
// hand-made sample only: values made up; field names as the peer's adapter reads them.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { connectorKit, expectRefusedUnsent, recordedJson } from '../test-kit/index.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';

const PATH = '/miluma-outage-api/outage/regionsWithoutService';
const REFERER = 'https://miluma.lumapr.com/';
// Without the shared data the upstream answers empty totals, and only the tests that need no recording run.
const recorded = recordedJson<{
  totals: { totalClientsWithoutService: number; totalClients: number };
  regions: unknown[];
}>('payloads/luma/sample.json', { totals: { totalClientsWithoutService: 0, totalClients: 0 }, regions: [] });
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'luma', utility: 'LUMA Energy', states: ['PR'], options: { referer: REFERER } },
  {
    type: 'application/json; charset=utf-8',
    routes: {
      [PATH]: { json: recorded },
      [`${PATH}?broken=1`]: { body: '{"totals": {}, "regions": {"name": "Ponce"}}' },
    },
    fallback: { status: 503, body: '<html>busy</html>' },
    hit: (r) => ({ method: r.method, url: r.url, referer: r.headers.referer, origin: r.headers.origin }),
  },
);

describe('luma fetch', () => {
  it.skipIf(!hasSharedData)('one GET with the MiLUMA site as Referer; the answer is the raw', async () => {
    kit.hits.length = 0;
    const { raw, snap } = await kit.poll(PATH);
    expect(kit.hits).toEqual([{ method: 'GET', url: PATH, referer: REFERER, origin: 'https://miluma.lumapr.com' }]);
    expect(raw).toEqual(recorded);
    expect(snap.customers_out).toBe(recorded.totals.totalClientsWithoutService);
    expect(snap.customers_served).toBe(recorded.totals.totalClients);
    expect(snap.areas).toHaveLength(recorded.regions.length);
  });

  it('rejects a url that is not regionsWithoutService before any request', async () => {
    const paths = ['/miluma-outage-api/outage/municipality', '/outage/regionsWithoutService'];
    await expectRefusedUnsent(kit, paths, /regionsWithoutService/);
    await expectRefusedUnsent(kit, ['not a url']);
  });

  it('fails the poll on a non-2xx answer, and on a body of the wrong shape', async () => {
    await expect(kit.fetch(`${PATH}?down=1`)).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    await expect(kit.poll(`${PATH}?broken=1`)).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/regions: expected array, got object/),
    });
  });
});
