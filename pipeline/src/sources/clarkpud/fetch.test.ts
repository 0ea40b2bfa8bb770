// The Clark PUD request over real HTTP on 127.0.0.1, serving the peer's sample as the JSONP call the map loads. Tested
// on the peer's edited sample only: values rounded/edited; field names as the peer's adapter reads them.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { connectorKit, expectRefusedUnsent, recordedJson } from '../test-kit/index.ts';
import { fetch, unwrap } from './fetch.ts';
import { normalize } from './normalize.ts';

const PATH = '/outage-map/data.js';
const REFERER = 'https://www.clarkpublicutilities.com/outage-map/';
// The fixture wraps the call's argument as {ok, result}; without the shared data the upstream answers no outages.
const recorded = recordedJson<{
  result: { totalAffectedCustomerCount: number; openOutages: Array<{ affectedCustomerCount: number }> };
}>('payloads/clark-pud/sample.json', { result: { totalAffectedCustomerCount: 0, openOutages: [] } }).result;
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'clarkpud', utility: 'Clark Public Utilities', states: ['WA'], options: { referer: REFERER } },
  {
    type: 'application/javascript; charset=utf-8',
    routes: {
      [PATH]: { body: `gksUpdateOutageData(${JSON.stringify(recorded, null, 1)});\n` },
      [`${PATH}?html=1`]: { body: '<!DOCTYPE html><html>maintenance</html>' },
      [`${PATH}?shape=1`]: { body: 'gksUpdateOutageData({"openOutages": {"key": 1}})' },
    },
    fallback: { status: 503, body: '<html>busy</html>' },
    hit: (r) => ({ url: r.url, referer: r.headers.referer, origin: r.headers.origin }),
  },
);

describe('clarkpud fetch', () => {
  it.skipIf(!hasSharedData)('one GET of data.js with the map as Referer; the call argument is the raw', async () => {
    kit.hits.length = 0;
    const { raw, snap } = await kit.poll(PATH);
    expect(kit.hits).toEqual([{ url: PATH, referer: REFERER, origin: 'https://www.clarkpublicutilities.com' }]);
    expect(raw).toEqual(recorded);
    expect(snap.customers_out).toBe(recorded.totalAffectedCustomerCount);
    expect(snap.incidents).toHaveLength(recorded.openOutages.length);
  });

  it('rejects a url that is not data.js before any request', async () => {
    await expectRefusedUnsent(kit, ['/outage-map/', '/outage-map/data.json'], /outage-map\/data\.js/);
    await expectRefusedUnsent(kit, ['not a url']);
  });

  it('fails the poll on a non-2xx answer, a body that is not the call, and a call of the wrong shape', async () => {
    await expect(kit.fetch(`${PATH}?down=1`)).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    await expect(kit.fetch(`${PATH}?html=1`)).rejects.toMatchObject({
      reason: 'bad_body',
      message: expect.stringContaining('starts with "<!DOCTYPE html>'),
    });
    await expect(kit.poll(`${PATH}?shape=1`)).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/openOutages: expected array, got object/),
    });
  });

  it('unwraps exactly gksUpdateOutageData(…) with an optional ; and whitespace', () => {
    expect(unwrap('u', 'gksUpdateOutageData({"openOutages":[]})')).toEqual({ openOutages: [] });
    expect(unwrap('u', ' gksUpdateOutageData( {"a":1} ) ;\r\n')).toEqual({ a: 1 });
    for (const bad of [
      'otherCallback({"a":1})',
      'gksUpdateOutageData({"a":1}',
      'gksUpdateOutageData({"a":1}); alert(1)',
      '{"a":1}',
      'gksUpdateOutageData({"a":)',
    ]) {
      expect(() => unwrap('u', bad)).toThrow(expect.objectContaining({ reason: 'bad_body' }));
    }
  });
});
