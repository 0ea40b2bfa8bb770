// The Avangrid requests over real HTTP on 127.0.0.1: a loopback upstream that, like Avangrid's API gateway, refuses a
// request without the `ocp-apim-subscription-key` header and answers with it: the county and town answers rebuilt from
// CMP's 16 July 2026 capture (recorded.ts). The key lives in a test-only variable.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hasSharedData, sharedJson } from '../../../test/shared-data.ts';
import { connectorKit, expectRefusedUnsent } from '../test-kit/index.ts';
import { fetch, filterUrl } from './fetch.ts';
import { normalize } from './normalize.ts';
import { recordedRaw } from './recorded.ts';

const PATH = '/cmp/v1/public/outagedata';
const VAR = 'OUTAGE_TEST_CREDENTIAL_AVANGRID';
const KEY = 'test-subscription-key';
const answers = (
  hasSharedData
    ? recordedRaw(sharedJson('payloads/avangrid/cmp-towns-2026-07-16T2116Z.json'))
    : { county: {}, town: { features: [] } }
) as { county: unknown; town: unknown };
const kit = connectorKit(
  { fetch, normalize },
  {
    id: 'cmp-maine',
    connector: 'avangrid',
    utility: 'Central Maine Power',
    states: ['ME'],
    options: { credential_env: VAR },
  },
  {
    route: (r) => {
      const filter = r.query.get('filter');
      if (r.path !== PATH || (filter !== 'county' && filter !== 'town')) return undefined;
      if (r.headers['ocp-apim-subscription-key'] !== KEY)
        return { status: 401, body: '{"statusCode":401,"message":"Access denied due to missing subscription key."}' };
      return { json: answers[filter], type: 'application/json' };
    },
    hit: (r) => ({ url: r.url, key: r.headers['ocp-apim-subscription-key'] as string | undefined }),
  },
);
const source = (pathAndQuery = `${PATH}?filter=county`) => kit.source(pathAndQuery);
const sorted = () => kit.hits.map((h) => [h.url, h.key]).sort();
afterEach(() => {
  vi.unstubAllEnvs();
  kit.hits.length = 0;
});

describe('avangrid fetch', () => {
  it('is refused without the key, and the failure names the variable to set', async () => {
    vi.stubEnv(VAR, '');
    await expect(kit.fetch(source())).rejects.toMatchObject({
      status: 401,
      message: expect.stringMatching(new RegExp(`needs a credential: set ${VAR}`)),
    });
    expect(sorted()).toEqual([
      [`${PATH}?filter=county`, undefined],
      [`${PATH}?filter=town`, undefined],
    ]);
  });

  it.skipIf(!hasSharedData)('answers with it: both answers, each with the header, as {county, town}', async () => {
    vi.stubEnv(VAR, KEY);
    for (const url of [`${PATH}?filter=county`, `${PATH}?filter=town`, PATH]) {
      kit.hits.length = 0;
      const { raw, snap } = await kit.poll(source(url));
      expect(sorted()).toEqual([
        [`${PATH}?filter=county`, KEY],
        [`${PATH}?filter=town`, KEY],
      ]);
      expect(raw).toEqual(answers);
      expect(snap).toMatchObject({ customers_out: 44_340, customers_served: 688_546 });
    }
  });

  it('keeps the rest of the url and sets only the filter', () => {
    expect(filterUrl('https://apim.avangrid.com/cmp/v1/public/outagedata?filter=county', 'town')).toBe(
      'https://apim.avangrid.com/cmp/v1/public/outagedata?filter=town',
    );
  });

  it('rejects a url that is not an outagedata API before any request', async () => {
    vi.stubEnv(VAR, KEY);
    await expectRefusedUnsent(kit, [source('/cmp/v1/public/other?filter=county'), source('/outagedata')]);
  });
});
