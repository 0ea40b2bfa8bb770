// The account database behind one small interface, with the same SQL on both engines: PostgreSQL in production
// (`DATABASE_URL`, shared by the function layer and the pipeline) and PGlite — Postgres compiled to WebAssembly,
// in-process — as the embedded default for `npm start` and most tests.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { UsageError } from '../errors.ts';
import { fromRoot, PACKAGE_ROOT } from '../package-root.ts';

export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** runs `fn` in one transaction (serialised: one at a time per connection) */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  readonly engine: 'pglite' | 'postgres';
}

/**
 * One process at a time may open an embedded database: `<dir>.lock` holds the owner's pid (a lock left by a dead
 * process is taken over). Two processes sharing accounts need PostgreSQL (DATABASE_URL).
 */
function lockDir(dir: string): () => void {
  const lock = `${dir}.lock`;
  for (let tries = 0; tries < 2; tries++) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lock, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(fs.readFileSync(lock, 'utf8'));
      let alive = false;
      try {
        alive = pid > 0 && pid !== process.pid && process.kill(pid, 0);
      } catch (e) {
        alive = (e as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
      }
      if (alive)
        throw new UsageError(
          `The embedded account database ${dir} is in use by process ${pid}. Set DATABASE_URL to a PostgreSQL server to share accounts between processes.`,
        );
      fs.rmSync(lock, { force: true });
    }
  }
  throw new UsageError(`Could not lock the embedded account database ${dir}.`);
}

/** Creates the database cluster in a short-lived child process; the parent only ever opens an existing one. */
const INITDB = `const { PGlite } = await import('@electric-sql/pglite');
await (await PGlite.create(process.argv[1])).close();`;
/** where the child resolves the package from: the repository root (an evaluated module resolves from its cwd) */

/**
 * A new embedded database is created (initdb, in WebAssembly) by a child process: creating one takes PGlite ~770 MB
 * that it never gives back, opening one ~210 MB, so the long-running process keeps only the latter. It is created
 * beside `dir` and renamed into place, so a kill during creation leaves no half-made database behind.
 */
async function createPgliteCluster(dir: string): Promise<void> {
  if (fs.existsSync(path.join(dir, 'PG_VERSION'))) return;
  const tmp = `${dir}.creating`;
  fs.rmSync(tmp, { recursive: true, force: true });
  await promisify(execFile)(process.execPath, ['--input-type=module', '-e', INITDB, path.resolve(tmp)], {
    cwd: PACKAGE_ROOT,
  }).catch((err: Error & { stderr?: string }) => {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw new Error(`Could not create the embedded account database in ${dir}: ${err.stderr || err.message}`);
  });
  fs.rmSync(dir, { recursive: true, force: true }); // not a database (no PG_VERSION): at most an empty directory
  fs.renameSync(tmp, dir);
}

/** PGlite in `dir` (created, locked to this process), or in memory. */
export async function openPglite(dir?: string): Promise<Sql> {
  const { PGlite } = await import('@electric-sql/pglite');
  let unlock = () => {};
  if (dir) {
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    unlock = lockDir(dir);
    await createPgliteCluster(dir).catch((err: Error) => {
      unlock();
      throw err;
    });
    // A process killed with the database open leaves PGlite's postmaster.pid, and PGlite then refuses to start. Our
    // lock proves no live process owns the directory, so the file is stale.
    fs.rmSync(path.join(dir, 'postmaster.pid'), { force: true });
  }
  const db = await PGlite.create(dir);
  const wrap = (q: { query: (t: string, p?: unknown[]) => Promise<{ rows: unknown[] }> }): Sql => ({
    engine: 'pglite',
    query: async <T>(text: string, params: unknown[] = []) => (await q.query(text, params)).rows as T[],
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    close: async () => {
      await db.close();
      unlock();
    },
  });
  return wrap(db);
}

/** A PostgreSQL server (node-postgres pool). */
export async function openPostgres(url: string): Promise<Sql> {
  const pg = (await import('pg')).default;
  // BIGINT as a JavaScript number (ids and counts stay far below 2^53), as PGlite returns them.
  pg.types.setTypeParser(20, (v: string) => Number(v));
  const pool = new pg.Pool({ connectionString: url, max: 8 });
  const wrap = (c: { query: (t: string, p?: unknown[]) => Promise<{ rows: unknown[] }> }): Sql => ({
    engine: 'postgres',
    query: async <T>(text: string, params: unknown[] = []) => (await c.query(text, params)).rows as T[],
    transaction: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const out = await fn(wrap(client));
        await client.query('COMMIT');
        return out;
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  });
  return wrap(pool);
}

/** `DATABASE_URL` (postgres://…) when set, else PGlite under `<stateDir>/accounts` (or in memory for `:memory:`). */
export async function openAccountsDb(stateDir: string, url = process.env.DATABASE_URL): Promise<Sql> {
  const sql = url
    ? await openPostgres(url)
    : await openPglite(stateDir === ':memory:' ? undefined : path.join(stateDir, 'accounts'));
  await migrate(sql);
  return sql;
}

const MIGRATIONS = fromRoot('pipeline/src/accounts/migrations');

/**
 * Applies the versioned migrations (`migrations/NNN-name.sql`) not yet recorded in `schema_migrations`, each in its
 * own transaction, in order. Returns the versions applied.
 */
export async function migrate(sql: Sql): Promise<number[]> {
  await sql.query(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
  );
  const done = new Set(
    (await sql.query<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => r.version),
  );
  const applied: number[] = [];
  for (const file of fs
    .readdirSync(MIGRATIONS)
    .filter((f) => /^\d{3}-[\w-]+\.sql$/.test(f))
    .sort()) {
    const version = Number(file.slice(0, 3));
    if (done.has(version)) continue;
    const text = fs.readFileSync(path.join(MIGRATIONS, file), 'utf8');
    await sql.transaction(async (tx) => {
      for (const stmt of text
        .split(/;\s*\n/)
        .map((s) => s.trim())
        .filter((s) => s && !/^--[^\n]*$/.test(s)))
        await tx.query(stmt);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [version, file]);
    });
    applied.push(version);
  }
  return applied;
}
