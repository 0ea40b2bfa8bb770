// The point-list request over real HTTP on 127.0.0.1: one GET of the row's url, serving the peer's KUB sample (edited
// values) at a path of our choosing, read by the row's options; bad options fail before any request.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { connectorKit, expectRefusedUnsent, recordedJson } from '../test-kit/index.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';

const PATH = '/outages/current.json';
const OPTIONS = {
  list: 'electricOutage',
  count: 'customerCount',
  id: 'id',
  lon: 'x',
  lat: 'y',
  total: 'electricOutageInfo.0.electricCustomersWithoutPower',
  referer: 'https://utility.test/outage-map',
};
const answer = recordedJson<{
  electricOutage: Array<{ id: number; customerCount: string }>;
  electricOutageInfo: unknown[];
}>('payloads/kub/sample.json', { electricOutage: [], electricOutageInfo: [] });
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'pointlist', states: ['TN'] },
  {
    routes: { [PATH]: { json: answer, type: 'application/json' } },
    hit: (r) => ({ url: r.url, method: r.method, referer: r.headers.referer }),
  },
);
const withOptions = (options: Record<string, unknown>) => kit.source(PATH, { options });

describe('pointlist fetch', () => {
  it.skipIf(!hasSharedData)('one GET of the url, with the row’s Referer; the answer is the raw', async () => {
    kit.hits.length = 0;
    const { raw, snap } = await kit.poll(withOptions(OPTIONS));
    expect(kit.hits).toEqual([{ url: PATH, method: 'GET', referer: OPTIONS.referer }]);
    expect(raw).toEqual(answer);
    expect(snap.incidents.map((i) => i.id)).toEqual(answer.electricOutage.map((o) => String(o.id)));
    expect(snap.customers_out).toBe(
      (answer.electricOutageInfo[0] as Record<string, number>).electricCustomersWithoutPower,
    );
  });

  it('fails on options that name no list or count before any request', async () => {
    const rows = [{}, { list: 'electricOutage', lat: 'y', lon: 'x' }, { ...OPTIONS, noun: '' }].map(withOptions);
    await expectRefusedUnsent(kit, rows, /pointlist options/);
  });
});
