import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { countUrl, fetch } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedPath, sourceDef } from '../../../test/shared-data.ts';
import { loadAtlas } from '../../geo/counties.ts';

const PATH = '/datacapable/v2/p/centerpoint/r/texas/map/events';
const hits: string[] = [];
let server: http.Server;
let client: HttpClient;
let base = '';
let bundle: { events: Array<{ numPeople: number; status: string }>; counties: Array<{ customersServed: number }> };

beforeAll(async () => {
  // Load the county shapes first: the load blocks the event loop for seconds, long enough for the server to drop
  // an idle keep-alive socket that the client would then reuse.
  loadAtlas();
  // The scraper bundle holds the two real answers; each is served at its own path.
  if (hasSharedData)
    bundle = JSON.parse(
      fs.readFileSync(sharedPath('payloads/datacapable/centerpoint-tx-bundle-2026-10-08T1403Z.json'), 'utf8'),
    ).reports;
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    res.setHeader('content-type', 'application/json');
    if (req.url === PATH) return res.end(JSON.stringify(bundle.events));
    if (req.url === `${PATH}/count?types=COUNTY`) return res.end(JSON.stringify(bundle.counties));
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new HttpClient(LOOPBACK_HTTP);
});
afterAll(async () => {
  await client.close();
  await new Promise((r) => server.close(r));
});

const source = (options: Record<string, unknown>) =>
  sourceDef({ connector: 'datacapable' as never, states: ['TX'], url: `${base}${PATH}`, options });

describe('datacapable fetch', () => {
  it.skipIf(!hasSharedData)('reads the events list and, with county_counts, the county count answer', async () => {
    hits.length = 0;
    const def = source({ county_counts: true });
    const snap = normalize(await fetch({ http: client.forSource(), source: def, priority: 0 }), def);
    expect(hits.sort()).toEqual([PATH, `${PATH}/count?types=COUNTY`]);
    expect(snap.customers_out).toBe(
      bundle.events.filter((e) => e.status !== 'Planned Outage').reduce((s, e) => s + e.numPeople, 0),
    );
    expect(snap.customers_served).toBe(bundle.counties.reduce((s, c) => s + c.customersServed, 0));
  });
  it.skipIf(!hasSharedData)('reads only the events list by default', async () => {
    hits.length = 0;
    const def = source({});
    const snap = normalize(await fetch({ http: client.forSource(), source: def, priority: 0 }), def);
    expect(hits).toEqual([PATH]);
    expect(snap.customers_served).toBeNull();
    expect(snap.counties.length).toBeGreaterThan(0);
    expect(snap.counties.every((c) => c.customers_served === null)).toBe(true);
  });
  it('derives the count URL from the events URL and rejects bad options before any request', async () => {
    expect(countUrl('https://utilisocial.io/datacapable/v2/p/NES/map/events')).toBe(
      'https://utilisocial.io/datacapable/v2/p/NES/map/events/count?types=COUNTY',
    );
    expect(() => countUrl('https://utilisocial.io/datacapable/v2/p/NES/map/stats')).toThrow(
      /must end in \/map\/events/,
    );
    hits.length = 0;
    await expect(
      fetch({ http: client.forSource(), source: source({ county_counts: 'yes' }), priority: 0 }),
    ).rejects.toMatchObject({ reason: 'config' });
    expect(hits).toEqual([]);
  });
});
