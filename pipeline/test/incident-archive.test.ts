// Issue 41 part 4: the live incident history stays bounded. Seattle City Light's March 2026 wind event (its first 20
// versions) is replayed on three days running (a day apart, then a cycle past midnight so each day is archived):
// after each day only the incidents its feed still lists remain in incident_history, every other one is in the day's
// incident files, and the ETR record read over both counts each incident once — figures computed here from the payloads.
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../src/clock.ts';
import { etrRecord } from '../src/state/etr-record.ts';
import { closeAll, testTempDir } from './clean-machine.ts';
import { archivedIncidentParquet, memoryPipeline, replayServer, versionBytes, versions } from './sequence-server.ts';
import { hasSharedData } from './shared-data.ts';

const SEQ = 'scl-events-wind-mar-2026';
const DAY_MS = 86_400_000;
const idsOf = (file: string) =>
  new Set((JSON.parse(versionBytes(SEQ, file).toString()) as Array<{ id: number }>).map((e) => String(e.id)));

describe.skipIf(!hasSharedData)('the live incident history, bounded', () => {
  it('keeps only the listed incidents after each archived day, over the same storm three days running', async () => {
    // each day its first 20 versions: the day ends mid-restoration, with incidents still listed that carry over
    const all = versions(SEQ).slice(0, 20);
    const replay = await replayServer(SEQ, (raw) => raw);
    const clock = manualClock(new Date(all[0].at));
    const row = `seattle-city-light,Seattle City Light,WA,datacapable,${replay.base}/datacapable/v2/p/scl/map/events,15,2`;
    const { p, mem } = await memoryPipeline(`id,utility,state,connector,url,interval_min,tier\n${row}\n`, clock);
    const dir = testTempDir('incident-archive');
    // The test's own count: an id listed while no history of it is open starts an incident; at the end of each day the
    // ids its last version no longer lists are archived (their history closes).
    const open = new Set<string>();
    let incidents = 0;
    const live: number[] = [];
    try {
      for (let rep = 0; rep < 3; rep++) {
        for (const v of all) {
          replay.state.file = v.file;
          clock.set(new Date(Date.parse(v.at) + rep * DAY_MS));
          expect((await p.cycle({ all: true })).failures).toEqual([]);
          for (const id of idsOf(v.file)) {
            if (open.has(id)) continue;
            open.add(id);
            incidents += 1;
          }
        }
        const listed = idsOf(all.at(-1)!.file);
        for (const id of open) if (!listed.has(id)) open.delete(id);
        const day = new Date(Date.parse(all[0].at) + rep * DAY_MS).toISOString().slice(0, 10);
        clock.set(new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS + 5 * 60_000)); // past midnight: the day is archived
        expect((await p.cycle({ all: true })).failures).toEqual([]);
        const [{ n }] = await p.db.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM incident_history');
        expect(n, `day ${day}`).toBe(listed.size);
        live.push(n);
      }
      const files = archivedIncidentParquet(mem, dir);
      expect(files).toHaveLength(3);
      const duck = await (await DuckDBInstance.create(':memory:')).connect();
      const read = await duck.runAndReadAll(
        `SELECT count(*)::INTEGER, count(DISTINCT source_id || '|' || incident_id || '|' || first_seen_at)::INTEGER FROM read_parquet([${files.map((f) => `'${f}'`).join(', ')}])`,
      );
      const [archivedRows, distinct] = read.getRows()[0] as number[];
      duck.closeSync();
      expect(archivedRows).toBe(distinct); // no incident archived twice
      expect(archivedRows + live.at(-1)!).toBe(incidents);
      const record = await etrRecord(p.db, files);
      expect(record.reduce((s, r) => s + r.incidents, 0)).toBe(incidents);
      console.log(`${SEQ} ×3 days: ${incidents} incidents, ${archivedRows} archived, live rows after each day ${live}`);
    } finally {
      await closeAll(
        () => p.close(),
        () => replay.close(),
      );
    }
  }, 600_000);
});
