// The GridVu request over real HTTP on 127.0.0.1, serving the recorded answer. Tested on the peer's edited sample only
// (payloads/gridvu/sample.json): values rounded/edited, field names as the peer's adapter reads them.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { connectorKit, expectRefusedUnsent, recordedJson } from '../test-kit/index.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';

const PATH = '/GridVuServer/Public/getAllOutages';
const REFERER = 'https://outages.lbwl.com/';
// Without the shared data the upstream answers an empty list, and only the tests that need no recording run.
const recorded = recordedJson<{ outageLst: Array<{ idf: string; custAffected: number; planned?: boolean }> }>(
  'payloads/gridvu/sample.json',
  { outageLst: [] },
);
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'gridvu', utility: 'Lansing Board of Water & Light', states: ['MI'] },
  {
    type: 'application/json; charset=utf-8',
    routes: {
      [PATH]: { json: recorded },
      [`${PATH}?broken=1`]: { body: '{"outageLst": {"custAffected": 3}}' },
      [`${PATH}?html=1`]: { body: '<html><title>Maintenance</title></html>' },
    },
    fallback: { status: 503, body: '<html>unavailable</html>' },
    hit: (r) => ({ url: r.url, method: r.method, agent: r.headers['user-agent'], referer: r.headers.referer }),
  },
);

describe('gridvu fetch', () => {
  it.skipIf(!hasSharedData)('one GET of getAllOutages; the answer is the raw', async () => {
    kit.hits.length = 0;
    const { raw, snap } = await kit.poll(PATH);
    expect(kit.hits).toEqual([{ url: PATH, method: 'GET', agent: kit.client.options.userAgent, referer: undefined }]);
    expect(raw).toEqual(recorded);
    expect(snap.customers_out).toBe(recorded.outageLst.reduce((s, o) => s + o.custAffected, 0));
    expect(snap.incidents.map((i) => i.id)).toEqual(recorded.outageLst.map((o) => o.idf));
    expect(snap.planned_out).toBe(
      recorded.outageLst.filter((o) => o.planned === true).reduce((s, o) => s + o.custAffected, 0),
    );
  });

  it('sends the outage page as Referer when the row sets options.referer', async () => {
    kit.hits.length = 0;
    await kit.fetch(kit.source(PATH, { options: { referer: REFERER } }));
    expect(kit.hits).toEqual([{ url: PATH, method: 'GET', agent: kit.client.options.userAgent, referer: REFERER }]);
  });

  it('rejects a url that is not getAllOutages before any request', async () => {
    const paths = ['/', '/GridVuServer/Public/getOutage', '/GridVuServer/getAllOutages'];
    await expectRefusedUnsent(kit, paths, /GridVuServer\/Public\/getAllOutages/);
    await expectRefusedUnsent(kit, ['not a url']);
  });

  it('fails the poll on a non-2xx answer, an HTML page instead of JSON, and a body of the wrong shape', async () => {
    await expect(kit.fetch(`${PATH}?down=1`)).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    await expect(kit.fetch(`${PATH}?html=1`)).rejects.toMatchObject({ reason: 'bad_body' });
    await expect(kit.poll(`${PATH}?broken=1`)).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/outageLst: expected array, got object/),
    });
  });
});
