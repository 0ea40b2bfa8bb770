// The NISC requests over real HTTP on 127.0.0.1: summary.json alone when it has a county region set; config.json
// beside it when the outages carry only x/y offsets (Mohave Electric's real answers).
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { connectorKit, recordedJson } from '../test-kit/index.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';

const MOHAVE = recordedJson<unknown>('payloads/nisc/mohave-summary.json', null);
const MOHAVE_CONFIG = recordedJson<unknown>('payloads/nisc/mohave-config.json', null);
const KIUC = recordedJson<unknown>('payloads/kiuc/summary.json', null);
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'nisc', states: ['AZ'] },
  {
    type: 'application/json',
    routes: {
      '/mohave/Hosted_Outage_Map/summary.json': { json: MOHAVE },
      '/mohave/Hosted_Outage_Map/config.json': { json: MOHAVE_CONFIG },
      '/kiuc/Hosted_Outage_Map/summary.json': { json: KIUC },
      '/noconfig/Hosted_Outage_Map/summary.json': { json: MOHAVE },
    },
    fallback: { status: 404, body: 'not found', type: '' },
  },
);
const tenant = (name: string, states = ['AZ']) => kit.source(`/${name}/Hosted_Outage_Map/summary.json`, { states });

describe.skipIf(!hasSharedData)('nisc fetch', () => {
  it('reads config.json beside a summary whose outages carry only x/y offsets', async () => {
    kit.hits.length = 0;
    const { raw, snap } = await kit.poll(tenant('mohave'));
    expect(kit.hits).toEqual(['/mohave/Hosted_Outage_Map/summary.json', '/mohave/Hosted_Outage_Map/config.json']);
    expect(raw).toEqual({ summary: MOHAVE, config: MOHAVE_CONFIG });
    expect(snap.counties.length).toBeGreaterThan(0);
  });

  it('asks for nothing more when the summary has a county region set', async () => {
    kit.hits.length = 0;
    const raw = await kit.fetch(tenant('kiuc', ['HI']));
    expect(kit.hits).toEqual(['/kiuc/Hosted_Outage_Map/summary.json']);
    expect(raw).toEqual({ summary: KIUC });
  });

  it('a missing config.json fails the poll naming the request', async () => {
    await expect(kit.fetch(tenant('noconfig'))).rejects.toThrow(/config\.json/);
  });
});
