// The Chugach request over real HTTP on 127.0.0.1, serving the two halves of the peer's sample at Grids.js and
// Incidents.js (edited values: it proves the requests, not facts about Chugach): both are read, in one raw.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { connectorKit, expectRefusedUnsent, recordedJson } from '../test-kit/index.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';

const sample = recordedJson<{ grids: unknown; incidents: unknown }>('payloads/chugach/sections.json', {
  grids: { Items: [] },
  incidents: { Items: [] },
});
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'chugach', utility: 'Chugach Electric', states: ['AK'] },
  {
    type: 'application/javascript',
    routes: {
      '/outage/Grids.js': { json: sample.grids },
      '/outage/Incidents.js': { json: sample.incidents },
      '/half/Grids.js': { json: sample.grids },
    },
    fallback: { status: 404, body: '<html>Not found</html>' },
  },
);

describe('chugach fetch', () => {
  it.skipIf(!hasSharedData)('GETs Grids.js and the Incidents.js beside it; the raw holds both answers', async () => {
    kit.hits.length = 0;
    const { raw, snap } = await kit.poll('/outage/Grids.js');
    expect(kit.hits.sort()).toEqual(['/outage/Grids.js', '/outage/Incidents.js']);
    expect(raw).toEqual(sample);
    const incidents = (sample.incidents as { Items: Array<{ CUSTOMERS_AFFECTED: number }> }).Items;
    expect(snap.incidents.map((i) => i.customers_out)).toEqual(incidents.map((i) => i.CUSTOMERS_AFFECTED));
  });

  it('both answers are required; a url that is not Grids.js is refused before any request', async () => {
    await expect(kit.fetch('/half/Grids.js')).rejects.toMatchObject({ reason: 'http_status', status: 404 });
    await expectRefusedUnsent(kit, ['/outage/Incidents.js'], /Grids\.js/);
  });
});
