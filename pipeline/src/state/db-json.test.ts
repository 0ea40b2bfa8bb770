// Db.allJson reads rows as DuckDB's JSON text: the same values as Db.all, in the query's order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Db } from './db.ts';

describe('Db.allJson', () => {
  let db: Db;
  beforeAll(async () => {
    db = await Db.open(':memory:');
    await db.run(`CREATE TABLE t (id VARCHAR, n BIGINT, x DOUBLE, b BOOLEAN, s VARCHAR)`);
    await db.run(`INSERT INTO t VALUES
      ('b', 9007199254740991, 0.1::DOUBLE + 0.2::DOUBLE, true, 'Ünïcode "q" \\ city'),
      ('a', -3, -80.123456789012345::DOUBLE, false, NULL),
      ('c', NULL, NULL, NULL, e'tab\\tline\\nbreak')`);
  });
  afterAll(async () => db.close());

  it('gives the values Db.all gives, doubles to the last bit, in ORDER BY order', async () => {
    const rows = await db.all('SELECT t.* FROM t ORDER BY id');
    const json = await db.allJson('SELECT to_json(t)::VARCHAR FROM t ORDER BY id');
    expect(json).toEqual(rows);
    expect(json.map((r) => (r as { id: string }).id)).toEqual(['a', 'b', 'c']);
    expect((json[1] as { x: number }).x).toBe(0.1 + 0.2);
  });

  it('names the query in its error', async () => {
    await expect(db.allJson('SELECT to_json(nope)::VARCHAR FROM t')).rejects.toThrow(/nope/);
  });
});
