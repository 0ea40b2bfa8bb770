// The TEP request over real HTTP on 127.0.0.1, serving the peer's UNS sample (both divisions) as the mapfeed would.
// Tested on the peer's edited sample only: values rounded/edited; field names as the peer's adapter reads them.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { connectorKit, expectRefusedUnsent, recordedJson } from '../test-kit/index.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';

const PATH = '/OutageApp/mapfeed';
const REFERER = 'https://www.tep.com/outages/';
// The UNS sample's "updated" (Jun 30, 5:00 PM MST), sent as the server's Date so the ETRs get their year.
const DATE = 'Wed, 01 Jul 2026 00:00:00 GMT';
// Without the shared data the upstream answers an empty list, and only the tests that need no recording run.
const recorded = recordedJson<{ outages: Array<{ division: string; customersOut: string }>; [k: string]: unknown }>(
  'payloads/tep/uns-sample.json',
  { outages: [] },
);
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'tep', utility: 'UNS Electric', states: ['AZ'], options: { referer: REFERER } },
  {
    type: 'application/json; charset=utf-8',
    headers: { date: DATE },
    // the real host refuses a GET (403, as the peer notes)
    refuse: (r) => (r.method !== 'POST' ? { status: 403 } : undefined),
    routes: {
      [PATH]: { json: recorded },
      [`${PATH}?broken=1`]: { body: '{"data": {"outages": {"division": "TEP"}}}' },
      [`${PATH}?html=1`]: { body: '<html>maintenance</html>' },
    },
    fallback: { status: 503, body: 'busy' },
    hit: (r) => ({
      method: r.method,
      url: r.url,
      type: r.headers['content-type'],
      referer: r.headers.referer,
      body: r.body,
    }),
  },
);
const division = (d: string) => kit.source(PATH, { options: { division: d } });

describe('tep fetch', () => {
  it.skipIf(!hasSharedData)(
    'one POST of an empty form with the outage page as Referer, dated by the server',
    async () => {
      kit.hits.length = 0;
      const { raw, snap } = await kit.poll(division('USE'));
      expect(kit.hits).toEqual([
        { method: 'POST', url: PATH, type: 'application/x-www-form-urlencoded', referer: REFERER, body: '' },
      ]);
      expect(raw).toEqual({ captured_at: new Date(DATE).toISOString(), answer: recorded });
      const use = recorded.outages.filter((o) => o.division === 'USE');
      expect(snap.customers_out).toBe(Number(recorded.AffectedCustomersUSE));
      expect(snap.customers_out).toBe(use.reduce((s, o) => s + Number(o.customersOut), 0));
      expect(snap.incidents).toHaveLength(use.length);
      expect(snap.incidents.every((i) => i.etr !== null)).toBe(true);
      expect(snap.counties.every((cty) => cty.fips.startsWith('04'))).toBe(true);
    },
  );

  it('rejects a url that is not the mapfeed, or a bad division, before any request', async () => {
    await expectRefusedUnsent(kit, ['/OutageApp/outages', '/OutageApp/mapfeed/extra'], /OutageApp\/mapfeed/);
    await expectRefusedUnsent(kit, ['not a url']);
    await expectRefusedUnsent(kit, [division('U S E')], /options\.division/);
  });

  it('fails the poll on a non-2xx answer, a body that is not JSON, and a body of the wrong shape', async () => {
    await expect(kit.fetch(`${PATH}?down=1`)).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    await expect(kit.fetch(`${PATH}?html=1`)).rejects.toMatchObject({ reason: 'bad_body' });
    await expect(kit.poll(`${PATH}?broken=1`)).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/data\.outages: expected array, got object/),
    });
  });
});
