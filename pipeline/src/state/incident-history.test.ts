// The per-outage history keeps one row per incident without a key (schema.sql): an incident listed twice in one poll
// (in two counties) and again in later polls still has one history row, with its first sighting and every new ETR.
import { afterAll, describe, expect, it } from 'vitest';
import { Db } from './db.ts';
import { markLastSeen, recordSeen } from './incident-history.ts';
import { closeAll, makeTempDir, removeTempDir } from '../../test/clean-machine.ts';

const dir = makeTempDir('incident-history');
afterAll(() => closeAll(() => removeTempDir(dir)));

/** One changed poll of source `s` listing `rows` ([id, fips, etr]), as writeOutcomes stages it around the replace. */
async function poll(db: Db, at: string, rows: Array<[string, string, string | null]>): Promise<void> {
  await db.staging('changed_ids', '(id VARCHAR, polled_at VARCHAR)');
  await db.run('INSERT INTO changed_ids VALUES (?, ?)', ['s', at]);
  await markLastSeen(db);
  await db.run("DELETE FROM obs_incident WHERE source_id = 's'");
  for (const [id, fips, etr] of rows)
    await db.run("INSERT INTO obs_incident (source_id, id, fips, customers_out, etr) VALUES ('s', ?, ?, 5, ?)", [
      id,
      fips,
      etr,
    ]);
  await recordSeen(db);
}

describe('recordSeen', () => {
  it('keeps one row per incident however often and in how many counties it is listed', async () => {
    const db = await Db.open(dir);
    try {
      await poll(db, '2026-09-01T10:00:00.000Z', [
        ['a', '12001', '2026-09-01T14:00:00.000Z'],
        ['a', '12003', '2026-09-01T14:00:00.000Z'],
        ['b', '12001', null],
      ]);
      await poll(db, '2026-09-01T10:15:00.000Z', [
        ['a', '12001', '2026-09-01T16:00:00.000Z'],
        ['b', '12001', null],
      ]);
      const rows = await db.allJson<{ id: string; first_seen_at: string; etrs: Array<{ etr: string }> }>(
        'SELECT to_json(h)::VARCHAR FROM (SELECT id, first_seen_at, etrs FROM incident_history ORDER BY id) h',
      );
      expect(rows.map((r) => [r.id, r.first_seen_at, r.etrs.map((e) => e.etr)])).toEqual([
        ['a', '2026-09-01T10:00:00.000Z', ['2026-09-01T14:00:00.000Z', '2026-09-01T16:00:00.000Z']],
        ['b', '2026-09-01T10:00:00.000Z', []],
      ]);
    } finally {
      db.close();
    }
  });
});
