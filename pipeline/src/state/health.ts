// Source health over time (issue: users ask for it; no anchor offers it): per source, over the last 24 hours and 7
// days, the share of polls that succeeded, the median fetch time and the minutes it was stale (by the stale rule on
// its published interval). Read from the poll log, which keeps 8 days.
import type { SourceDef } from '../sources/source-def.ts';
import type { SourceStatus } from './status.ts';
import { staleAfterFor } from '../sources/scheduler.ts';
import type { Db } from './db.ts';

export interface HealthWindow {
  polls: number;
  /** successful polls / polls, 0–1 (null without polls) */
  success_rate: number | null;
  /** median wall time of a poll (fetch + normalise), ms */
  median_fetch_ms: number | null;
  minutes_stale: number;
}

export interface SourceHealth {
  last_24h: HealthWindow;
  last_7d: HealthWindow;
}

export const POLL_LOG_DAYS = 8;
const WINDOWS = [
  ['last_24h', 1],
  ['last_7d', 7],
] as const;

export async function sourceHealth(
  db: Db,
  sources: SourceDef[],
  statuses: Map<string, SourceStatus>,
  now: Date,
): Promise<Map<string, SourceHealth>> {
  await db.run('CREATE OR REPLACE TEMP TABLE health_thr (source_id VARCHAR, thr INTEGER)');
  const a = await db.appender('health_thr');
  for (const s of sources) {
    a.appendVarchar(s.id);
    a.appendInteger(staleAfterFor(s, statuses.get(s.id)));
    a.endRow();
  }
  a.closeSync();
  const out = new Map<string, SourceHealth>();
  const blank = (): HealthWindow => ({ polls: 0, success_rate: null, median_fetch_ms: null, minutes_stale: 0 });
  for (const s of sources) out.set(s.id, { last_24h: blank(), last_7d: blank() });
  for (const [key, days] of WINDOWS) {
    const since = new Date(now.getTime() - days * 86_400_000).toISOString();
    for (const r of await db.all<{
      source_id: string;
      n: number;
      rate: number;
      med: number | null;
      stale: number | null;
    }>(windowSql, [since, now.toISOString()])) {
      const h = out.get(r.source_id);
      if (h)
        h[key] = {
          polls: r.n,
          success_rate: r.n ? Math.round(r.rate * 1000) / 1000 : null,
          median_fetch_ms: r.med === null ? null : Math.round(r.med),
          minutes_stale: Math.round(r.stale ?? 0),
        };
    }
  }
  return out;
}

/**
 * Per source in [since, now]: polls, success share, median ms, and stale minutes — each stretch from a success (or,
 * before the first, the source's first poll: time before this deployment polled it is no time it was stale, issue 38)
 * to the next success (or now), less the source's stale_after, clipped to the window; a source that never succeeded is
 * stale from its first poll.
 */
const windowSql = `
WITH p AS (SELECT source_id, polled_at::TIMESTAMPTZ AS t, ok, ms FROM polls WHERE polled_at <= $2),
win AS (SELECT source_id, count(*)::INT AS n, avg(ok::INT) AS rate, median(ms) AS med, min(t) AS first FROM p WHERE t > $1::TIMESTAMPTZ GROUP BY source_id),
ok AS (SELECT source_id, t, lag(t) OVER (PARTITION BY source_id ORDER BY t) AS prev FROM p WHERE ok
       UNION ALL SELECT source_id, $2::TIMESTAMPTZ, max(t) FROM p WHERE ok GROUP BY source_id),
firsts AS (SELECT source_id, min(t) AS t0 FROM p GROUP BY source_id),
gaps AS (
  SELECT o.source_id, greatest(0, epoch(least(o.t, $2::TIMESTAMPTZ)) - epoch(greatest(coalesce(o.prev, f.t0) + to_minutes(h.thr), $1::TIMESTAMPTZ))) / 60 AS m
  FROM ok o JOIN health_thr h USING (source_id) JOIN firsts f USING (source_id) WHERE o.t > $1::TIMESTAMPTZ)
SELECT w.source_id, w.n, w.rate, w.med, coalesce((SELECT sum(m) FROM gaps g WHERE g.source_id = w.source_id),
  CASE WHEN NOT EXISTS (SELECT 1 FROM p WHERE p.source_id = w.source_id AND p.ok) THEN (epoch($2::TIMESTAMPTZ) - epoch(w.first)) / 60 END) AS stale
FROM win w`;

/** Keeps the poll log to what health reads. */
export async function prunePolls(db: Db, now: Date): Promise<void> {
  await db.run('DELETE FROM polls WHERE polled_at < ?', [
    new Date(now.getTime() - POLL_LOG_DAYS * 86_400_000).toISOString(),
  ]);
}
