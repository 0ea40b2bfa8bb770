// The SMUD request over real HTTP on 127.0.0.1, serving the peer's sample as SMUD would. Tested on the peer's edited
// sample only: values rounded/edited; field names as the peer's adapter reads them.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { connectorKit, expectRefusedUnsent, recordedJson } from '../test-kit/index.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';

const PATH = '/omkml/api/communitylist/';
const REFERER = 'https://myaccount.smud.org/manage/outage';
// Without the shared data the upstream answers an empty list, and only the tests that need no recording run.
const recorded = recordedJson<{ returndata: Array<{ Title: string; CustomersImpacted: number }> }>(
  'payloads/smud/sample.json',
  { returndata: [] },
);
const kit = connectorKit(
  { fetch, normalize },
  {
    connector: 'smud',
    utility: 'Sacramento Municipal Utility District',
    states: ['CA'],
    options: { referer: REFERER },
  },
  {
    type: 'application/json; charset=utf-8',
    routes: { [PATH]: { json: recorded }, [`${PATH}?broken=1`]: { body: '{"returndata": {"Title": "SMUD"}}' } },
    fallback: { status: 503, body: '<html>busy</html>' },
    hit: (r) => ({ url: r.url, referer: r.headers.referer, origin: r.headers.origin }),
  },
);

describe('smud fetch', () => {
  it.skipIf(!hasSharedData)(
    'one GET of the community list with the outage page as Referer; the answer is the raw',
    async () => {
      kit.hits.length = 0;
      const { raw, snap } = await kit.poll(PATH);
      expect(kit.hits).toEqual([{ url: PATH, referer: REFERER, origin: 'https://myaccount.smud.org' }]);
      expect(raw).toEqual(recorded);
      expect(snap.customers_out).toBe(recorded.returndata.find((r) => r.Title === 'SMUD')?.CustomersImpacted);
      expect(snap.areas).toHaveLength(recorded.returndata.filter((r) => r.Title !== 'SMUD').length);
    },
  );

  it('rejects a url that is not the community list before any request', async () => {
    // the parallel outage list and KML are other shapes
    await expectRefusedUnsent(kit, ['/omkml/api/OutageList/', '/omkml/api/communitylist/kml'], /communitylist/);
    await expectRefusedUnsent(kit, ['not a url']);
  });

  it('fails the poll on a non-2xx answer, and on a body of the wrong shape', async () => {
    await expect(kit.fetch(`${PATH}?down=1`)).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    await expect(kit.poll(`${PATH}?broken=1`)).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/returndata: expected array, got object/),
    });
  });
});
