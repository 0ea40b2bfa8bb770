// The archive's one migration (issue 38 part 1): a store written before quarter hours were named by their start
// stamped each cycle with the NEXT quarter mark (a cycle at 10:07 "stood for" 10:15), so its newest quarter was ahead
// of the clock. On open every quarter is re-stamped with the quarter its cycle was made in (archive.ts quarterOf);
// where two old quarters fall in one (a cycle exactly on a mark, and the next quarter's latest cycle), the later cycle
// wins, as it does when polling. The finished days from the first one touched are written again (their archive_files
// rows go, so the publisher writes them as it writes a new day) and the episodes grown from them are grown again.
// Idempotent: a store whose every quarter is its cycle's own has nothing to move, and is left untouched.
import { quarterOf } from './archive.ts';
import type { Db } from './db.ts';

const TABLES = ['archive_quarters', 'archive_county', 'archive_state', 'archive_source'] as const;

export interface Restamp {
  /** quarters given a new name */
  moved: number;
  /** quarters that lost to a later cycle of the same quarter */
  dropped: number;
  /** the first UTC day whose published files are written again */
  fromDay: string;
}

/** What moves: each stored quarter's own quarter, the later cycle kept where two share one. Null: nothing moves. */
function plan(rows: Array<{ q: string; c: string }>): { moves: Map<string, string | null>; fromDay: string } | null {
  const winner = new Map<string, { q: string; c: number }>();
  for (const r of rows) {
    const own = quarterOf(new Date(r.c));
    const c = Date.parse(r.c);
    const best = winner.get(own);
    if (!best || c > best.c) winner.set(own, { q: r.q, c });
  }
  const kept = new Map([...winner].map(([own, w]) => [w.q, own]));
  const moves = new Map<string, string | null>();
  for (const r of rows) {
    const to = kept.get(r.q) ?? null;
    if (to !== r.q) moves.set(r.q, to);
  }
  if (moves.size === 0) return null;
  const touched = [...moves].flatMap(([from, to]) => (to ? [from, to] : [from]));
  return { moves, fromDay: touched.sort()[0].slice(0, 10) };
}

/** Re-stamps a store written the old way (see the header); null when it has nothing to move. */
export async function restampArchive(db: Db): Promise<Restamp | null> {
  const rows = await db.all<{ q: string; c: string }>('SELECT quarter_at AS q, cycle_at AS c FROM archive_quarters');
  const p = plan(rows);
  if (!p) return null;
  return db.transaction(async () => {
    await db.staging('archive_restamp', '(from_q VARCHAR, to_q VARCHAR)');
    const a = await db.appender('archive_restamp');
    for (const [from, to] of p.moves) {
      a.appendVarchar(from);
      if (to === null) a.appendNull();
      else a.appendVarchar(to);
      a.endRow();
    }
    a.closeSync();
    for (const t of TABLES) {
      await db.run(`DELETE FROM ${t} WHERE quarter_at IN (SELECT from_q FROM archive_restamp WHERE to_q IS NULL)`);
      if (t === 'archive_quarters') continue;
      await db.run(
        `UPDATE ${t} SET quarter_at = r.to_q FROM archive_restamp r WHERE ${t}.quarter_at = r.from_q AND r.to_q IS NOT NULL`,
      );
    }
    await restampQuarters(db);
    await db.run('DELETE FROM archive_files WHERE day >= ?', [p.fromDay]);
    // The episodes grown from the days written again grow again once they are (history/derive.ts growEpisodes).
    await db.run(
      `UPDATE meta SET value = (SELECT coalesce(max(day), '') FROM archive_files)
        WHERE key = 'history_archive_day' AND value >= ?`,
      [p.fromDay],
    );
    const dropped = [...p.moves.values()].filter((to) => to === null).length;
    return { moved: p.moves.size - dropped, dropped, fromDay: p.fromDay };
  });
}

/** archive_quarters is keyed by quarter: its moved rows are taken out and put back under their new names. */
async function restampQuarters(db: Db): Promise<void> {
  await db.staging(
    'archive_restamp_quarters',
    `AS SELECT q.* REPLACE (r.to_q AS quarter_at) FROM archive_quarters q
          JOIN archive_restamp r ON q.quarter_at = r.from_q WHERE r.to_q IS NOT NULL`,
  );
  await db.run(
    'DELETE FROM archive_quarters WHERE quarter_at IN (SELECT from_q FROM archive_restamp WHERE to_q IS NOT NULL)',
  );
  await db.run('INSERT INTO archive_quarters SELECT * FROM archive_restamp_quarters');
  await db.run('DROP TABLE archive_restamp_quarters');
}
