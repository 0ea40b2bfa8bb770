// The OMAP request over real HTTP on 127.0.0.1, serving the recorded (edited) Tabular sample.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { connectorKit, recordedText } from '../test-kit/index.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';

const PATH = '/OMAP/api/Omap/Outage/Tabular?opco=PA';
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'omap', states: ['PA'] },
  { routes: { [PATH]: { body: recordedText('payloads/omap/sample.json', '') } } },
);

describe('omap fetch', () => {
  it.skipIf(!hasSharedData)('one GET of the Tabular URL', async () => {
    const { snap } = await kit.poll(PATH);
    expect(kit.hits).toEqual([PATH]);
    expect(snap.customers_out).toBe(5);
    expect(snap.counties.length).toBe(2);
  });

  it('a missing table is an http_status failure', async () => {
    await expect(kit.fetch('/OMAP/api/Omap/Outage/Tabular?opco=XX')).rejects.toMatchObject({
      reason: 'http_status',
      status: 404,
    });
  });
});
