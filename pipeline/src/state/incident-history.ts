// Per-outage history (issue 25 part 5): each incident's first and last time seen and every ETR it was given, kept as
// its source's observations are replaced. Runs inside writeOutcomes for the sources whose snapshot changed (the
// `changed_ids` staging table, with each poll's time): an unchanged poll lists the same incidents with the same ETRs.
import type { Db } from './db.ts';

/** Before a changed source's incidents are replaced: those it listed were still listed at its last good poll. */
export async function markLastSeen(db: Db): Promise<void> {
  await db.run(
    `UPDATE incident_history SET last_seen_at = s.last_success_at
       FROM obs_incident i, source_status s, changed_ids c
      WHERE incident_history.source_id = i.source_id AND incident_history.id = i.id AND s.source_id = i.source_id
        AND c.id = i.source_id AND s.last_success_at IS NOT NULL AND s.last_success_at > incident_history.last_seen_at`,
  );
}

/**
 * After they are replaced: new incidents start their history; listed ones are seen now, and an ETR that differs from
 * the last one given is appended (a withdrawn ETR, null, is not a new estimate).
 */
export async function recordSeen(db: Db): Promise<void> {
  await db.run(
    `INSERT OR IGNORE INTO incident_history
     SELECT i.source_id, i.id, c.polled_at, c.polled_at, i.etr,
            CASE WHEN i.etr IS NULL THEN []::STRUCT(etr VARCHAR, seen_at VARCHAR)[] ELSE [{'etr': i.etr, 'seen_at': c.polled_at}] END
       FROM obs_incident i JOIN changed_ids c ON c.id = i.source_id`,
  );
  await db.run(
    `UPDATE incident_history SET last_seen_at = c.polled_at,
            etr = coalesce(i.etr, incident_history.etr),
            etrs = CASE WHEN i.etr IS NOT NULL AND i.etr IS DISTINCT FROM incident_history.etr
                        THEN list_append(incident_history.etrs, {'etr': i.etr, 'seen_at': c.polled_at})
                        ELSE incident_history.etrs END
       FROM obs_incident i, changed_ids c
      WHERE incident_history.source_id = i.source_id AND incident_history.id = i.id AND c.id = i.source_id
        AND incident_history.first_seen_at < c.polled_at`,
  );
}
