// The NOVEC request over real HTTP on 127.0.0.1, serving the recorded file at the storm center's path. Tested on the
// peer's edited sample only (payloads/novec/sample.xml): values rounded/edited, field names as the peer's adapter
// reads them.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { connectorKit, expectRefusedUnsent, recordedText } from '../test-kit/index.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';

const PATH = '/stormcenter/data/outagedtl.xml';
// Without the shared data the upstream answers a file without outages, and only the tests that need none run.
const xml = recordedText('payloads/novec/sample.xml', '<outages/>');
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'novec', utility: 'NOVEC', states: ['VA'] },
  {
    type: 'text/xml',
    routes: {
      [PATH]: { body: xml },
      [`${PATH}?html=1`]: { body: '<!DOCTYPE html><html><body>Down for maintenance</body>' },
      [`${PATH}?other=1`]: { body: '<OutageData><Incidents/></OutageData>' },
    },
    fallback: { status: 503, body: '<html>busy</html>' },
    hit: (r) => ({ url: r.url, method: r.method, accept: r.headers.accept }),
  },
);

describe('novec fetch', () => {
  it('one GET without a cache-busting query, asking for XML; the raw is the text as served', async () => {
    kit.hits.length = 0;
    expect(await kit.fetch(PATH)).toBe(xml);
    expect(kit.hits).toEqual([{ url: PATH, method: 'GET', accept: 'application/xml, text/xml, */*' }]);
  });

  it.skipIf(!hasSharedData)('normalises what it fetched as the recorded file reads', async () => {
    const { snap } = await kit.poll(PATH);
    const counts = [...xml.matchAll(/\snumOut="(\d+)"/g)].map((m) => Number(m[1]));
    expect(snap.customers_out).toBe(counts.reduce((s, n) => s + n, 0));
    expect(snap.incidents.map((i) => i.customers_out)).toEqual(counts);
  });

  it('rejects any other url before a request', async () => {
    const paths = ['/stormcenter/data/outages.xml', '/stormcenter/index.cfm', `/x${PATH}`];
    await expectRefusedUnsent(kit, paths, /stormcenter\/data\/outagedtl\.xml.*e\.g\. https:\/\/www\.novec\.com/);
    await expectRefusedUnsent(kit, ['not a url']);
  });

  it('fails the poll on a non-2xx answer, a body that is not XML, and XML of another shape', async () => {
    await expect(kit.fetch(`${PATH}?down=1`)).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    await expect(kit.poll(`${PATH}?html=1`)).rejects.toMatchObject({ reason: 'bad_body' });
    await expect(kit.poll(`${PATH}?other=1`)).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/expected root element <outages>, got <OutageData>/),
    });
  });
});
