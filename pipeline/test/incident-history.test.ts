// Per-outage history (issue 25 part 5) through the real pipeline: an ArcGIS feed whose outage's ETR slips twice, is
// withdrawn, and then the outage clears. The county incidents answer says when it was first seen, how many times its
// ETR changed and every ETR it was given; the history keeps when it was last seen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { manualClock } from '../src/clock.ts';
import { Pipeline } from '../src/pipeline.ts';
import { LOOPBACK_HTTP } from '../src/sources/http.ts';
import { ScriptedFeed } from './scripted-feed.ts';
import { sourceDef } from './shared-data.ts';
import { closeAll, makeTempDir, removeTempDir } from './clean-machine.ts';

const dir = makeTempDir('incident-history');
const clock = manualClock(new Date('2026-09-01T10:00:00Z'));
const feed = new ScriptedFeed();
const LAYER = '/arcgis/rest/services/Outages/MapServer/0';
const HARRIS = { x: -95.37, y: 29.76 }; // downtown Houston: Harris County, 48201
const page = (etr: string | null, listed = true) => ({
  features: [
    ...(listed ? [{ attributes: { OUTAGE_ID: 'a', EST_CUSTOMERS: 40, ERT: etr }, geometry: HARRIS }] : []),
    { attributes: { OUTAGE_ID: 'b', EST_CUSTOMERS: 3, ERT: null }, geometry: HARRIS },
  ],
});
let pipeline: Pipeline;
const snapshots: Array<Record<string, unknown> | undefined> = [];

/** Cycles at these times with these answers; the published incident `a` after each. */
async function steps(list: Array<[string, ReturnType<typeof page>]>): Promise<void> {
  for (const [at, body] of list) {
    clock.set(new Date(at));
    feed.set(`${LAYER}/query`, body);
    await pipeline.cycle({ all: true });
    const doc = JSON.parse(fs.readFileSync(path.join(dir, 'public/api/v1/live/counties/48201.incidents.json'), 'utf8'));
    snapshots.push(doc.data.incidents.find((i: { incident_id: string }) => i.incident_id === 'a'));
  }
}

beforeAll(async () => {
  await feed.start();
  const source = sourceDef({
    id: 'tx',
    utility: 'Texas Test Power',
    connector: 'arcgis',
    states: ['TX'],
    url: `${feed.base}${LAYER}`,
  });
  pipeline = await Pipeline.open({
    ...{ stateDir: path.join(dir, 'state'), outDir: path.join(dir, 'public'), sources: [source] },
    ...{ clock, simulated: true, http: LOOPBACK_HTTP },
  });
  await steps([
    ['2026-09-01T10:00:00Z', page(null)],
    ['2026-09-01T10:10:00Z', page('2026-09-01T14:00:00Z')],
    ['2026-09-01T10:20:00Z', page('2026-09-01T14:00:00Z')], // unchanged poll: nothing new
    ['2026-09-01T10:30:00Z', page('2026-09-01T18:00:00Z')], // slipped
    ['2026-09-01T10:40:00Z', page(null)], // withdrawn: not a new estimate
    ['2026-09-01T10:50:00Z', page('2026-09-01T20:00:00Z')], // slipped again
    ['2026-09-01T11:00:00Z', page(null, false)], // cleared
  ]);
});

afterAll(() =>
  closeAll(
    () => pipeline?.close(),
    () => feed.stop(),
    () => removeTempDir(dir),
  ),
);

describe('per-outage history', () => {
  it('says when an incident was first seen, each ETR it was given, and how often it changed', () => {
    const last = snapshots[5] as { first_seen_at: string; etr_changes: number; etr_history: unknown[] };
    expect(last.first_seen_at).toBe('2026-09-01T10:00:00.000Z');
    expect(last.etr_history).toEqual([
      { etr: '2026-09-01T14:00:00.000Z', seen_at: '2026-09-01T10:10:00.000Z' },
      { etr: '2026-09-01T18:00:00.000Z', seen_at: '2026-09-01T10:30:00.000Z' },
      { etr: '2026-09-01T20:00:00.000Z', seen_at: '2026-09-01T10:50:00.000Z' },
    ]);
    expect(last.etr_changes).toBe(2);
    expect((snapshots[0] as { etr_changes: number }).etr_changes).toBe(0);
    expect(snapshots[6]).toBeUndefined(); // cleared: no longer listed
  });

  it('keeps when a cleared incident was last seen', async () => {
    const rows = await pipeline.db.all<{ id: string; first_seen_at: string; last_seen_at: string }>(
      "SELECT id, first_seen_at, last_seen_at FROM incident_seen WHERE source_id = 'tx' ORDER BY id",
    );
    expect(rows).toEqual([
      { id: 'a', first_seen_at: '2026-09-01T10:00:00.000Z', last_seen_at: '2026-09-01T10:50:00.000Z' },
      { id: 'b', first_seen_at: '2026-09-01T10:00:00.000Z', last_seen_at: '2026-09-01T11:00:00.000Z' },
    ]);
  });
});
