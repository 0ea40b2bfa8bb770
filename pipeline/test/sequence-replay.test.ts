// Replays real recorded storm sequences (../shared/data/sequences) byte-for-byte over HTTP on 127.0.0.1, one version
// per cycle at the version's commit time, through the real connectors, state and publisher.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { manualClock } from '../src/clock.ts';
import { parseRegistry } from '../src/registry/registry.ts';
import { Pipeline } from '../src/pipeline.ts';
import { MemoryTreeWriter } from '../src/publish/tree-writer.ts';
import { startServer } from '../src/serve/server.ts';
import { LOOPBACK_HTTP } from '../src/sources/http.ts';
import { hasSharedData } from './shared-data.ts';
import {
  arcgisPages,
  docOf,
  fplRow,
  kubraTiles,
  memoryPipeline,
  replayServer,
  versions,
  type ReplayServer,
} from './sequence-server.ts';
import { closeAll, testTempDir } from './clean-machine.ts';

describe.skipIf(!hasSharedData)('replay: FPL county outages during Hurricane Ian (2022)', () => {
  const seq = 'fpl-county-ian-2022';
  const all = versions(seq);
  let replay: ReplayServer;
  beforeAll(async () => {
    replay = await replayServer(seq, (raw) => raw);
  });
  afterAll(() => replay?.close());

  it('publishes the recorded Florida total at every replayed version', async () => {
    const clock = manualClock(new Date(all[0].at));
    const { p, mem } = await memoryPipeline(fplRow(replay.base), clock);
    try {
      const picked = all.filter((_, i) => i % 5 === 0 || i === all.length - 1);
      let changedCycles = 0;
      for (const v of picked) {
        replay.state.file = v.file;
        clock.set(new Date(v.at));
        const s = await p.cycle({ all: true });
        expect(s.failed).toBe(0);
        changedCycles += s.changed;
        const fl = docOf(mem, 'api/v1/live/map.json').FL;
        expect(fl[0], `version ${v.version}`).toBe(v.sum);
        const summary = docOf(mem, 'api/v1/live/summary.json');
        expect(summary.simulated).toBe(false);
      }
      expect(changedCycles).toBeGreaterThan(picked.length / 2);
      // The peak: Lee County (12071) is in the Ian landfall zone and has a published Customers Served count.
      const lee = docOf(mem, 'api/v1/live/counties/12071.json');
      expect(lee.customers_out).toBeGreaterThan(100_000);
      expect(lee.denominator).toBeGreaterThanOrEqual(lee.customers_served_feed);
      const top = docOf(mem, 'api/v1/live/top.json');
      expect(top.providers[0].utility).toBe('Florida Power & Light');
      // Re-polling the same bytes changes nothing.
      const again = await p.cycle({ all: true });
      expect(again.changed).toBe(0);
    } finally {
      await p.close();
    }
  });
});

describe.skipIf(!hasSharedData)('replay: PG&E ArcGIS outage points (March 2024)', () => {
  const seq = 'pge-arcgis-points-mar-2024';
  const all = versions(seq);
  let replay: ReplayServer;
  beforeAll(async () => {
    replay = await replayServer(seq, arcgisPages);
  });
  afterAll(() => replay?.close());

  it('turns every recorded point into an incident and adds them into California counties', async () => {
    const clock = manualClock(new Date(all[0].at));
    const mem = new MemoryTreeWriter(clock());
    const options = JSON.stringify({ mode: 'incidents', page_size: 50 }).replace(/"/g, '""');
    const { sources } = parseRegistry(
      `id,utility,state,connector,url,interval_min,tier,options\npge,Pacific Gas & Electric,CA,arcgis,${replay.base}/arcgis/rest/services/Outages/MapServer/5,10,1,"${options}"\n`,
    );
    const p = await Pipeline.open({
      stateDir: ':memory:',
      outDir: '',
      sources,
      clock,
      simulated: false,
      writer: (now) => {
        mem.now = now;
        return mem;
      },
    });
    try {
      for (const v of all.filter((_, i) => i % 10 === 0)) {
        replay.state.file = v.file;
        clock.set(new Date(v.at));
        const s = await p.cycle({ all: true });
        expect(s.failed).toBe(0);
        const incidents = await p.db.all<{ n: number; customers: number }>(
          'SELECT count(*)::INT AS n, coalesce(sum(customers_out), 0)::INT AS customers FROM obs_incident',
        );
        expect(incidents[0].n, `version ${v.version}`).toBe(v.records);
        expect(incidents[0].customers).toBe(v.sum);
        const located = await p.db.all<{ customers: number }>(
          "SELECT coalesce(sum(customers_out), 0)::INT AS customers FROM obs_incident WHERE fips LIKE '06%'",
        );
        expect(docOf(mem, 'api/v1/live/map.json').CA[0]).toBe(located[0].customers);
        expect(located[0].customers).toBeGreaterThan(0.9 * v.sum);
      }
      const sourcesDoc = docOf(mem, 'api/v1/live/sources.json');
      expect(sourcesDoc.sources[0].coverage).toBe('outage_only');
    } finally {
      await p.close();
    }
  });
});

describe.skipIf(!hasSharedData)('replay: the event stream during Hurricane Ian, through the real server', () => {
  const seq = 'fpl-county-ian-2022';
  const all = versions(seq);
  let replay: ReplayServer;
  beforeAll(async () => {
    replay = await replayServer(seq, (raw) => raw);
  });
  afterAll(() => replay?.close());

  it("opens, grows and restores county outages and flags FPL's major event once", async () => {
    const dir = testTempDir('ian-events');
    const clock = manualClock(new Date(all[0].at));
    const { sources } = parseRegistry(
      `id,utility,state,connector,url,interval_min,tier\nfpl,Florida Power & Light,FL,fpl,${replay.base}/county.json,15,1\n`,
    );
    const p = await Pipeline.open({
      stateDir: path.join(dir, 'state'),
      outDir: path.join(dir, 'public'),
      sources,
      clock,
      simulated: false,
    });
    let server: Awaited<ReturnType<typeof startServer>> | undefined;
    try {
      server = await startServer({ outDir: path.join(dir, 'public'), port: 0 });
      for (const v of all.filter((_, i) => i % 2 === 0)) {
        replay.state.file = v.file;
        clock.set(new Date(v.at));
        expect((await p.cycle({ all: true })).failed).toBe(0);
      }
      const lee = (
        (await (await fetch(`${server.url}/api/v1/events?fips=12071&limit=500`)).json()).data.events as Array<{
          id: number;
          kind: string;
          customers_out: number;
          outage_id: string;
          threshold: number;
        }>
      ).sort((a, b) => a.id - b.id); // the page is newest first; the story reads oldest first
      expect(lee[0].kind).toBe('outage_began');
      const grew = lee.filter((e) => e.kind === 'outage_grew');
      expect(grew.length).toBeGreaterThanOrEqual(3);
      for (let i = 1; i < grew.length; i++)
        expect(grew[i].customers_out).toBeGreaterThanOrEqual(grew[i - 1].customers_out * 1.5);
      expect(lee.every((e) => e.threshold === lee[0].threshold)).toBe(true);

      const utility = (
        await (
          await fetch(
            `${server.url}/api/v1/events?utility=${encodeURIComponent('Florida Power & Light')}&kind=major_event,outage_began`,
          )
        ).json()
      ).data.events as Array<{ kind: string; scope: string; pct_out: number }>;
      const major = utility.filter((e) => e.kind === 'major_event');
      expect(major).toHaveLength(1);
      expect(major[0].pct_out).toBeGreaterThanOrEqual(10);

      // Every restored outage was opened first, and closed only once.
      const rows = await p.db.all<{ outage_id: string; kind: string; id: number }>(
        "SELECT outage_id, kind, id FROM events WHERE kind IN ('outage_began', 'outage_restored') ORDER BY id",
      );
      const openIds = new Set<string>();
      let restored = 0;
      for (const r of rows) {
        if (r.kind === 'outage_began') openIds.add(r.outage_id);
        else {
          expect(openIds.delete(r.outage_id)).toBe(true);
          restored += 1;
        }
      }
      expect(restored).toBeGreaterThan(0);
      const feed = await (await fetch(`${server.url}/feeds/events.json?fips=12071`)).json();
      expect(feed.items[0].url).toBe(`${server.url}/counties/12071`); // the county page, not its JSON
    } finally {
      await closeAll(
        () => server?.close(),
        () => p.close(),
      );
    }
  });
});

describe.skipIf(!hasSharedData)('replay: LG&E/KU outages from the Kubra cluster layer (August 2023)', () => {
  // The recording is the scraper's per-outage flattening of Kubra cluster tiles; we serve it back as tiles in Kubra's
  // shape (quadkey-addressed, clustered above zoom 10, points as encoded polylines, sharded by {qkh}).
  const seq = 'lgeku-kubra-incidents-aug-2023';
  const all = versions(seq);
  let replay: ReplayServer;
  beforeAll(async () => {
    replay = await replayServer(seq, kubraTiles);
  });
  afterAll(() => replay?.close());

  it('walks the tiles down through clusters and finds every recorded outage', async () => {
    const clock = manualClock(new Date(all[0].at));
    const mem = new MemoryTreeWriter(clock());
    const options = JSON.stringify({ incidents: true, bbox: [-89.6, 36.5, -81.9, 39.2], min_zoom: 6 }).replace(
      /"/g,
      '""',
    ); // Kentucky
    const { sources } = parseRegistry(
      `id,utility,state,connector,url,interval_min,tier,options\nlgeku,LG&E and KU,KY,kubra,${replay.base}/stormcenter/api/v1/stormcenters/i/views/v/currentState?preview=false,15,1,"${options}"\n`,
    );
    const p = await Pipeline.open({
      stateDir: ':memory:',
      outDir: '',
      sources,
      clock,
      simulated: false,
      http: LOOPBACK_HTTP,
      writer: (now) => {
        mem.now = now;
        return mem;
      },
    });
    try {
      for (const v of all.filter((_, i) => i % 12 === 0)) {
        replay.state.file = v.file;
        clock.set(new Date(v.at));
        const s = await p.cycle({ all: true });
        expect(s.failures).toEqual([]);
        const rows = await p.db.all<{ n: number; customers: number; located: number; ky: number }>(
          "SELECT count(*)::INT AS n, sum(customers_out)::INT AS customers, count(fips)::INT AS located, count(*) FILTER (WHERE fips LIKE '21%')::INT AS ky FROM obs_incident",
        );
        expect(rows[0].n, `version ${v.version}`).toBe(v.records);
        expect(rows[0].customers).toBe(v.sum);
        expect(rows[0].located).toBe(v.records);
        // LG&E/KU also serves a few customers just over the line (Virginia, Tennessee): nearly all are in Kentucky.
        expect(rows[0].ky).toBeGreaterThanOrEqual(Math.floor(v.records * 0.95));
      }
      const [one] = await p.db.all<{ cause: string; started_at: string }>(
        'SELECT cause, started_at FROM obs_incident LIMIT 1',
      );
      expect(one.cause.length).toBeGreaterThan(0);
      expect(one.started_at).toMatch(/^2023-08-/);
    } finally {
      await p.close();
    }
  });
});
