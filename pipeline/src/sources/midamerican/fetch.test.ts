// The MidAmerican request over real HTTP on 127.0.0.1, serving the recorded answer as is. That answer is the peer's
// golden fixture raw, HAND-MADE in the vendor shape (placeholder names; field names as the peer's adapter reads them).
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { connectorKit, expectRefusedUnsent, recordedJson } from '../test-kit/index.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';

const PATH = '/OutageWatch/api/County/CountyInfo/';
const REFERER = 'https://www.midamericanenergy.com/OutageWatch/dsk.html';
const recorded = recordedJson<Array<{ NumOutages: number }>>('payloads/midamerican/sample.json', []);
const kit = connectorKit(
  { fetch, normalize },
  {
    connector: 'midamerican',
    utility: 'MidAmerican Energy',
    states: ['IA', 'IL', 'SD'],
    options: { referer: REFERER },
  },
  {
    refuse: (r) => (r.method !== 'POST' ? { status: 404 } : undefined),
    hit: (r) => ({
      method: r.method,
      url: r.url,
      type: r.headers['content-type'],
      referer: r.headers.referer,
      origin: r.headers.origin,
      body: r.body,
    }),
  },
);
/** What the upstream answers at PATH, per test. */
const answer = (status: number, body: string) =>
  kit.upstream.set(PATH, { status, body, type: 'application/json; charset=utf-8' });

describe('midamerican fetch', () => {
  it.skipIf(!hasSharedData)('POSTs {} as JSON with the map page as Referer; the answer is the raw', async () => {
    kit.hits.length = 0;
    answer(200, JSON.stringify(recorded));
    const { raw, snap } = await kit.poll(PATH);
    expect(kit.hits).toEqual([
      {
        method: 'POST',
        url: PATH,
        type: 'application/json',
        referer: REFERER,
        origin: 'https://www.midamericanenergy.com',
        body: '{}',
      },
    ]);
    expect(raw).toEqual(recorded);
    expect(snap.customers_out).toBe(recorded.reduce((s, r) => s + r.NumOutages, 0));
    expect(snap.counties.map((c) => c.fips)).toEqual(['19153', '19173']);
  });
  it('rejects a url that is not CountyInfo before any request', async () => {
    const urls = ['/OutageWatch/dsk.html', '/OutageWatch/api/County/', 'not a url'];
    await expectRefusedUnsent(kit, urls, /OutageWatch\/api\/County\/CountyInfo\//);
  });
  it('fails the poll on a non-2xx answer, a body that is not JSON, and a JSON body of another shape', async () => {
    answer(503, 'Service Unavailable');
    await expect(kit.poll(PATH)).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    answer(200, '<html>Sorry</html>');
    await expect(kit.poll(PATH)).rejects.toMatchObject({ reason: 'bad_body' });
    answer(200, '[{"CountyNam":"POLK","NumOutages":{"n":3}}]');
    await expect(kit.poll(PATH)).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/0\.NumOutages: expected number or string, got object/),
    });
  });
});
