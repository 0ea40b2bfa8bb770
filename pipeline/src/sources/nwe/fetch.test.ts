// The NorthWestern Energy request over real HTTP on 127.0.0.1, serving the recorded list wrapped as the upstream sends
// it ({d: "<JSON text>"}). Tested on the peer's edited sample only (payloads/nwe/sample.json): values rounded/edited,
// field names as the peer's adapter reads them.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { UNCHANGED } from '../connector.ts';
import { connectorKit, expectRefusedUnsent, recordedJson } from '../test-kit/index.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';

const PATH = '/get-outage-map-data';
const REFERER = 'https://northwesternenergy.com/outages';
const ETAG = '"v1"';
/** Bodies served at PATH?{key}: each a way the answer can go wrong. */
const BROKEN: Record<string, string> = {
  html: '<html>maintenance</html>',
  inner: JSON.stringify({ d: '<html>error</html>' }),
  nod: JSON.stringify({ Message: 'Authentication failed.' }),
  aspnet: JSON.stringify({ d: JSON.stringify({ Message: 'There was an error processing the request.' }) }),
  row: JSON.stringify({ d: JSON.stringify([{ AREA: 'Butte', LATITUDE: 46, LONGITUDE: -112.5 }]) }),
};
// Without the shared data the upstream answers an empty list, and only the tests that need no recording run.
const recorded = recordedJson<Array<{ NUM_CUST: number }>>('payloads/nwe/sample.json', []);
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'nwe', utility: 'NorthWestern Energy', states: ['MT', 'SD', 'NE'], options: { referer: REFERER } },
  {
    type: 'application/json; charset=utf-8',
    routes: {
      [PATH]: { json: { d: JSON.stringify(recorded) }, etag: ETAG },
      ...Object.fromEntries(Object.entries(BROKEN).map(([key, body]) => [`${PATH}?${key}`, { body }])),
    },
    fallback: { status: 503, body: '<html>busy</html>' },
    hit: (r) => ({
      url: r.url,
      method: r.method,
      referer: r.headers.referer,
      origin: r.headers.origin,
      inm: r.headers['if-none-match'],
    }),
  },
);

describe('nwe fetch', () => {
  it.skipIf(!hasSharedData)('one GET with the outage page as Referer; the list inside d is the raw', async () => {
    kit.hits.length = 0;
    const { raw, snap } = await kit.poll(PATH);
    expect(kit.hits).toEqual([
      { url: PATH, method: 'GET', referer: REFERER, origin: 'https://northwesternenergy.com', inm: undefined },
    ]);
    expect(raw).toEqual(recorded);
    expect(snap.customers_out).toBe(recorded.reduce((s, o) => s + o.NUM_CUST, 0));
    expect(snap.incidents.map((i) => i.customers_out)).toEqual(recorded.map((o) => o.NUM_CUST));
  });

  it('is UNCHANGED on a 304 while the snapshot is held, and the list again when it is not', async () => {
    await kit.fetch(PATH, { scope: 'held' });
    kit.hits.length = 0;
    expect(await kit.fetch(PATH, { scope: 'held', held: true })).toBe(UNCHANGED);
    expect(await kit.fetch(PATH, { scope: 'held' })).toEqual(recorded);
    expect(kit.hits.map((h) => h.inm)).toEqual([ETAG, ETAG]);
  });

  it('rejects a url that is not get-outage-map-data before any request', async () => {
    const paths = ['/outages', '/get-outage-map-data/extra', '/api/get-outage-map-data'];
    await expectRefusedUnsent(kit, paths, /get-outage-map-data/);
    await expectRefusedUnsent(kit, ['not a url']);
  });

  it('fails the poll on a non-2xx answer and on bodies that are not JSON, outside or inside d', async () => {
    await expect(kit.fetch(`${PATH}?down=1`)).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    await expect(kit.fetch(`${PATH}?html`)).rejects.toMatchObject({ reason: 'bad_body' });
    await expect(kit.fetch(`${PATH}?inner`)).rejects.toMatchObject({
      reason: 'bad_body',
      message: expect.stringMatching(/d is not JSON text \(starts with "<html>error<\/html>"\)/),
    });
  });

  it('fails the poll as a schema error on a body of the wrong shape, naming the path', async () => {
    await expect(kit.fetch(`${PATH}?nod`)).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/: d: expected string \(JSON text\), got undefined/),
    });
    await expect(kit.poll(`${PATH}?aspnet`)).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/d: expected array, got object \(Message: There was an error/),
    });
    await expect(kit.poll(`${PATH}?row`)).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/d\.0\.NUM_CUST: expected a count/),
    });
  });
});
