// DuckDB access: one file-backed database (or :memory: in tests), plain-number results, transactions.
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection, type DuckDBAppender, type DuckDBValue } from '@duckdb/node-api';
import { UsageError } from '../errors.ts';
import { fromRoot } from '../package-root.ts';
import { type Restamp, restampArchive } from './archive-restamp.ts';

const SCHEMA = readFileSync(fromRoot('pipeline/src/state/schema.sql'), 'utf8');

export type Row = Record<string, string | number | boolean | null>;

function plain(v: unknown): string | number | boolean | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  return String(v);
}

/** DuckDB's buffer pool cap (OUTAGE_DUCKDB_MEMORY): bounded so the pipeline stays small at national scale. */
const MEMORY_LIMIT = process.env.OUTAGE_DUCKDB_MEMORY ?? '256MB';

export class Db {
  private checkpointedAt = Number.NEGATIVE_INFINITY;
  /** What opening it re-stamped of an archive written before quarters were named by their start (null: nothing). */
  restamped: Restamp | null = null;

  private constructor(
    private readonly instance: DuckDBInstance,
    readonly conn: DuckDBConnection,
    private readonly spill: string | null = null,
  ) {}

  /** Opens (creating) `<dir>/outage.duckdb`, or an in-memory database for `:memory:`. */
  static async open(dir: string): Promise<Db> {
    let file = ':memory:';
    // An in-memory database spills to `.tmp` in the working directory by default, where parallel ones clash over
    // the same file names: each gets a directory of its own, made by DuckDB only if it spills, removed on close.
    let spill: string | null = path.join(os.tmpdir(), `outage-duckdb-${randomUUID()}`);
    if (dir !== ':memory:') {
      mkdirSync(dir, { recursive: true });
      file = path.join(dir, 'outage.duckdb');
      spill = null;
    }
    // Bounded so the pipeline stays small at national scale (DuckDB defaults to 80 % of RAM).
    let instance: DuckDBInstance;
    try {
      instance = await DuckDBInstance.create(file, {
        threads: '2',
        memory_limit: MEMORY_LIMIT,
        preserve_insertion_order: 'false',
        // DuckDB's allocator keeps what a query freed until a task peaks above this (default 128 MB), and purges its
        // dirty pages on a thread of its own: together ~35 MB less peak RSS in the national bench (issue #12).
        allocator_flush_threshold: '8MB',
        allocator_background_threads: 'true',
        ...(spill ? { temp_directory: spill } : {}),
      });
    } catch (err) {
      if (/lock/i.test((err as Error).message)) {
        throw new UsageError(
          `The state database ${file} is in use by another outage process (a running \`poll\` or \`start\`). Stop it, or point --state elsewhere.`,
        );
      }
      throw err;
    }
    const conn = await instance.connect();
    await conn.run(SCHEMA);
    await dropGrowingKeys(conn);
    await dropNotNull(conn);
    const db = new Db(instance, conn, spill);
    db.restamped = await restampArchive(db);
    return db;
  }

  async all<T = Row>(sql: string, params: DuckDBValue[] = []): Promise<T[]> {
    const reader = await this.conn.runAndReadAll(sql, params).catch((err: Error) => Promise.reject(withSql(err, sql)));
    // Converted in place: a storm's 60,000 incident rows are not copied into a second set of objects.
    const rows = reader.getRowObjectsJS() as Row[];
    for (const r of rows) for (const k in r) r[k] = plain(r[k]);
    return rows as T[];
  }

  /**
   * The rows of a query whose one column is each row's JSON text (`SELECT to_json(t)::VARCHAR FROM t …`), parsed. One
   * string per row crosses from DuckDB instead of one value per column: ~40 % less time on wide rows such as a storm's
   * 60,000 incidents (issue #12). DuckDB writes doubles in round-trip form, so numbers come back exactly.
   */
  async allJson<T>(sql: string, params: DuckDBValue[] = []): Promise<T[]> {
    const reader = await this.conn.runAndReadAll(sql, params).catch((err: Error) => Promise.reject(withSql(err, sql)));
    const texts = reader.getColumnsJS()[0] ?? [];
    return texts.map((t) => JSON.parse(t as string) as T);
  }

  /**
   * Gives back the blocks DuckDB cached for a heavy one-off job (a history import, the report tables): its buffer
   * pool otherwise keeps them up to the memory limit, ~200 MB a poll loop never reads again. Lowering the limit
   * evicts them (they are on disk); it is then restored. Best effort: blocks that cannot be evicted stay.
   */
  async releaseMemory(): Promise<void> {
    try {
      await this.run("SET memory_limit = '8MB'");
    } catch {
      // pinned blocks above the low limit: nothing more can be given back now
    } finally {
      await this.run(`SET memory_limit = '${MEMORY_LIMIT}'`);
    }
  }

  async run(sql: string, params: DuckDBValue[] = []): Promise<void> {
    await this.conn.run(sql, params).catch((err: Error) => Promise.reject(withSql(err, sql)));
  }

  /**
   * Writes what changed since the last checkpoint into the database file at most every `everyMs` of the caller's
   * clock. Until then DuckDB holds it in memory: without this a day of polling grew DuckDB's memory 25 → 89 MB (its
   * automatic checkpoint waits for 16 MB of WAL); with it the fault soak's memory stays flat.
   */
  async checkpointEvery(everyMs: number, now: number): Promise<void> {
    if (now - this.checkpointedAt < everyMs) return;
    await this.checkpoint(now);
  }

  /** Writes what changed into the database file now (a large store: see checkpointEvery). */
  async checkpoint(now: number): Promise<void> {
    await this.run('CHECKPOINT');
    this.checkpointedAt = now;
  }

  /**
   * An empty temporary staging table, replaced rather than emptied: DuckDB keeps the deleted rows of a temporary table
   * in memory until the table is dropped (a day of the fault soak grew 50 MB that way).
   */
  async staging(name: string, definition: string): Promise<void> {
    await this.run(`CREATE OR REPLACE TEMP TABLE ${name} ${definition}`);
  }

  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    await this.conn.run('BEGIN TRANSACTION');
    try {
      const out = await fn();
      await this.conn.run('COMMIT');
      return out;
    } catch (err) {
      await this.conn.run('ROLLBACK');
      throw err;
    }
  }

  async appender(table: string): Promise<DuckDBAppender> {
    return this.conn.createAppender(table);
  }

  close(): void {
    this.conn.closeSync();
    this.instance.closeSync();
    if (this.spill) rmSync(this.spill, { recursive: true, force: true });
  }
}

/**
 * The never-pruned tables an earlier version keyed (schema.sql says why they have no key now), each with the order its
 * rows are rebuilt in, without the key, once.
 */
const UNKEYED: Record<string, string> = {
  archive_county: 'quarter_at',
  archive_state: 'quarter_at',
  archive_source: 'quarter_at',
  incident_history: 'first_seen_at',
};
async function dropGrowingKeys(conn: DuckDBConnection): Promise<void> {
  for (const [t, order] of Object.entries(UNKEYED)) {
    const keyed = await conn.runAndReadAll(
      `SELECT count(*) FROM duckdb_constraints() WHERE table_name = '${t}' AND constraint_type = 'PRIMARY KEY'`,
    );
    if (Number(keyed.getRows()[0][0]) === 0) continue;
    await conn.run(
      `BEGIN; CREATE TABLE ${t}_unkeyed AS SELECT * FROM ${t} ORDER BY ${order}; DROP TABLE ${t};
       ALTER TABLE ${t}_unkeyed RENAME TO ${t}; COMMIT;`,
    );
  }
}

/** Columns an earlier version declared NOT NULL that may now be null (issue 36 part 5: no fresh source, no tracking). */
const NULLABLE: Array<[string, string]> = [
  ['archive_quarters', 'customers_tracked'],
  ['archive_state', 'customers_tracked'],
];
async function dropNotNull(conn: DuckDBConnection): Promise<void> {
  for (const [t, c] of NULLABLE) {
    const r = await conn.runAndReadAll(
      `SELECT count(*) FROM duckdb_columns() WHERE table_name = '${t}' AND column_name = '${c}' AND NOT is_nullable`,
    );
    if (Number(r.getRows()[0][0]) > 0) await conn.run(`ALTER TABLE ${t} ALTER COLUMN ${c} DROP NOT NULL`);
  }
}

function withSql(err: Error, sql: string): Error {
  err.message = `${err.message}\n  while running: ${sql.replace(/\s+/g, ' ').slice(0, 200)}`;
  return err;
}

/** Appends one value of a nullable column. */
export function put(
  a: DuckDBAppender,
  v: string | number | boolean | null,
  kind: 'text' | 'int' | 'real' | 'bool' = 'text',
): void {
  if (v === null) a.appendNull();
  else if (kind === 'int') a.appendBigInt(BigInt(Math.round(v as number)));
  else if (kind === 'real') a.appendDouble(v as number);
  else if (kind === 'bool') a.appendBoolean(v as boolean);
  else a.appendVarchar(String(v));
}
