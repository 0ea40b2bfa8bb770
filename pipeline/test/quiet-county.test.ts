// A county with nothing out still gets full answers: the areas its feed lists (active=false) and its alert evaluation,
// from the function layer and in scheduled sync pushes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { manualClock } from '../src/clock.ts';
import { Pipeline } from '../src/pipeline.ts';
import { LOOPBACK_HTTP } from '../src/sources/http.ts';
import { createApp } from '../src/serve/app.ts';
import { PublishedTree } from '../src/publish/published-tree.ts';
import { syncData } from '../src/accounts/sync.ts';
import { ScriptedFeed, tempDir } from './scripted-feed.ts';
import { sourceDef } from './shared-data.ts';

const MONROE = '42089';
const DAUPHIN = '42043';
const tabular = {
  nc: '900',
  oc: '3',
  data: [
    { nm: 'Monroe', nc: 900, tc: 74619, mun: [{ index: 1, nm: 'Barrett Twp', nc: 900, tc: 3665 }] },
    {
      nm: 'Dauphin',
      nc: 0,
      tc: 141213,
      mun: [
        { index: 2, nm: 'South Hanover Twp', nc: 0, tc: 2444 },
        { index: 3, nm: 'Derry Twp', nc: 0, tc: 11000 },
      ],
    },
  ],
};

const feed = new ScriptedFeed();
const tmp = tempDir('quiet');
const out = path.join(tmp.dir, 'public');
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  await feed.start();
  feed.set('/OMAP/api/Omap/Outage/Tabular', tabular);
  const source = sourceDef({
    id: 'ppl',
    utility: 'PPL Electric Utilities',
    connector: 'omap',
    states: ['PA'],
    url: `${feed.base}/OMAP/api/Omap/Outage/Tabular?opco=PA`,
    customers: 1_400_000,
  });
  const p = await Pipeline.open({
    stateDir: path.join(tmp.dir, 'state'),
    outDir: out,
    sources: [source],
    clock: manualClock(new Date('2026-09-01T00:00:00Z')),
    simulated: false,
    http: LOOPBACK_HTTP,
  });
  try {
    await p.cycle({ all: true });
  } finally {
    await p.close();
  }
  app = createApp({ outDir: out });
});
afterAll(async () => {
  await feed.stop();
  tmp.remove();
});

const json = async (url: string) => {
  const res = await app.request(url);
  expect(res.status, url).toBe(200);
  return (await res.json()) as { data: Record<string, unknown> };
};

describe('a quiet county', () => {
  it("has no prebuilt detail file, but lists its feed's areas with active=false", async () => {
    const { data } = await json(`/api/v1/live/counties/${DAUPHIN}/areas?active=false`);
    expect((data.areas as Array<{ name: string; active: boolean }>).map((a) => [a.name, a.active])).toEqual([
      ['Derry Twp', false],
      ['South Hanover Twp', false],
    ]);
    expect((await json(`/api/v1/live/counties/${DAUPHIN}/areas`)).data.count).toBe(2);
    expect((await json(`/api/v1/live/counties/${DAUPHIN}/areas?active=true`)).data.count).toBe(0);
  });
  it('gets an alert evaluation from its live status', async () => {
    const { data } = await json(`/api/v1/live/counties/${DAUPHIN}/alerts`);
    expect(data.alert).toBe(false);
    expect(data.county).toMatchObject({ scope: 'county', customers_out: 0, alert: false });
    expect((data.utilities as Array<{ name: string }>).map((u) => u.name)).toEqual(['PPL Electric Utilities']);
  });
  it('sync pushes carry the same areas and alerts as the function layer', async () => {
    const tree = new PublishedTree(out);
    const push = syncData({ scope_kind: 'county', scope_value: DAUPHIN, scope_state: null }, (rel) => tree.data(rel));
    expect((push.areas as unknown[]).length).toBe(2);
    expect(push.alerts).toEqual([
      expect.objectContaining({ county: expect.objectContaining({ customers_out: 0, alert: false }) }),
    ]);
    const busy = syncData({ scope_kind: 'county', scope_value: MONROE, scope_state: null }, (rel) => tree.data(rel));
    expect(busy.alerts).toEqual([
      expect.objectContaining({ county: expect.objectContaining({ customers_out: 900, alert: true }) }),
    ]);
  });
});
