// The Anaheim request over real HTTP on 127.0.0.1, serving the peer's ActiveIncidents sample as the GIS host would.
// Tested on the peer's edited sample only: values rounded/edited; field names as the peer's adapter reads them.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { connectorKit, expectRefusedUnsent, recordedJson } from '../test-kit/index.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';

const PATH = '/electricoutages/ActiveIncidents.cshtml';
const REFERER = 'https://www.anaheim.net/';
// Without the shared data the upstream answers an empty collection, and only the tests that need no recording run.
const recorded = recordedJson<{ features: Array<{ properties: { ID?: string } }> }>('payloads/anaheim/sample.json', {
  features: [],
});
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'anaheim', utility: 'Anaheim Public Utilities', states: ['CA'], options: { referer: REFERER } },
  {
    type: 'application/json; charset=utf-8',
    routes: {
      [PATH]: { json: recorded },
      [`${PATH}?broken=1`]: { body: '{"type": "FeatureCollection", "features": {}}' },
      [`${PATH}?html=1`]: { body: '<html>maintenance</html>' },
    },
    fallback: { status: 503, body: 'busy' },
    hit: (r) => ({ method: r.method, url: r.url, referer: r.headers.referer }),
  },
);

describe('anaheim fetch', () => {
  it.skipIf(!hasSharedData)('one GET of ActiveIncidents.cshtml with the Referer; the answer is the raw', async () => {
    kit.hits.length = 0;
    const { raw, snap } = await kit.poll(PATH);
    expect(kit.hits).toEqual([{ method: 'GET', url: PATH, referer: REFERER }]);
    expect(raw).toEqual(recorded);
    expect(snap.customers_out).toBe(recorded.features.filter((f) => f.properties.ID).length);
    expect(snap.incidents).toHaveLength(new Set(recorded.features.map((f) => f.properties.ID)).size);
  });

  it('rejects a url that is not ActiveIncidents.cshtml before any request', async () => {
    const paths = ['/electricoutages/', '/electricoutages/ActiveIncidents.cshtml/extra'];
    await expectRefusedUnsent(kit, paths, /ActiveIncidents\.cshtml/);
    await expectRefusedUnsent(kit, ['not a url']);
  });

  it('fails the poll on a non-2xx answer, a body that is not JSON, and a body of the wrong shape', async () => {
    await expect(kit.fetch(`${PATH}?down=1`)).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    await expect(kit.fetch(`${PATH}?html=1`)).rejects.toMatchObject({ reason: 'bad_body' });
    await expect(kit.poll(`${PATH}?broken=1`)).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/features: expected array, got object/),
    });
  });
});
