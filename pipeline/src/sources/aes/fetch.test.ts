// The AES requests over real HTTP on 127.0.0.1, serving the recorded files at each utility's path. Tested on the peer's
// edited samples only (payloads/aes-indiana/sample.xml, payloads/aes-ohio/sample.xml): values rounded/edited, field
// names as the peer's adapter reads them.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { connectorKit, expectRefusedUnsent, recordedText } from '../test-kit/index.ts';
import { fetch, formatOf } from './fetch.ts';
import { normalize } from './normalize.ts';

const INDIANA = '/OMSDATA/OMSDATA_OSI.xml';
const OHIO = '/DATA/DPLOMSDATA.xml';
// Without the shared data the upstream answers files without outages, and only the tests that need none run.
const indiana = recordedText('payloads/aes-indiana/sample.xml', '<OutageData/>');
const ohio = recordedText('payloads/aes-ohio/sample.xml', '<Incidents/>');
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'aes', utility: 'AES', states: ['OH'] },
  {
    type: 'text/xml',
    // As AES Indiana does: a request that asks for a named type rather than */* is refused.
    refuse: (r) => (r.headers.accept !== '*/*' ? { status: 406, type: '' } : undefined),
    routes: {
      [INDIANA]: { body: indiana },
      [OHIO]: { body: ohio },
      [`${OHIO}?html=1`]: { body: '<!DOCTYPE html><html><body>Down for maintenance</body>' },
      [`${OHIO}?other=1`]: { body: '<OutageData><Incidents/></OutageData>' },
    },
    fallback: { status: 503, body: '<html>busy</html>' },
    hit: (r) => ({ url: r.url, method: r.method, accept: r.headers.accept }),
  },
);
const inIndiana = (path: string) => kit.source(path, { states: ['IN'] });

describe('aes fetch', () => {
  it('one GET per file, sent with Accept */*; the raw is the form and the text as served', async () => {
    kit.hits.length = 0;
    const ind = await kit.fetch(inIndiana(INDIANA));
    const oh = await kit.fetch(OHIO);
    expect(kit.hits).toEqual([
      { url: INDIANA, method: 'GET', accept: '*/*' },
      { url: OHIO, method: 'GET', accept: '*/*' },
    ]);
    expect(ind).toEqual({ format: 'indiana', xml: indiana });
    expect(oh).toEqual({ format: 'ohio', xml: ohio });
  });

  it.skipIf(!hasSharedData)('normalises what it fetched as the recorded files read', async () => {
    const { snap } = await kit.poll(inIndiana(INDIANA));
    expect(snap.customers_out).toBe(Number(/<TotalCustAffected>(\d+)</.exec(indiana)?.[1]));
    expect(snap.incidents).toHaveLength(indiana.split('<Marker>').length - 1);
    const { snap: oh } = await kit.poll(OHIO);
    const counts = [...ohio.matchAll(/<TOTALCUSTS>(\d+)</g)].map((m) => Number(m[1]));
    expect(oh.customers_out).toBe(counts.reduce((s, n) => s + n, 0));
    expect(oh.incidents.map((i) => i.customers_out)).toEqual(counts);
  });

  it('tells the forms apart by path (any case) and rejects any other url before a request', async () => {
    expect(formatOf('https://myaccount.aesindiana.com/OMSDATA/OMSDATA_OSI.xml')).toBe('indiana');
    expect(formatOf('https://myprofile.aes-ohio.com/DATA/DPLOMSDATA.xml')).toBe('ohio');
    expect(formatOf('https://myprofile.aes-ohio.com/data/dplomsdata.xml?t=1')).toBe('ohio');
    const paths = ['/OMSDATA/OMSDATA.xml', '/Outages/Outages.html', `/x${OHIO}`];
    await expectRefusedUnsent(kit, paths, /OMSDATA_OSI\.xml.*DPLOMSDATA\.xml/);
    await expectRefusedUnsent(kit, ['not a url']);
  });

  it('fails the poll on a non-2xx answer, a body that is not XML, and XML of the other form', async () => {
    await expect(kit.fetch(`${OHIO}?down=1`)).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    await expect(kit.poll(`${OHIO}?html=1`)).rejects.toMatchObject({ reason: 'bad_body' });
    await expect(kit.poll(`${OHIO}?other=1`)).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/expected root element <Incidents>, got <OutageData>/),
    });
  });
});
