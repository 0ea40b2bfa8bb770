// Incident events on a real sequence (issue 41 parts 1 and 5): PG&E's outage points of the February 2024 storm days
// (every second recorded version; LG&E/KU's every twentieth) replayed through the pipeline at each version's commit time. The events expected
// are derived here from the recorded points by the documented rules (an outage of ≥ 100 customers opens; 1.5× and one
// threshold more grows; half the peak improves; an ETR moved by 60 minutes or more, a new crew status; an id that
// leaves the feed is restored) and must equal the stream's `scope=incident` events.
import { describe, expect, it } from 'vitest';
import { manualClock } from '../src/clock.ts';
import { EVENT_SELECT, type EventRow } from '../src/state/events.ts';
import { etrRecord } from '../src/state/etr-record.ts';
import { hasSharedData } from './shared-data.ts';
import {
  arcgisPages,
  archivedIncidentParquet,
  kubraTiles,
  memoryPipeline,
  replayServer,
  versions,
} from './sequence-server.ts';
import { testTempDir } from './clean-machine.ts';
import { expectDerived, expectRecord, kubraPoint, pgePoint, sclPoint, type Replayed } from './incident-derive.ts';

/** Replays every `every`-th version of `seq` through the pipeline; the stream's incident events, oldest first. */
async function replayStream(
  seq: string,
  wrap: Parameters<typeof replayServer>[1],
  row: (base: string) => string,
  every: number,
): Promise<Replayed> {
  const all = versions(seq).filter((_, i) => i % every === 0);
  const replay = await replayServer(seq, wrap);
  const clock = manualClock(new Date(all[0].at));
  const { p, mem } = await memoryPipeline(
    `id,utility,state,connector,url,interval_min,tier,options\n${row(replay.base)}\n`,
    clock,
  );
  try {
    for (const v of all) {
      replay.state.file = v.file;
      clock.set(new Date(v.at));
      expect((await p.cycle({ all: true })).failures, `version ${v.version}`).toEqual([]);
    }
    const stream = await p.db.all<EventRow>(`${EVENT_SELECT} WHERE scope = 'incident' ORDER BY id`);
    // the finished days' incidents have left the live database for the archive's incident files: the record reads both
    const archived = archivedIncidentParquet(mem, testTempDir('incident-archive'));
    return { all, stream, record: await etrRecord(p.db, archived) };
  } finally {
    await p.close();
    await replay.close();
  }
}

describe.skipIf(!hasSharedData)('replay: incident events of real sequences', () => {
  it('PG&E outage points, February 2024: the events the recorded points call for', async () => {
    const seq = 'pge-arcgis-points-feb-2024';
    const options = JSON.stringify({ mode: 'incidents', page_size: 200 }).replace(/"/g, '""');
    const r = await replayStream(
      seq,
      arcgisPages,
      (base) =>
        `pge,Pacific Gas & Electric,CA,arcgis,${base}/arcgis/rest/services/Outages/MapServer/5,10,1,"${options}"`,
      2,
    );
    expectDerived(seq, r, pgePoint);
    expectRecord(seq, r, pgePoint);
    for (const e of r.stream.filter((x) => x.kind === 'outage_began')) {
      expect(e).toMatchObject({ utility: 'Pacific Gas & Electric', source_id: 'pge', state: 'CA' });
      expect(e.fips).toMatch(/^06\d{3}$/);
    }
  }, 600_000);

  it('LG&E/KU Kubra incidents, August 2023: the events the recorded outages call for', async () => {
    const seq = 'lgeku-kubra-incidents-aug-2023';
    const options = JSON.stringify({ incidents: true, bbox: [-89.6, 36.5, -81.9, 39.2], min_zoom: 6 }).replace(
      /"/g,
      '""',
    );
    const r = await replayStream(
      seq,
      kubraTiles,
      (base) =>
        `lgeku,LG&E and KU,KY,kubra,${base}/stormcenter/api/v1/stormcenters/i/views/v/currentState?preview=false,15,1,"${options}"`,
      20,
    );
    expectDerived(seq, r, kubraPoint);
    expectRecord(seq, r, kubraPoint);
    expect(r.stream.some((e) => e.cause !== null)).toBe(true);
  }, 600_000);

  it('Seattle City Light events, the March 2026 wind event: the events and ETR record the recorded events call for', async () => {
    const seq = 'scl-events-wind-mar-2026';
    const r = await replayStream(
      seq,
      (raw) => raw,
      (base) => `seattle-city-light,Seattle City Light,WA,datacapable,${base}/datacapable/v2/p/scl/map/events,15,2`,
      1,
    );
    expectDerived(seq, r, sclPoint);
    expectRecord(seq, r, sclPoint);
    for (const e of r.stream) expect(e).toMatchObject({ source_id: 'seattle-city-light', state: 'WA' });
  }, 600_000);
});
