// The PacifiCorp request chain over real HTTP on 127.0.0.1, serving the recorded Utah peak split back into its two files.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { type Answer, connectorKit, expectRefusedUnsent, recordedJson } from '../test-kit/index.ts';
import { fetch, listUrl, mapUrl } from './fetch.ts';
import { normalize } from './normalize.ts';

const DIR = '/etc/pcorp/datafiles/outagemap';
// The scraper's commit time of the capture, sent as the server's Date so the year of the local times is known.
const DATE = 'Sun, 03 Mar 2024 00:45:28 GMT';
const peak = recordedJson<{
  count: number;
  totalState: number;
  outages: Array<{ custOut: number }>;
  zips: unknown[];
  counties: Array<{ custOutUnplan: number }>;
}>('payloads/pacificorp/rmp-maplistUT-2024-03-03T0045Z.json', {
  count: 0,
  totalState: 0,
  outages: [],
  zips: [],
  counties: [],
});
type Sample = { totalState: number; outages: Array<{ icon: string; custOut: number }> };
const sample = recordedJson<{ states: Sample[] }>('payloads/pacificorp/sample.json', {
  states: [{ totalState: 0, outages: [] }],
}).states[0];
const file = (json: unknown): Answer => ({ json, type: 'application/json', headers: { date: DATE } });
// Without the shared data the upstream has no files, and only the tests that need none run.
const files: Record<string, Answer> = hasSharedData
  ? {
      [`${DIR}/mapUT.json`]: file({ count: peak.count, totalState: peak.totalState, outages: peak.outages }),
      [`${DIR}/listUT.json`]: file({
        count: peak.count,
        totalState: peak.totalState,
        zips: peak.zips,
        counties: peak.counties,
      }),
      [`${DIR}/mapWY.json`]: file(sample), // no listWY.json: that state's counties come from its points
    }
  : {};
const kit = connectorKit({ fetch, normalize }, { connector: 'pacificorp', states: ['UT', 'WY'] }, { routes: files });
const source = (options: Record<string, unknown>, path = `${DIR}/map{ST}.json`) => kit.source(path, { options });

describe('pacificorp fetch', () => {
  it.skipIf(!hasSharedData)(
    'reads map and list per state, tolerates a missing list, and dates the answer by the server',
    async () => {
      kit.hits.length = 0;
      const { raw, snap } = await kit.poll(source({ states: ['UT', 'WY'] }));
      expect(kit.hits.sort()).toEqual([
        `${DIR}/listUT.json`,
        `${DIR}/listWY.json`,
        `${DIR}/mapUT.json`,
        `${DIR}/mapWY.json`,
      ]);
      expect(raw.captured_at).toBe('2024-03-03T00:45:28.000Z');
      expect(raw.states.map((s) => [s.state, s.list === null])).toEqual([
        ['UT', false],
        ['WY', true],
      ]);
      // Planned points count, as PacifiCorp's own headline (totalState) counts them.
      expect(snap.customers_out).toBe(peak.totalState + sample.totalState);
      expect(snap.incidents).toHaveLength(peak.outages.length + sample.outages.length);
      expect(snap.incidents[1].etr).toBe('2024-03-03T03:30:00.000Z');
      // WY has no list: its points (in Iron County, UT: the sample's coordinates) are placed by point
      const listOut = peak.counties.reduce(
        (s, c) => s + c.custOutUnplan + ((c as { custOutPlan?: number }).custOutPlan ?? 0),
        0,
      );
      expect(snap.counties.reduce((s, c) => s + c.customers_out, 0)).toBe(listOut + sample.totalState);
    },
  );
  it.skipIf(!hasSharedData)('reads the map files only when options.lists is false', async () => {
    kit.hits.length = 0;
    const raw = await kit.fetch(source({ states: ['UT'], lists: false }));
    expect(kit.hits).toEqual([`${DIR}/mapUT.json`]);
    expect(raw.states[0].list).toBeNull();
  });
  it.skipIf(!hasSharedData)('fails the poll when a state map file is missing', async () => {
    await expect(kit.fetch(source({ states: ['UT', 'ID'] }))).rejects.toMatchObject({
      reason: 'http_status',
      status: 404,
    });
  });
  it('rejects bad rows before any request', async () => {
    await expectRefusedUnsent(kit, [
      source({ states: ['ut'] }),
      source({ states: [] }),
      source({ lists: 'yes' }),
      source({}, `${DIR}/mapUT.json`),
      source({}, `${DIR}/outages-{ST}.json`),
    ]);
    expect(mapUrl('https://www.pacificpower.net/etc/pcorp/datafiles/outagemap/map{ST}.json', 'OR')).toBe(
      'https://www.pacificpower.net/etc/pcorp/datafiles/outagemap/mapOR.json',
    );
    expect(listUrl('https://www.rockymountainpower.net/etc/pcorp/datafiles/outagemap/map{ST}.json', 'UT')).toBe(
      'https://www.rockymountainpower.net/etc/pcorp/datafiles/outagemap/listUT.json',
    );
  });
});
