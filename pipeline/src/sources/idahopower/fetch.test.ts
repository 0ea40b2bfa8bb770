// The Idaho Power request over real HTTP on 127.0.0.1, serving the recorded answer. Tested on the peer's edited sample
// only (payloads/idaho-power/sample.json): values rounded/edited, field names as the peer's adapter reads them.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { connectorKit, expectRefusedUnsent, recordedJson } from '../test-kit/index.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';

const PATH = '/api/Outage/GetCurrentOutageInformation';
const REFERER = 'https://www.idahopower.com/outages/';
// Without the shared data the upstream answers an empty list, and only the tests that need no recording run.
const recorded = recordedJson<{
  object: { totalCustomersAffected: number; outages: Array<{ omsCustomerCount: number }> };
}>('payloads/idaho-power/sample.json', { object: { totalCustomersAffected: 0, outages: [] } });
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'idahopower', utility: 'Idaho Power', states: ['ID', 'OR'], options: { referer: REFERER } },
  {
    type: 'application/json; charset=utf-8',
    routes: {
      [PATH]: { json: recorded },
      [`${PATH}?broken=1`]: { body: '{"object": {"outages": "none"}}' },
      [`${PATH}?html=1`]: { body: '<html>maintenance</html>' },
    },
    fallback: { status: 503, body: '<html>busy</html>' },
    hit: (r) => ({ url: r.url, method: r.method, referer: r.headers.referer, origin: r.headers.origin }),
  },
);

describe('idahopower fetch', () => {
  it.skipIf(!hasSharedData)('one GET with the outage page as Referer; the answer is the raw', async () => {
    kit.hits.length = 0;
    const { raw, snap } = await kit.poll(PATH);
    expect(kit.hits).toEqual([{ url: PATH, method: 'GET', referer: REFERER, origin: 'https://www.idahopower.com' }]);
    expect(raw).toEqual(recorded);
    expect(snap.customers_out).toBe(recorded.object.totalCustomersAffected);
    expect(snap.incidents.map((i) => i.customers_out)).toEqual(recorded.object.outages.map((o) => o.omsCustomerCount));
  });

  it('rejects a url that is not GetCurrentOutageInformation before any request', async () => {
    await expectRefusedUnsent(kit, ['/api/Outage/GetOutageSummary', '/outages/'], /GetCurrentOutageInformation/);
    await expectRefusedUnsent(kit, ['not a url']);
  });

  it('fails the poll on a non-2xx answer, a body that is not JSON, and a body of the wrong shape', async () => {
    await expect(kit.fetch(`${PATH}?down=1`)).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    await expect(kit.fetch(`${PATH}?html=1`)).rejects.toMatchObject({ reason: 'bad_body' });
    await expect(kit.poll(`${PATH}?broken=1`)).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/object\.outages: expected array, got string/),
    });
  });
});
