// Reconciliation with ODIN: the difference per deep row each cycle, and a flag after three cycles beyond tolerance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { manualClock } from '../src/clock.ts';
import { Pipeline } from '../src/pipeline.ts';
import { LOOPBACK_HTTP } from '../src/sources/http.ts';
import { withOdinExclusions } from '../src/sources/odin/exclusions.ts';
import { odinDelta } from '../src/state/reconcile.ts';
import { ScriptedFeed, tempDir } from './scripted-feed.ts';
import { sourceDef } from './shared-data.ts';

const feed = new ScriptedFeed();
const tmp = tempDir('reconcile');
const out = path.join(tmp.dir, 'public');
const clock = manualClock(new Date('2026-09-01T00:00:00Z'));
let pipeline: Pipeline;
const odinRecord = (utility_id: string, fips: string, meters: number) => ({
  utility_id,
  name: `U,${utility_id}`,
  communitydescriptor: fips,
  county: 'x',
  state: 'Florida',
  metersaffected: meters,
});
const deep = (n: number) => ({
  features: n ? [{ attributes: { OUTAGE_ID: 'd', EST_CUSTOMERS: n }, geometry: { x: -80.45, y: 25.6 } }] : [],
});
const row = (id: string) =>
  JSON.parse(fs.readFileSync(path.join(out, 'api/v1/live/sources.json'), 'utf8')).data.sources.find(
    (s: { id: string }) => s.id === id,
  );

beforeAll(async () => {
  await feed.start();
  const sources = withOdinExclusions([
    sourceDef({
      id: 'odin',
      utility: 'ODIN',
      connector: 'odin',
      states: ['FL'],
      url: `${feed.base}/odin/exports/json`,
      interval_min: 15,
    }),
    sourceDef({
      id: 'deep',
      utility: 'Deep Power',
      connector: 'arcgis',
      states: ['FL'],
      url: `${feed.base}/deep/0`,
      eia_ids: ['12345'],
      customers: 50_000,
    }),
  ]);
  pipeline = await Pipeline.open({
    stateDir: path.join(tmp.dir, 'state'),
    outDir: out,
    sources,
    clock,
    simulated: false,
    http: LOOPBACK_HTTP,
  });
});
afterAll(async () => {
  await pipeline?.close();
  await feed.stop();
  tmp.remove();
});

const cycle = async () => {
  await pipeline.cycle({ all: true });
  clock.advance(15 * 60_000);
};

describe('reconciliation with ODIN', () => {
  it("records the difference for the deep row and leaves ODIN's copy of it out of the map", async () => {
    feed.set('/odin/exports/json', [odinRecord('12345', '12086', 1000), odinRecord('99999', '12011', 300)]);
    feed.set('/deep/0/query', deep(950));
    await cycle();
    expect(row('deep')).toMatchObject({ odin_delta_pct: odinDelta(950, 1000), odin_flagged: false });
    expect(odinDelta(950, 1000)).toBe(-5);
    const map = JSON.parse(fs.readFileSync(path.join(out, 'api/v1/live/map.json'), 'utf8')).data;
    expect(map['12086'][0]).toBe(950); // ODIN's 1,000 meters of the same utility are not added
    expect(map['12011'][0]).toBe(300); // a utility with no deep row comes from ODIN
  });
  it('flags a row that disagrees beyond its tolerance for three cycles, and clears it when they agree again', async () => {
    feed.set('/deep/0/query', deep(400));
    await cycle();
    await cycle();
    expect(row('deep')).toMatchObject({ odin_delta_pct: -60, odin_flagged: false });
    await cycle();
    expect(row('deep').odin_flagged).toBe(true);
    feed.set('/deep/0/query', deep(1000));
    await cycle();
    expect(row('deep')).toMatchObject({ odin_delta_pct: 0, odin_flagged: false });
  });
});
