// The MLGW request over real HTTP on 127.0.0.1, serving the recorded answer. Tested on the peer's edited sample only
// (payloads/mlgw/sample.json): values rounded/edited, field names as the peer's adapter reads them.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { connectorKit, expectRefusedUnsent, recordedJson } from '../test-kit/index.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';

const PATH = '/geojson.php';
const REFERER = 'https://outagemap.mlgw.org/';
// Without the shared data the upstream answers an empty collection, and only the tests that need no recording run.
const recorded = recordedJson<{ features: Array<{ properties: { CUR_CUST_AFF: number; OUTAGE_NO: string } }> }>(
  'payloads/mlgw/sample.json',
  { features: [] },
);
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'mlgw', utility: 'Memphis Light, Gas & Water', states: ['TN'] },
  {
    type: 'application/json; charset=utf-8',
    routes: {
      [PATH]: { json: recorded },
      [`${PATH}?broken=1`]: { body: '{"type": "FeatureCollection", "features": {}}' },
      // what a web application firewall sends a client it refuses: a 200 with an HTML page
      [`${PATH}?html=1`]: { body: '<html><title>Request Rejected</title></html>' },
    },
    fallback: { status: 403, body: '<html>forbidden</html>' },
    hit: (r) => ({ url: r.url, method: r.method, agent: r.headers['user-agent'], referer: r.headers.referer }),
  },
);

describe('mlgw fetch', () => {
  it.skipIf(!hasSharedData)('one GET of geojson.php with our own User-Agent; the answer is the raw', async () => {
    kit.hits.length = 0;
    const { raw, snap } = await kit.poll(PATH);
    // the client's descriptive agent, never a browser's
    expect(kit.hits).toEqual([{ url: PATH, method: 'GET', agent: kit.client.options.userAgent, referer: undefined }]);
    expect(kit.hits[0].agent).not.toMatch(/Mozilla/);
    expect(raw).toEqual(recorded);
    expect(snap.customers_out).toBe(recorded.features.reduce((s, f) => s + f.properties.CUR_CUST_AFF, 0));
    expect(snap.incidents.map((i) => i.id)).toEqual(recorded.features.map((f) => f.properties.OUTAGE_NO));
  });

  it('sends the map page as Referer when the row sets options.referer', async () => {
    kit.hits.length = 0;
    await kit.fetch(kit.source(PATH, { options: { referer: REFERER } }));
    expect(kit.hits).toEqual([{ url: PATH, method: 'GET', agent: kit.client.options.userAgent, referer: REFERER }]);
  });

  it('rejects a url that is not geojson.php before any request', async () => {
    await expectRefusedUnsent(kit, ['/', '/geojson.json', '/data/geojson.php'], /geojson\.php/);
    await expectRefusedUnsent(kit, ['not a url']);
  });

  it('fails the poll on a refusal, an HTML page instead of JSON, and a body of the wrong shape', async () => {
    await expect(kit.fetch(`${PATH}?refused=1`)).rejects.toMatchObject({ reason: 'http_status', status: 403 });
    await expect(kit.fetch(`${PATH}?html=1`)).rejects.toMatchObject({ reason: 'bad_body' });
    await expect(kit.poll(`${PATH}?broken=1`)).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/features: expected array, got object/),
    });
  });
});
