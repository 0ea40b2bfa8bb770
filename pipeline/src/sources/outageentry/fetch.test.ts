// The OutageEntry request over real HTTP on 127.0.0.1: the markers form POSTed to ajaxShellOut.php, answered with the
// recorded sample as PHP sends it (text/html), then normalised.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { connectorKit, expectRefusedUnsent, recordedText } from '../test-kit/index.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';

const PATH = '/Outage/ajax/ajaxShellOut.php';
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'outageentry', states: ['VA'], options: { client: 'svec', service_index: 2 } },
  {
    refuse: (r) => (r.method !== 'POST' ? { status: 404 } : undefined),
    // what PHP sends by default
    routes: {
      [PATH]: { body: recordedText('payloads/outageentry/sample.json', ''), type: 'text/html; charset=UTF-8' },
    },
    hit: (r) => ({
      method: r.method,
      path: r.url,
      type: r.headers['content-type'] ?? '',
      form: Object.fromEntries(new URLSearchParams(r.body)),
    }),
  },
);

describe('outageentry fetch', () => {
  it.skipIf(!hasSharedData)(
    'POSTs the markers form for the client and service index, then normalises the answer',
    async () => {
      const { snap } = await kit.poll(PATH);
      expect(kit.hits).toEqual([
        {
          method: 'POST',
          path: PATH,
          type: 'application/x-www-form-urlencoded',
          form: { action: 'get', client: 'svec', target: 'cfa_device_markers', serviceIndex: '2' },
        },
      ]);
      expect(snap.incidents.map((i) => i.id)).toEqual(['D998263', 'D171224']);
      expect(snap.customers_out).toBe(5);
    },
  );
  it('refuses to poll without options.client', async () => {
    await expectRefusedUnsent(kit, [{ ...kit.source(PATH), options: {} }]);
  });
});
