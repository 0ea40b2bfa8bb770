// The NiSource request over real HTTP on 127.0.0.1, serving the recorded NIPSCO answer as is.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { connectorKit, expectRefusedUnsent, recordedJson } from '../test-kit/index.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';

const PATH = '/nisource-api/ldc/GetPowerOutages';
const REFERER = 'https://www.nipsco.com/outages/power-outages';
const recorded = recordedJson<{ outageList: Array<{ affected: number; cause: string }> }>(
  'payloads/nisource/sample.json',
  { outageList: [] },
);
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'nisource', utility: 'NIPSCO', states: ['IN'], options: { referer: REFERER } },
  { hit: (r) => ({ url: r.url, referer: r.headers.referer, origin: r.headers.origin }) },
);
/** What the upstream answers at PATH, per test. */
const answer = (status: number, body: string) =>
  kit.upstream.set(PATH, { status, body, type: 'application/json; charset=utf-8' });

describe('nisource fetch', () => {
  it.skipIf(!hasSharedData)(
    'one GET of GetPowerOutages with the map page as Referer, normalising as recorded',
    async () => {
      kit.hits.length = 0;
      answer(200, JSON.stringify(recorded));
      const { snap, source } = await kit.poll(PATH);
      expect(kit.hits).toEqual([{ url: PATH, referer: REFERER, origin: 'https://www.nipsco.com' }]);
      expect(snap.customers_out).toBe(recorded.outageList.reduce((s, o) => s + o.affected, 0));
      expect(snap.incidents).toHaveLength(recorded.outageList.length);
      expect(snap).toEqual(normalize(recorded, source));
    },
  );
  it('rejects a url that is not GetPowerOutages before any request', async () => {
    await expectRefusedUnsent(kit, ['/nisource-api/ldc/GetCityPowerOutages']);
    await expectRefusedUnsent(kit, ['/outages/power-outages'], /nisource-api\/ldc\/GetPowerOutages/);
  });
  it('fails the poll on a non-2xx answer, a body that is not JSON, and a JSON body of another shape', async () => {
    answer(503, 'Service Unavailable');
    await expect(kit.poll(PATH)).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    await expect(kit.poll(`/nisource${PATH}`)).rejects.toMatchObject({ reason: 'http_status', status: 404 });
    answer(200, '<html>Sorry</html>');
    await expect(kit.poll(PATH)).rejects.toMatchObject({ reason: 'bad_body' });
    answer(200, '{"outageList":{"affected":3}}');
    await expect(kit.poll(PATH)).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/outageList/),
    });
  });
});
