// The Green Mountain Power request over real HTTP on 127.0.0.1, serving the peer's sample as GMP would (edited values:
// it proves the request, not facts about GMP): one GET with the outage page as Referer; the answer is the raw.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { connectorKit, expectRefusedUnsent, recordedText } from '../test-kit/index.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';

const PATH = '/api/v2/outages/incidents/towns?all=true';
const REFERER = 'https://greenmountainpower.com/outages/';
const body = recordedText('payloads/gmp/sample.json', '[]');
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'gmp', utility: 'Green Mountain Power', states: ['VT'], options: { referer: REFERER } },
  {
    type: 'application/json; charset=utf-8',
    routes: {
      [PATH]: { body },
      [`${PATH}&html=1`]: { body: '<!DOCTYPE html><html><body>Down</body></html>' },
    },
    fallback: { status: 503, body: 'busy' },
    hit: (r) => ({ url: r.url, referer: r.headers.referer }),
  },
);

describe('gmp fetch', () => {
  it.skipIf(!hasSharedData)(
    'one GET of the town list with the outage page as Referer; the answer is the raw',
    async () => {
      kit.hits.length = 0;
      const { raw, snap } = await kit.poll(PATH);
      expect(kit.hits).toEqual([{ url: PATH, referer: REFERER }]);
      expect(raw).toEqual(JSON.parse(body));
      const towns = JSON.parse(body) as Array<{ customers_affected: number }>;
      expect(snap.customers_out).toBe(towns.reduce((s, t) => s + t.customers_affected, 0));
    },
  );

  it('fails on an HTML page and a 503; refuses a url that is not the town list before any request', async () => {
    await expect(kit.fetch(`${PATH}&html=1`)).rejects.toMatchObject({ reason: 'bad_body' });
    await expect(kit.fetch('/api/v2/outages/incidents/towns?down=1')).rejects.toMatchObject({
      reason: 'http_status',
      status: 503,
    });
    await expectRefusedUnsent(kit, ['/api/v2/outages/incidents?active=true'], /towns\?all=true/);
  });
});
