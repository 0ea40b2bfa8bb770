// The PGE request over real HTTP on 127.0.0.1, answering with the peer's edited sample (payloads/pge-graphql/
// sample.json: values rounded/edited; field names as the peer's adapter reads them), served as is.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { connectorKit, expectRefusedUnsent, recordedJson } from '../test-kit/index.ts';
import { OUTAGES_QUERY, fetch } from './fetch.ts';
import { normalize } from './normalize.ts';

const PATH = '/pge-graphql';
const REFERER = 'https://portlandgeneral.com/outages';
const recorded = recordedJson<{ data: { getOutagesByCounty: Array<{ totalCustomersImpacted: number }> } }>(
  'payloads/pge-graphql/sample.json',
  { data: { getOutagesByCounty: [] } },
);
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'pgegraphql', utility: 'Portland General Electric', states: ['OR'], options: { referer: REFERER } },
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
const answer = (status: number, body: string) => kit.upstream.set(PATH, { status, body, type: 'application/json' });

describe('pgegraphql fetch', () => {
  it.skipIf(!hasSharedData)('one JSON POST of the county query with the map page as Referer', async () => {
    kit.hits.length = 0;
    answer(200, JSON.stringify(recorded));
    const { snap, source } = await kit.poll(PATH);
    expect(kit.hits).toEqual([
      {
        method: 'POST',
        url: PATH,
        type: 'application/json',
        referer: REFERER,
        origin: 'https://portlandgeneral.com',
        body: JSON.stringify({ query: OUTAGES_QUERY, variables: {} }),
      },
    ]);
    expect(snap.customers_out).toBe(recorded.data.getOutagesByCounty.reduce((s, r) => s + r.totalCustomersImpacted, 0));
    expect(snap).toEqual(normalize(recorded, source));
  });
  it('asks for the county list as the map does: the JSON field without a selection, the params left empty', () => {
    expect(OUTAGES_QUERY).toMatch(/getOutagesByCounty\(params: \$params\) \}$/);
  });
  it('rejects a url that is not the GraphQL endpoint before any request', async () => {
    await expectRefusedUnsent(kit, ['/outages']);
    await expectRefusedUnsent(kit, ['/pge-graphql/outages'], /pge-graphql/);
    await expectRefusedUnsent(kit, ['apix.portlandgeneral.com/pge-graphql']);
  });
  it('fails the poll on a non-2xx answer, a body that is not JSON, errors without data, another shape', async () => {
    answer(503, 'Service Unavailable');
    await expect(kit.poll(PATH)).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    answer(200, '<html>Sorry</html>');
    await expect(kit.poll(PATH)).rejects.toMatchObject({ reason: 'bad_body' });
    answer(200, '{"errors":[{"message":"Cannot query field \\"county\\""}],"data":null}');
    await expect(kit.poll(PATH)).rejects.toMatchObject({
      reason: 'bad_body',
      message: expect.stringMatching(/Cannot query/),
    });
    answer(200, '{"data":{"getOutagesByCounty":{"county":"POLK"}}}');
    await expect(kit.poll(PATH)).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/data\.getOutagesByCounty/),
    });
  });
});
