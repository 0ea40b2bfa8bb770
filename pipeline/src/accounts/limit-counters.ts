// Counters for the account limits, kept in the account database so every process shares them. A limit is counted
// before it is enforced, in one statement that increments and returns the new count (issue 37: limits read before
// the failure was written let 300 concurrent guesses through): of N concurrent attempts exactly the first `limit`
// in commit order see a count within it, on PGlite and PostgreSQL alike (`INSERT … ON CONFLICT DO UPDATE` locks the
// row). A window starts with its first attempt and lasts `windowMs`; the next attempt after it starts a new one.
import type { Sql } from './sql.ts';

export interface Count {
  /** attempts in the current window, this one included */
  n: number;
  resetsAt: Date;
}

/** Counts `by` attempts against `key` and returns the window's count. */
export async function bump(sql: Sql, key: string, windowMs: number, now: Date, by = 1): Promise<Count> {
  const [row] = await sql.query<{ n: number; resets_at: Date | string }>(
    `INSERT INTO limit_counters (key, resets_at, n) VALUES ($1, $2, $4)
    ON CONFLICT (key) DO UPDATE SET
      n = CASE WHEN limit_counters.resets_at > $3 THEN limit_counters.n + $4 ELSE $4 END,
      resets_at = CASE WHEN limit_counters.resets_at > $3 THEN limit_counters.resets_at ELSE $2 END
    RETURNING n, resets_at`,
    [key, new Date(now.getTime() + windowMs), now, by],
  );
  return { n: row.n, resetsAt: new Date(row.resets_at) };
}

/** Whole seconds until a window resets (Retry-After), at least 1. */
export const secondsUntil = (c: Count, now: Date): number =>
  Math.max(1, Math.ceil((c.resetsAt.getTime() - now.getTime()) / 1000));

/** Drops counters whose window has ended: an absent row counts as a fresh window, so nothing is lost. */
export async function pruneCounters(sql: Sql, now: Date): Promise<void> {
  await sql.query('DELETE FROM limit_counters WHERE resets_at <= $1', [now]);
}
