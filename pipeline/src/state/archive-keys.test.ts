// The never-pruned tables an earlier version keyed (the archive's, the per-outage history) are rebuilt without the key
// on open, their rows intact (schema.sql).
import { afterAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { Db } from './db.ts';
import { closeAll, makeTempDir, removeTempDir } from '../../test/clean-machine.ts';

const dir = makeTempDir('archive-keys');
afterAll(() => closeAll(() => removeTempDir(dir)));

describe('the never-pruned tables of an earlier version', () => {
  it('lose their primary key and keep every row', async () => {
    const file = path.join(dir, 'outage.duckdb');
    const old = await DuckDBInstance.create(file);
    const c = await old.connect();
    await c.run(`CREATE TABLE archive_source (quarter_at VARCHAR NOT NULL, source_id VARCHAR NOT NULL,
      customers_out BIGINT, customers_served BIGINT, fresh BOOLEAN NOT NULL, PRIMARY KEY (quarter_at, source_id));
      INSERT INTO archive_source VALUES ('2026-09-01T10:15:00.000Z', 'a', 5, 10, true), ('2026-09-01T10:00:00.000Z', 'b', NULL, NULL, false);
      CREATE TABLE incident_history (source_id VARCHAR NOT NULL, id VARCHAR NOT NULL, first_seen_at VARCHAR NOT NULL,
        last_seen_at VARCHAR NOT NULL, etr VARCHAR, etrs STRUCT(etr VARCHAR, seen_at VARCHAR)[] NOT NULL, PRIMARY KEY (source_id, id));
      INSERT INTO incident_history VALUES ('a', 'i1', '2026-09-01T10:00:00.000Z', '2026-09-01T11:00:00.000Z', 'x',
        [{'etr': 'x', 'seen_at': '2026-09-01T10:00:00.000Z'}]);`);
    c.closeSync();
    old.closeSync();
    const db = await Db.open(dir);
    try {
      const keys = await db.all<{ n: number }>(
        "SELECT count(*)::INT AS n FROM duckdb_constraints() WHERE table_name IN ('archive_county', 'archive_state', 'archive_source', 'incident_history') AND constraint_type = 'PRIMARY KEY'",
      );
      expect(keys[0].n).toBe(0);
      expect(await db.all('SELECT * FROM archive_source ORDER BY quarter_at')).toEqual([
        {
          quarter_at: '2026-09-01T10:00:00.000Z',
          source_id: 'b',
          customers_out: null,
          customers_served: null,
          fresh: false,
        },
        { quarter_at: '2026-09-01T10:15:00.000Z', source_id: 'a', customers_out: 5, customers_served: 10, fresh: true },
      ]);
      expect(
        await db.allJson(
          'SELECT to_json(h)::VARCHAR FROM (SELECT source_id, id, last_seen_at, etrs FROM incident_history) h',
        ),
      ).toEqual([
        {
          source_id: 'a',
          id: 'i1',
          last_seen_at: '2026-09-01T11:00:00.000Z',
          etrs: [{ etr: 'x', seen_at: '2026-09-01T10:00:00.000Z' }],
        },
      ]);
    } finally {
      db.close();
    }
  });
});
