// The PacifiCorp request chain over real HTTP on 127.0.0.1, serving the recorded Utah peak split back into its two files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { fetch, listUrl, mapUrl } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';
import { loadAtlas } from '../../geo/counties.ts';

const DIR = '/etc/pcorp/datafiles/outagemap';
// The scraper's commit time of the capture, sent as the server's Date so the year of the local times is known.
const DATE = 'Sun, 03 Mar 2024 00:45:28 GMT';
const hits: string[] = [];
let server: http.Server;
let client: HttpClient;
let base = '';
let peak: {
  count: number;
  totalState: number;
  outages: Array<{ custOut: number }>;
  zips: unknown[];
  counties: Array<{ custOutUnplan: number }>;
};
let sample: { totalState: number; outages: Array<{ icon: string; custOut: number }> };

beforeAll(async () => {
  // Load the county shapes first: the load blocks the event loop for seconds, long enough for the server to drop
  // an idle keep-alive socket that the client would then reuse.
  loadAtlas();
  // Without the shared data the server has no files, and only the tests that need none run.
  const files: Record<string, unknown> = {};
  if (hasSharedData) {
    peak = sharedJson('payloads/pacificorp/rmp-maplistUT-2024-03-03T0045Z.json') as typeof peak;
    sample = (sharedJson('payloads/pacificorp/sample.json') as { states: Array<typeof sample> }).states[0];
    Object.assign(files, {
      [`${DIR}/mapUT.json`]: { count: peak.count, totalState: peak.totalState, outages: peak.outages },
      [`${DIR}/listUT.json`]: {
        count: peak.count,
        totalState: peak.totalState,
        zips: peak.zips,
        counties: peak.counties,
      },
      [`${DIR}/mapWY.json`]: sample, // no listWY.json: that state's counties come from its points
    });
  }
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const body = files[req.url ?? ''];
    if (body === undefined) return void res.writeHead(404).end();
    res.setHeader('date', DATE);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new HttpClient(LOOPBACK_HTTP);
});
afterAll(async () => {
  await client.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const source = (options: Record<string, unknown>, url = `${base}${DIR}/map{ST}.json`) =>
  sourceDef({ connector: 'pacificorp' as never, states: ['UT', 'WY'], url, options });

describe('pacificorp fetch', () => {
  it.skipIf(!hasSharedData)(
    'reads map and list per state, tolerates a missing list, and dates the answer by the server',
    async () => {
      hits.length = 0;
      const def = source({ states: ['UT', 'WY'] });
      const raw = await fetch({ http: client.forSource(), source: def, priority: 0 });
      expect(hits.sort()).toEqual([
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
      const snap = normalize(raw, def);
      const wyPlanned = sample.outages.filter((p) => p.icon === 'planned').reduce((s, p) => s + p.custOut, 0);
      expect(snap.customers_out).toBe(peak.totalState + sample.totalState - wyPlanned);
      expect(snap.incidents).toHaveLength(peak.outages.length + sample.outages.length - 1);
      expect(snap.incidents[1].etr).toBe('2024-03-03T03:30:00.000Z');
      // WY has no list: its one unplanned point (in Iron County, UT: the sample's coordinates) is placed by point
      const listOut = peak.counties.reduce((s, c) => s + c.custOutUnplan, 0);
      expect(snap.counties.reduce((s, c) => s + c.customers_out, 0)).toBe(listOut + sample.totalState - wyPlanned);
    },
  );
  it.skipIf(!hasSharedData)('reads the map files only when options.lists is false', async () => {
    hits.length = 0;
    const raw = await fetch({
      http: client.forSource(),
      source: source({ states: ['UT'], lists: false }),
      priority: 0,
    });
    expect(hits).toEqual([`${DIR}/mapUT.json`]);
    expect(raw.states[0].list).toBeNull();
  });
  it.skipIf(!hasSharedData)('fails the poll when a state map file is missing', async () => {
    await expect(
      fetch({ http: client.forSource(), source: source({ states: ['UT', 'ID'] }), priority: 0 }),
    ).rejects.toMatchObject({ reason: 'http_status', status: 404 });
  });
  it('rejects bad rows before any request', async () => {
    hits.length = 0;
    for (const def of [
      source({ states: ['ut'] }),
      source({ states: [] }),
      source({ lists: 'yes' }),
      source({}, `${base}${DIR}/mapUT.json`),
      source({}, `${base}${DIR}/outages-{ST}.json`),
    ]) {
      await expect(fetch({ http: client.forSource(), source: def, priority: 0 })).rejects.toMatchObject({
        reason: 'config',
      });
    }
    expect(hits).toEqual([]);
    expect(mapUrl('https://www.pacificpower.net/etc/pcorp/datafiles/outagemap/map{ST}.json', 'OR')).toBe(
      'https://www.pacificpower.net/etc/pcorp/datafiles/outagemap/mapOR.json',
    );
    expect(listUrl('https://www.rockymountainpower.net/etc/pcorp/datafiles/outagemap/map{ST}.json', 'UT')).toBe(
      'https://www.rockymountainpower.net/etc/pcorp/datafiles/outagemap/listUT.json',
    );
  });
});
