// The SienaTech request over real HTTP on 127.0.0.1, serving the recorded file at the map's pushpin path. Tested on
// the peer's edited sample only (payloads/sienatech/sample.xml): values rounded/edited, field names as the peer's
// adapter reads them.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { connectorKit, expectRefusedUnsent, recordedText } from '../test-kit/index.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';

const PATH = '/Outages/Home/UpdatePushpin';
// Without the shared data the upstream answers a file without outages, and only the tests that need none run.
const xml = recordedText('payloads/sienatech/sample.xml', '<NewDataSet />');
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'sienatech', utility: 'United Power', states: ['CO'] },
  {
    type: 'text/xml; charset=utf-8',
    refuse: (r) => (r.method !== 'POST' ? { status: 405 } : undefined),
    routes: {
      [PATH]: { body: xml },
      [`${PATH}?html=1`]: { body: '<!DOCTYPE html><html><body>Down for maintenance</body>' },
      [`${PATH}?other=1`]: { body: '<OutageData><Incidents/></OutageData>' },
    },
    fallback: { status: 503, body: '<html>busy</html>' },
    hit: (r) => ({
      url: r.url,
      method: r.method,
      accept: r.headers.accept,
      length: r.headers['content-length'],
      body: r.body,
    }),
  },
);

describe('sienatech fetch', () => {
  it('one POST with an empty body, asking for XML; the raw is the text as served', async () => {
    kit.hits.length = 0;
    expect(await kit.fetch(PATH)).toBe(xml);
    expect(kit.hits).toEqual([
      { url: PATH, method: 'POST', accept: 'application/xml, text/xml, */*', length: '0', body: '' },
    ]);
  });

  it.skipIf(!hasSharedData)('normalises what it fetched as the recorded file reads', async () => {
    const { snap } = await kit.poll(PATH);
    const counts = [...xml.matchAll(/<CURCUST>(\d+)<\/CURCUST>/g)].map((m) => Number(m[1]));
    expect(snap.customers_out).toBe(counts.reduce((s, n) => s + n, 0));
    expect(snap.incidents.map((i) => i.customers_out)).toEqual(counts);
  });

  it('rejects any other url before a request', async () => {
    const paths = ['/Outages/Home/Index', '/Outages/Home/UpdatePushpins', `/x${PATH}`, '/'];
    await expectRefusedUnsent(kit, paths, /Outages\/Home\/UpdatePushpin.*e\.g\. https:\/\/outages\.unitedpower\.com/);
    await expectRefusedUnsent(kit, ['not a url']);
  });

  it('fails the poll on a non-2xx answer, a body that is not XML, and XML of another shape', async () => {
    await expect(kit.fetch(`${PATH}?down=1`)).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    await expect(kit.poll(`${PATH}?html=1`)).rejects.toMatchObject({ reason: 'bad_body' });
    await expect(kit.poll(`${PATH}?other=1`)).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/expected root element <NewDataSet>, got <OutageData>/),
    });
  });
});
