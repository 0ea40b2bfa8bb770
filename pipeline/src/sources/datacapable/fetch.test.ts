// The DataCapable requests over real HTTP on 127.0.0.1, serving CenterPoint's two recorded answers (the scraper
// bundle's), each at its own path: the events list, and the county count answer beside it when the row asks.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { connectorKit, expectRefusedUnsent, recordedJson } from '../test-kit/index.ts';
import { countUrl, fetch } from './fetch.ts';
import { normalize } from './normalize.ts';

const PATH = '/datacapable/v2/p/centerpoint/r/texas/map/events';
const bundle = recordedJson<{
  reports: {
    events: Array<{ numPeople: number; status: string }>;
    counties: Array<{ customersServed: number }>;
  };
}>('payloads/datacapable/centerpoint-tx-bundle-2026-10-08T1403Z.json', {
  reports: { events: [], counties: [] },
}).reports;
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'datacapable', states: ['TX'] },
  {
    type: 'application/json',
    routes: { [PATH]: { json: bundle.events }, [`${PATH}/count?types=COUNTY`]: { json: bundle.counties } },
  },
);
const withOptions = (options: Record<string, unknown>) => kit.source(PATH, { options });

describe('datacapable fetch', () => {
  it.skipIf(!hasSharedData)('reads the events list and, with county_counts, the county count answer', async () => {
    kit.hits.length = 0;
    const { snap } = await kit.poll(withOptions({ county_counts: true }));
    expect(kit.hits.sort()).toEqual([PATH, `${PATH}/count?types=COUNTY`]);
    expect(snap.customers_out).toBe(bundle.events.reduce((s, e) => s + e.numPeople, 0));
    expect(snap.customers_served).toBe(bundle.counties.reduce((s, c) => s + c.customersServed, 0));
  });
  it.skipIf(!hasSharedData)('reads only the events list by default', async () => {
    kit.hits.length = 0;
    const { snap } = await kit.poll(withOptions({}));
    expect(kit.hits).toEqual([PATH]);
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
    await expectRefusedUnsent(kit, [withOptions({ county_counts: 'yes' })]);
  });
});
