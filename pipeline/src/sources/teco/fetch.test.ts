// The outage-tiles POST over real HTTP on 127.0.0.1, serving the peer's hand-made sample (values made up; field
// names as the peer's adapter reads them): no real answer of the current endpoint is recorded.
import { describe, expect, it } from 'vitest';
import { hasSharedData, sharedJson } from '../../../test/shared-data.ts';
import { connectorKit, expectRefusedUnsent } from '../test-kit/index.ts';
import { DEFAULT_BBOX, fetch } from './fetch.ts';
import { normalize } from './normalize.ts';

const PATH = '/api/v1/outage-tiles';
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'teco', utility: 'Tampa Electric', states: ['FL'] },
  {
    type: 'application/json',
    routes: {
      '/broken/api/v1/outage-tiles': { status: 503, body: 'busy', type: '' },
      '/malformed/api/v1/outage-tiles': { json: { hits: { hits: 'none' } } },
    },
    hit: (r) => ({ method: r.method, url: r.url, type: r.headers['content-type'] ?? '', body: r.body }),
  },
);
/** What the upstream answers at PATH, per test. */
const answer = (body: string) => {
  kit.upstream.set(PATH, { body });
};
const bbox = (b: unknown) => kit.source(PATH, { options: { bbox: b } });

describe('teco fetch', () => {
  it.skipIf(!hasSharedData)('POSTs the box query as JSON and normalises the answer as the recorded one', async () => {
    const recorded = sharedJson('payloads/teco/sample.json') as {
      aggregations: { customerCountSum: { value: number } };
    };
    answer(JSON.stringify(recorded));
    kit.hits.length = 0;
    const { raw, snap } = await kit.poll(PATH);
    expect(kit.hits.map((s) => [s.method, s.url, s.type])).toEqual([['POST', PATH, 'application/json']]);
    const q = JSON.parse(kit.hits[0].body);
    expect(q.size).toBe(10_000);
    expect(q.aggs).toEqual({ customerCountSum: { sum: { field: 'customerCount' } } });
    expect(q.query.bool.filter.geo_bounding_box.polygonCenter).toEqual({
      top_left: { lat: DEFAULT_BBOX[3], lon: DEFAULT_BBOX[0] },
      bottom_right: { lat: DEFAULT_BBOX[1], lon: DEFAULT_BBOX[2] },
    });
    expect(raw).toEqual(recorded);
    expect(snap.customers_out).toBe(recorded.aggregations.customerCountSum.value);
  });
  it('sends options.bbox as the box', async () => {
    answer(JSON.stringify({ hits: { hits: [] } }));
    kit.hits.length = 0;
    await kit.fetch(bbox([-83, 27, -81, 29]));
    expect(JSON.parse(kit.hits[0].body).query.bool.filter.geo_bounding_box.polygonCenter).toEqual({
      top_left: { lat: 29, lon: -83 },
      bottom_right: { lat: 27, lon: -81 },
    });
  });
  it('rejects a wrong url or bbox before any request', async () => {
    await expectRefusedUnsent(kit, ['/api/v1/outages', bbox([-81, 27, -83, 29])]);
    await expectRefusedUnsent(kit, [bbox('tampa')], /\[west, south, east, north\]/);
  });
  it('fails the poll on a non-2xx answer, and a malformed body fails normalising as a schema error', async () => {
    await expect(kit.fetch('/broken/api/v1/outage-tiles')).rejects.toMatchObject({
      reason: 'http_status',
      status: 503,
    });
    const raw = await kit.fetch('/malformed/api/v1/outage-tiles');
    expect(() => normalize(raw, kit.source('/malformed/api/v1/outage-tiles'))).toThrow(
      expect.objectContaining({ reason: 'schema', message: expect.stringMatching(/hits\.hits: expected array/) }),
    );
  });
});
