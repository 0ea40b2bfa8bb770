// Per-outage history (issue 25 part 5): each incident's first and last time seen and every ETR it was given, kept as
// its source's observations are replaced. Runs inside writeOutcomes for the sources whose snapshot changed (the
// `changed_ids` staging table, with each poll's time). Only what changed is written: a new incident, a new ETR, an
// incident that left the feed. A listed incident's last sighting is its source's last good poll, read through the
// `incident_seen` view rather than rewritten for every listed incident each cycle, and its peak only when it grows (a storm's 60,000 rows of a
// keyed table rewritten were most of the storm cycle's storing time).
import type { Db } from './db.ts';

/** Before a changed source's incidents are replaced: which ones it listed until now. */
export async function markLastSeen(db: Db): Promise<void> {
  await db.run(
    'CREATE OR REPLACE TEMP TABLE prev_incident AS SELECT source_id, id FROM obs_incident WHERE source_id IN (SELECT id FROM changed_ids)',
  );
}

/**
 * After they are replaced: new incidents start their history; an ETR that differs from the last one given is appended
 * (a withdrawn ETR, null, is not a new estimate); an incident no longer listed was last seen at its source's last good
 * poll before this one (source_status is saved after the observations).
 */
export async function recordSeen(db: Db): Promise<void> {
  // One row per incident (the table has no key: schema.sql): an incident listed twice (in two counties) starts once.
  await db.run(
    `INSERT INTO incident_history (source_id, id, first_seen_at, last_seen_at, etr, etrs, peak)
     SELECT DISTINCT ON (i.source_id, i.id) i.source_id, i.id, c.polled_at, c.polled_at, i.etr,
            CASE WHEN i.etr IS NULL THEN []::STRUCT(etr VARCHAR, seen_at VARCHAR)[] ELSE [{'etr': i.etr, 'seen_at': c.polled_at}] END,
            i.customers_out
       FROM obs_incident i JOIN changed_ids c ON c.id = i.source_id
      WHERE NOT EXISTS (SELECT 1 FROM incident_history h WHERE h.source_id = i.source_id AND h.id = i.id)`,
  );
  // The peak: only the incidents that grew past it are written (listed twice: the larger listing counts).
  await db.run(
    `UPDATE incident_history SET peak = i.n
       FROM (SELECT source_id, id, max(customers_out) AS n FROM obs_incident WHERE source_id IN (SELECT id FROM changed_ids) GROUP BY ALL) i
      WHERE incident_history.source_id = i.source_id AND incident_history.id = i.id AND i.n > coalesce(incident_history.peak, -1)`,
  );
  await db.run(
    `UPDATE incident_history SET last_seen_at = c.polled_at, etr = i.etr,
            etrs = list_append(incident_history.etrs, {'etr': i.etr, 'seen_at': c.polled_at})
       FROM obs_incident i, changed_ids c
      WHERE incident_history.source_id = i.source_id AND incident_history.id = i.id AND c.id = i.source_id
        AND i.etr IS NOT NULL AND i.etr IS DISTINCT FROM incident_history.etr AND incident_history.first_seen_at < c.polled_at`,
  );
  await db.run(
    `UPDATE incident_history SET last_seen_at = s.last_success_at
       FROM prev_incident p, source_status s
      WHERE incident_history.source_id = p.source_id AND incident_history.id = p.id AND s.source_id = p.source_id
        AND s.last_success_at IS NOT NULL AND s.last_success_at > incident_history.last_seen_at
        AND NOT EXISTS (SELECT 1 FROM obs_incident i WHERE i.source_id = p.source_id AND i.id = p.id)`,
  );
  await db.run('DROP TABLE prev_incident');
}
