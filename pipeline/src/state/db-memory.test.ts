// releaseMemory gives back the blocks DuckDB cached for a heavy job and restores the configured limit.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Db } from './db.ts';

describe('Db.releaseMemory', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'db-memory-'));
  let db: Db;
  afterAll(() => {
    db?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('evicts the table blocks a scan cached and keeps the limit', async () => {
    db = await Db.open(dir);
    const cached = async () =>
      (
        await db.all<{ b: number }>(
          "SELECT coalesce(sum(memory_usage_bytes), 0)::BIGINT AS b FROM duckdb_memory() WHERE tag = 'BASE_TABLE'",
        )
      )[0].b;
    const limit = async () => (await db.all<{ l: string }>("SELECT current_setting('memory_limit') AS l"))[0].l;
    const before = await limit();
    await db.run("CREATE TABLE big AS SELECT i, i % 1000 AS k, repeat('x', 40) || i AS s FROM range(1500000) t(i)");
    await db.run('CHECKPOINT');
    await db.all('SELECT k, count(DISTINCT s) FROM big GROUP BY k'); // reads every block of the table
    const held = await cached();
    expect(held).toBeGreaterThan(12_000_000);
    await db.releaseMemory();
    expect(await cached()).toBeLessThan(held / 2);
    expect(await limit()).toBe(before);
  });
});
