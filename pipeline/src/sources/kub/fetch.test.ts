// The KUB request over real HTTP on 127.0.0.1, serving the recorded answer. Tested on the peer's edited sample only
// (payloads/kub/sample.json): values rounded/edited, field names as the peer's adapter reads them.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { connectorKit, expectRefusedUnsent, recordedJson } from '../test-kit/index.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';

const PATH = '/api/outage/v1/electric-outages';
const REFERER = 'https://www.kub.org/outages';
// Without the shared data the upstream answers an empty list, and only the tests that need no recording run.
const recorded = recordedJson<{
  electricOutage: Array<{ id: number; customerCount: string }>;
  electricOutageInfo: Array<{ totalElectricCustomers: number; electricCustomersWithoutPower: number }>;
}>('payloads/kub/sample.json', { electricOutage: [], electricOutageInfo: [] });
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'kub', utility: 'Knoxville Utilities Board', states: ['TN'] },
  {
    type: 'application/json; charset=utf-8',
    routes: {
      [PATH]: { json: recorded },
      [`${PATH}?broken=1`]: { body: '{"electricOutage": {"customerCount": "3"}}' },
      [`${PATH}?html=1`]: { body: '<html><title>Maintenance</title></html>' },
    },
    fallback: { status: 503, body: '<html>unavailable</html>' },
    hit: (r) => ({ url: r.url, method: r.method, agent: r.headers['user-agent'], referer: r.headers.referer }),
  },
);

describe('kub fetch', () => {
  it.skipIf(!hasSharedData)('one GET of electric-outages; the answer is the raw', async () => {
    kit.hits.length = 0;
    const { raw, snap } = await kit.poll(PATH);
    expect(kit.hits).toEqual([{ url: PATH, method: 'GET', agent: kit.client.options.userAgent, referer: undefined }]);
    expect(raw).toEqual(recorded);
    expect(snap.customers_out).toBe(recorded.electricOutageInfo[0].electricCustomersWithoutPower);
    expect(snap.customers_served).toBe(recorded.electricOutageInfo[0].totalElectricCustomers);
    expect(snap.incidents.map((i) => i.id)).toEqual(recorded.electricOutage.map((o) => String(o.id)));
  });

  it('sends the outage page as Referer when the row sets options.referer', async () => {
    kit.hits.length = 0;
    await kit.fetch(kit.source(PATH, { options: { referer: REFERER } }));
    expect(kit.hits).toEqual([{ url: PATH, method: 'GET', agent: kit.client.options.userAgent, referer: REFERER }]);
  });

  it('rejects a url that is not electric-outages before any request', async () => {
    const paths = ['/', '/api/outage/v1/water-outages', '/api/outage/v2/electric-outages'];
    await expectRefusedUnsent(kit, paths, /electric-outages/);
    await expectRefusedUnsent(kit, ['not a url']);
  });

  it('fails the poll on a non-2xx answer, an HTML page instead of JSON, and a body of the wrong shape', async () => {
    await expect(kit.fetch(`${PATH}?down=1`)).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    await expect(kit.fetch(`${PATH}?html=1`)).rejects.toMatchObject({ reason: 'bad_body' });
    await expect(kit.poll(`${PATH}?broken=1`)).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/electricOutage: expected array, got object/),
    });
  });
});
