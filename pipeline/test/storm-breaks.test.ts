// Issue 36 part 6, a storm that breaks: FPL's real county list during Hurricane Ian replayed over HTTP on 127.0.0.1,
// one version per cycle at its commit time, with its count field renamed for a stretch of versions (as a utility that
// renames one field would send it), then with "unknown" in every county. The polls of that stretch fail naming the field, the feed goes stale under the
// stale rule, no outage is restored and no 0 is published; when the field returns the figures are the recording's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/clock.ts';
import { staleAfterMinutes } from '../src/state/rules.ts';
import { hasSharedData } from './shared-data.ts';
import { docOf, fplRow, memoryPipeline, replayServer, versions, type ReplayServer } from './sequence-server.ts';

const SEQ = 'fpl-county-ian-2022';
const FIELD = 'Customers Out';

describe.skipIf(!hasSharedData)('replay: a storm whose count field disappears and returns (FPL, Ian 2022)', () => {
  const all = versions(SEQ);
  // From version 40 the field is renamed, from 50 through 59 it is back with "unknown" in every county (the
  // recording's Lee County outages are growing there); from 60 it is as recorded.
  const renamed = new Set(all.slice(39, 49).map((v) => v.file));
  const unknown = new Set(all.slice(49, 59).map((v) => v.file));
  const broken = new Set([...renamed, ...unknown]);
  const body = (raw: Buffer, file: string): Buffer => {
    const text = raw.toString('utf8');
    if (renamed.has(file)) return Buffer.from(text.replaceAll(`"${FIELD}"`, '"Customers Affected"'));
    if (unknown.has(file)) return Buffer.from(text.replace(/("Customers Out": )"[^"]*"/g, '$1"unknown"'));
    return raw;
  };
  let replay: ReplayServer;
  beforeAll(async () => {
    replay = await replayServer(SEQ, (raw, _url, file) => body(raw, file));
  });
  afterAll(() => replay?.close());

  it('fails each poll naming the field, goes stale, restores nothing, publishes no zero, and recovers', async () => {
    const clock = manualClock(new Date(all[0].at));
    const { p, mem } = await memoryPipeline(fplRow(replay.base), clock);
    try {
      const run = all.slice(30, 70);
      let lastGood = Number.NaN;
      let lastGoodAt = 0;
      let wentStale = false;
      for (const v of run) {
        replay.state.file = v.file;
        clock.set(new Date(v.at));
        const s = await p.cycle({ all: true });
        const fl = docOf(mem, 'api/v1/live/map.json').FL[0] as number;
        const src = docOf(mem, 'api/v1/live/sources.json').sources[0];
        if (broken.has(v.file)) {
          expect(s.failed, `version ${v.version}`).toBe(1);
          expect(src.last_error).toMatchObject({ reason: 'schema', message: expect.stringContaining(FIELD) });
          // The last good figure stands; never a zero read from a field that is gone.
          expect(fl, `version ${v.version}`).toBe(lastGood);
          const minutes = (Date.parse(v.at) - lastGoodAt) / 60_000;
          const stale = minutes > staleAfterMinutes(15);
          expect(src.freshness, `version ${v.version}, ${minutes.toFixed(0)} min after the last good poll`).toBe(
            stale ? 'stale' : 'fresh',
          );
          wentStale ||= stale;
        } else {
          expect(s.failed, `version ${v.version}`).toBe(0);
          expect(fl, `version ${v.version}`).toBe(v.sum);
          expect(src.freshness).toBe('fresh');
          lastGood = v.sum;
          lastGoodAt = Date.parse(v.at);
        }
      }
      expect(wentStale).toBe(true);
      // No outage closed while the field was gone: every restore falls outside the broken stretch.
      const gone = all.filter((v) => broken.has(v.file));
      const from = gone[0].at;
      const until = all[all.indexOf(gone.at(-1)!) + 1].at;
      const restored = await p.db.all<{ event_at: string }>(
        "SELECT event_at FROM events WHERE kind = 'outage_restored' AND event_at >= ? AND event_at < ?",
        [new Date(from).toISOString(), new Date(until).toISOString()],
      );
      expect(restored).toEqual([]);
    } finally {
      await p.close();
    }
  });
});
