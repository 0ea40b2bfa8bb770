import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { Db } from './db.ts';
import { prunePolls, sourceHealth } from './health.ts';
import { blankStatus } from './status.ts';
import { sourceDef } from '../../test/shared-data.ts';
import { tempDir } from '../../test/scripted-feed.ts';

const tmp = tempDir('health');
let db: Db;
const NOW = new Date('2026-09-08T00:00:00Z');
const at = (hoursAgo: number) => new Date(NOW.getTime() - hoursAgo * 3_600_000).toISOString();

beforeAll(async () => {
  db = await Db.open(path.join(tmp.dir, 'state'));
  // "a" polls every hour for 48 h with 10 min interval → stale after 25 min; fails from 6 h ago to 2 h ago.
  const rows: Array<[string, string, number, boolean]> = [];
  for (let h = 48; h >= 0; h--) rows.push(['a', at(h), 100 + h, !(h <= 6 && h > 2)]);
  rows.push(['b', at(3), 500, false], ['b', at(1), 700, false]); // never succeeded
  rows.push(['old', at(24 * 9), 10, true]);
  rows.push(['new', at(1 / 60), 40, true]); // first polled by this deployment a minute ago
  for (const [id, t, ms, ok] of rows)
    await db.run(
      'INSERT INTO polls (source_id, polled_at, ms, ok, changed, http_requests) VALUES (?, ?, ?, ?, false, 1)',
      [id, t, ms, ok],
    );
});
afterAll(() => {
  db?.close();
  tmp.remove();
});

describe('source health', () => {
  it('gives success share, median fetch time and stale minutes per window', async () => {
    const sources = [
      sourceDef({ id: 'a', interval_min: 10 }),
      sourceDef({ id: 'b', interval_min: 10 }),
      sourceDef({ id: 'c', interval_min: 10 }),
    ];
    const st = new Map(sources.map((s) => [s.id, blankStatus(s.id)]));
    const h = await sourceHealth(db, sources, st, NOW);
    const a24 = h.get('a')!.last_24h;
    expect(a24.polls).toBe(24); // polled_at > 24 h ago: 23 … 0
    expect(a24.success_rate).toBeCloseTo(20 / 24, 3);
    expect(a24.median_fetch_ms).toBe(112); // ms 100..123 → median 111.5 → 112
    // last success 7 h ago, next 2 h ago: 5 h gap − 25 min stale_after = 275 min; every other gap is 60 − 25 = 35 min
    // (the 20 one-hour gaps inside the window … the first clipped at the window start)
    const oneHourGaps = 19; // successes 23…7 and 2…0 give 16 + 2 in-window gaps, plus the one entering the window
    expect(a24.minutes_stale).toBe(275 + oneHourGaps * 35);
    expect(h.get('a')!.last_7d.polls).toBe(49);
    expect(h.get('b')!.last_24h).toEqual({ polls: 2, success_rate: 0, median_fetch_ms: 600, minutes_stale: 180 });
    expect(h.get('c')!.last_7d).toEqual({ polls: 0, success_rate: null, median_fetch_ms: null, minutes_stale: 0 });
  });
  it('counts no stale time before this deployment first polled a source (issue 38: 1,420 minutes a minute in)', async () => {
    const src = sourceDef({ id: 'new', interval_min: 10 });
    const h = (await sourceHealth(db, [src], new Map([[src.id, blankStatus(src.id)]]), NOW)).get('new')!;
    expect([h.last_24h.minutes_stale, h.last_7d.minutes_stale]).toEqual([0, 0]);
    expect(h.last_24h.polls).toBe(1);
  });
  it('keeps 8 days of poll log', async () => {
    await prunePolls(db, NOW);
    const [{ n }] = await db.all<{ n: number }>("SELECT count(*)::INT AS n FROM polls WHERE source_id = 'old'");
    expect(n).toBe(0);
  });
});
