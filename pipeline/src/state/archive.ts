// The archive (issue 25 part 1): every cycle's observations kept at a fixed 15-minute resolution and never pruned, as
// EAGLE-I records them. A quarter hour is named by its start, as EAGLE-I's run_start_time names a 15-minute collection
// (issue 38 part 1): a cycle at t writes its values at the quarter containing t (10:07 is the 10:00 quarter), replacing
// what an earlier cycle of the same quarter wrote, so the latest poll in a quarter wins and no quarter is named after a
// time that has not happened yet. A quarter no cycle reached (the poller was down) has no row: it is not invented. A stale
// source's quarters are marked (`fresh` false; a county fed by one is `stale`), never filled in. customers_tracked
// is what the fresh sources served at the quarter (state/tracked.ts): null where none did.
import type { SourceDef } from '../sources/source-def.ts';
import { freshness } from '../sources/scheduler.ts';
import type { Db } from './db.ts';
import type { LiveState } from './rollup.ts';
import type { SourceStatus } from './status.ts';

export const QUARTER_MS = 15 * 60_000;
/** The quarter hour containing `t`, named by its start (ISO): the quarter a cycle at `t` writes, the map at `t` shows. */
export const quarterOf = (t: Date): string => new Date(Math.floor(t.getTime() / QUARTER_MS) * QUARTER_MS).toISOString();

const TABLES = ['archive_quarters', 'archive_county', 'archive_state', 'archive_source'] as const;

export interface ArchiveInput {
  live: LiveState;
  sources: SourceDef[];
  statuses: Map<string, SourceStatus>;
  now: Date;
  simulated: boolean;
}

/** Writes the cycle's values at its quarter (inside the cycle's transaction); returns the quarter's start. */
export async function recordArchive(db: Db, x: ArchiveInput): Promise<string> {
  const q = quarterOf(x.now);
  for (const t of TABLES) await db.run(`DELETE FROM ${t} WHERE quarter_at = ?`, [q]);
  const fresh = x.sources.filter((s) => freshness(s, x.statuses.get(s.id), x.now) === 'fresh').length;
  const n = x.live.national;
  await db.run('INSERT INTO archive_quarters VALUES (?, ?, ?, ?, ?, ?, ?)', [
    ...[q, x.now.toISOString(), x.sources.length, fresh, n.customers_tracked, n.customers_out, x.simulated],
  ]);
  await appendCounties(db, q, x.live);
  await appendStates(db, q, x.live);
  await appendSources(db, q, x);
  return q;
}

async function appendCounties(db: Db, q: string, live: LiveState): Promise<void> {
  const a = await db.appender('archive_county');
  for (const c of live.counties) {
    if (c.customers_out <= 0) continue; // as EAGLE-I: a county absent at a quarter had no one out
    a.appendVarchar(q);
    a.appendVarchar(c.fips);
    a.appendVarchar(c.name);
    a.appendVarchar(c.state);
    a.appendBigInt(BigInt(c.customers_out));
    appendCount(a, c.customers_tracked);
    appendCount(a, c.customers_served_feed);
    if (c.pct_out === null) a.appendNull();
    else a.appendDouble(c.pct_out);
    a.appendInteger(c.band);
    a.appendInteger(c.magnitude);
    a.appendDouble(c.level);
    a.appendInteger(c.sources.length);
    a.appendBoolean(c.stale);
    a.endRow();
  }
  a.closeSync();
}

async function appendStates(db: Db, q: string, live: LiveState): Promise<void> {
  const a = await db.appender('archive_state');
  for (const s of live.states) {
    a.appendVarchar(q);
    a.appendVarchar(s.state);
    a.appendBigInt(BigInt(s.customers_out));
    appendCount(a, s.customers_tracked);
    if (s.pct_out === null) a.appendNull();
    else a.appendDouble(s.pct_out);
    a.appendInteger(s.band);
    a.appendInteger(s.magnitude);
    a.appendDouble(s.level);
    a.endRow();
  }
  a.closeSync();
}

async function appendSources(db: Db, q: string, x: ArchiveInput): Promise<void> {
  const a = await db.appender('archive_source');
  for (const s of x.sources) {
    const st = x.statuses.get(s.id);
    a.appendVarchar(q);
    a.appendVarchar(s.id);
    appendCount(a, st?.customers_out ?? null);
    appendCount(a, st?.customers_served ?? null);
    a.appendBoolean(freshness(s, st, x.now) === 'fresh');
    a.endRow();
  }
  a.closeSync();
}

type Appender = Awaited<ReturnType<Db['appender']>>;
function appendCount(a: Appender, v: number | null | undefined): void {
  if (v === null || v === undefined) a.appendNull();
  else a.appendBigInt(BigInt(Math.round(v)));
}
