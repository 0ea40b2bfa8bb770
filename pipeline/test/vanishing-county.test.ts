// Issue: a county that vanishes from an incident-style feed must close (and a failed poll changes nothing).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { manualClock } from '../src/clock.ts';
import { Pipeline } from '../src/pipeline.ts';
import { LOOPBACK_HTTP } from '../src/sources/http.ts';
import { EVENT_SELECT, type EventRow } from '../src/state/events.ts';
import { ScriptedFeed, tempDir } from './scripted-feed.ts';
import { sourceDef } from './shared-data.ts';

const MIAMI = { x: -80.45, y: 25.6 }; // Miami-Dade, 12086
const incidents = (n: number) => ({
  features: n ? [{ attributes: { OUTAGE_ID: 'a1', EST_CUSTOMERS: n }, geometry: MIAMI }] : [],
});

const feed = new ScriptedFeed();
const tmp = tempDir('vanish');
const clock = manualClock(new Date('2026-09-01T00:00:00Z'));
let pipeline: Pipeline;

const countyEvents = async () =>
  (await pipeline.db.all<EventRow>(`${EVENT_SELECT} WHERE scope = 'county' AND fips = '12086' ORDER BY id`)).map(
    (e) => e.kind,
  );
const cycle = async () => {
  await pipeline.cycle({ all: true });
  clock.advance(10 * 60_000);
};

beforeAll(async () => {
  await feed.start();
  const source = sourceDef({
    id: 'pts',
    connector: 'arcgis',
    states: ['FL'],
    url: `${feed.base}/layer/0`,
    interval_min: 10,
    options: { mode: 'incidents' },
  });
  pipeline = await Pipeline.open({
    stateDir: path.join(tmp.dir, 'state'),
    outDir: path.join(tmp.dir, 'public'),
    sources: [source],
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

describe('a county that vanishes from its feed', () => {
  it('opens an outage while listed', async () => {
    feed.set('/layer/0/query', incidents(3000));
    await cycle();
    expect(await countyEvents()).toEqual(['outage_began']);
  });
  it('a failed poll changes nothing: the county keeps its count and its outage', async () => {
    feed.set('/layer/0/query', { status: 503, body: 'busy' });
    await cycle();
    const [row] = await pipeline.db.all<{ n: number }>(
      "SELECT customers_out::INT AS n FROM obs_county WHERE fips = '12086'",
    );
    expect(row.n).toBe(3000);
    expect(await countyEvents()).toEqual(['outage_began']);
  });
  it('counts as 0 from that source once a complete poll no longer lists it, and the outage closes', async () => {
    feed.set('/layer/0/query', incidents(0));
    await cycle();
    const [row] = await pipeline.db.all<{ n: number }>(
      "SELECT customers_out::INT AS n FROM obs_county WHERE source_id = 'pts' AND fips = '12086'",
    );
    expect(row.n).toBe(0);
    await cycle();
    expect(await countyEvents()).toEqual(['outage_began', 'outage_restored']);
  });
  it('a new outage can open there again', async () => {
    feed.set('/layer/0/query', incidents(2500));
    await cycle();
    expect(await countyEvents()).toEqual(['outage_began', 'outage_restored', 'outage_began']);
  });
});
