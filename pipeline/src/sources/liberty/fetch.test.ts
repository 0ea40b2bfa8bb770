// The Liberty request over real HTTP on 127.0.0.1, serving the peer's sample as Liberty's OutageAPI would (edited
// values: it proves the request, not facts about Liberty): one GET of the region's city summary; the answer is the raw.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { connectorKit, expectRefusedUnsent, recordedText } from '../test-kit/index.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';

const CITIES = '/OutageAPI/api/1/Outage/OutageSummaryCity';
const PATH = `${CITIES}?companyGroupCode=LUMO`;
const REFERER = 'https://outage.libertyutilities.com/';
const body = recordedText('payloads/liberty/sample.json', '{"status":{"code":200,"error":false},"data":[]}');
const kit = connectorKit(
  { fetch, normalize },
  {
    connector: 'liberty',
    utility: 'Liberty Utilities — Empire District',
    states: ['MO', 'AR', 'KS', 'OK'],
    options: { referer: REFERER },
  },
  {
    type: 'application/json; charset=utf-8',
    routes: {
      [PATH]: { body },
      [`${CITIES}?companyGroupCode=REFUSED`]: {
        body: '{"status":{"code":401,"error":true,"message":"Unauthorized"},"data":null}',
      },
    },
    fallback: { status: 503, body: 'busy' },
    hit: (r) => ({ url: r.url, referer: r.headers.referer }),
  },
);

describe('liberty fetch', () => {
  it.skipIf(!hasSharedData)(
    'one GET of the city summary with the outage page as Referer; the answer is the raw',
    async () => {
      kit.hits.length = 0;
      const { raw, snap } = await kit.poll(PATH);
      expect(kit.hits).toEqual([{ url: PATH, referer: REFERER }]);
      expect(raw).toEqual(JSON.parse(body));
      const cities = (JSON.parse(body) as { data: Array<{ customer_affected: string }> }).data;
      expect(snap.customers_out).toBe(cities.reduce((s, x) => s + Number(x.customer_affected), 0));
    },
  );

  it('an answer whose status is an error fails the poll; so does a 503; a url without its region is refused unsent', async () => {
    await expect(kit.poll(`${CITIES}?companyGroupCode=REFUSED`)).rejects.toMatchObject({
      reason: 'http_status',
      status: 401,
    });
    await expect(kit.fetch(`${CITIES}?companyGroupCode=DOWN`)).rejects.toMatchObject({
      reason: 'http_status',
      status: 503,
    });
    const paths = [CITIES, '/OutageAPI/api/1/Outage/OutageSummary?companyGroupCode=LUMO'];
    await expectRefusedUnsent(kit, paths, /companyGroupCode=LUMO/);
  });
});
