// Deliveries per target are rate-limited (issue 24: two events fanned out to 10,036 deliveries): at most
// TARGET_PER_MINUTE a minute go to one URL or address (the channel's `target_key`), counted in the database (so
// every delivery process shares the count); the rest of a batch is deferred to the next minute in its order, never dropped, and a deferral is not an
// attempt (it does not count towards retries or disabling).
import type { Sql } from './sql.ts';

/** Discord allows 30 webhook messages a minute and Slack about one a second: 30 fits both, and a mailbox. */
export const TARGET_PER_MINUTE = 30;

/**
 * Splits leased deliveries into those that may go now and those deferred to the next minute (their lease released
 * and `next_attempt_at` moved there). `perMinute`: the cap (TARGET_PER_MINUTE unless a benchmark lifts it).
 */
export async function admitByTarget<D extends { id: string; target_key: string }>(
  sql: Sql,
  due: D[],
  now: Date,
  perMinute = TARGET_PER_MINUTE,
): Promise<D[]> {
  if (due.length === 0 || !Number.isFinite(perMinute)) return due;
  const windowStart = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const byTarget = new Map<string, D[]>();
  for (const d of due) {
    const k = d.target_key;
    (byTarget.get(k) ?? byTarget.set(k, []).get(k)!).push(d);
  }
  const keys = [...byTarget.keys()];
  return sql.transaction(async (tx) => {
    const rows = await tx.query<{ target: string; sent: number }>(
      'SELECT target, sent FROM target_windows WHERE target = ANY($1::text[]) AND window_start = $2 FOR UPDATE',
      [keys, windowStart],
    );
    const sent = new Map(rows.map((r) => [r.target, r.sent]));
    const admitted: D[] = [];
    const deferred: string[] = [];
    const counts: number[] = [];
    for (const k of keys) {
      const list = byTarget.get(k)!;
      const room = Math.max(0, perMinute - (sent.get(k) ?? 0));
      admitted.push(...list.slice(0, room));
      deferred.push(...list.slice(room).map((d) => d.id));
      counts.push(Math.min(room, list.length));
    }
    await tx.query(
      `INSERT INTO target_windows (target, window_start, sent) SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::int[])
      ON CONFLICT (target) DO UPDATE SET sent = CASE WHEN target_windows.window_start = excluded.window_start
        THEN target_windows.sent + excluded.sent ELSE excluded.sent END, window_start = excluded.window_start`,
      [keys, keys.map(() => windowStart), counts],
    );
    if (deferred.length)
      await tx.query('UPDATE deliveries SET lease_until = NULL, next_attempt_at = $2 WHERE id = ANY($1::text[])', [
        deferred,
        new Date(windowStart.getTime() + 60_000),
      ]);
    return admitted;
  });
}
