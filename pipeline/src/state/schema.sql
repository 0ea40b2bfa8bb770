-- Live state. Times are ISO-8601 UTC strings (they sort as text); counts are BIGINT.
CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR);

CREATE TABLE IF NOT EXISTS sources (
  id VARCHAR PRIMARY KEY, utility VARCHAR NOT NULL, states VARCHAR NOT NULL, connector VARCHAR NOT NULL,
  url VARCHAR NOT NULL, interval_min INTEGER NOT NULL, tier INTEGER NOT NULL, options VARCHAR NOT NULL,
  customers BIGINT, active BOOLEAN NOT NULL DEFAULT true
);

-- One row per source: what the scheduler and freshness rules read.
CREATE TABLE IF NOT EXISTS source_status (
  source_id VARCHAR PRIMARY KEY, last_attempt_at VARCHAR, last_success_at VARCHAR, last_reason VARCHAR,
  last_error VARCHAR, consecutive_failures INTEGER NOT NULL DEFAULT 0, snapshot_hash VARCHAR,
  hardened BOOLEAN NOT NULL DEFAULT false, next_due_at VARCHAR, basis VARCHAR, unit VARCHAR, notice VARCHAR,
  customers_out BIGINT, customers_served BIGINT, unmatched INTEGER NOT NULL DEFAULT 0
);
-- Reconciliation with ODIN (added later: appended so existing state databases keep their column order).
ALTER TABLE source_status ADD COLUMN IF NOT EXISTS odin_delta_pct DOUBLE;
ALTER TABLE source_status ADD COLUMN IF NOT EXISTS odin_disagree_cycles INTEGER DEFAULT 0;
-- Records of the last good poll whose count could not be read (issue 36: unknown is never zero).
ALTER TABLE source_status ADD COLUMN IF NOT EXISTS unreadable INTEGER DEFAULT 0;
-- Of customers_out, those out for planned work, where the feed tells them apart (issue 36 part 3).
ALTER TABLE source_status ADD COLUMN IF NOT EXISTS planned_out BIGINT;

CREATE SEQUENCE IF NOT EXISTS poll_seq;
CREATE TABLE IF NOT EXISTS polls (
  id BIGINT PRIMARY KEY DEFAULT nextval('poll_seq'), source_id VARCHAR NOT NULL, polled_at VARCHAR NOT NULL,
  ms INTEGER NOT NULL, ok BOOLEAN NOT NULL, reason VARCHAR, message VARCHAR, changed BOOLEAN NOT NULL, http_requests INTEGER
);

-- Versions, not overwrites: a new row only when a source's normalised snapshot hash changes.
CREATE TABLE IF NOT EXISTS snapshot_versions (source_id VARCHAR NOT NULL, hash VARCHAR NOT NULL, observed_at VARCHAR NOT NULL);

-- The current observation of each source (replaced as a unit when its snapshot changes).
CREATE TABLE IF NOT EXISTS obs_county (
  source_id VARCHAR NOT NULL, fips VARCHAR NOT NULL, customers_out BIGINT NOT NULL, customers_served BIGINT
);
CREATE TABLE IF NOT EXISTS obs_area (
  source_id VARCHAR NOT NULL, fips VARCHAR, name VARCHAR NOT NULL, path VARCHAR NOT NULL, customers_out BIGINT NOT NULL,
  out_display VARCHAR NOT NULL, out_lower BIGINT NOT NULL, out_upper BIGINT, masked BOOLEAN NOT NULL,
  customers_served BIGINT, etr VARCHAR, bbox VARCHAR
);
CREATE TABLE IF NOT EXISTS obs_incident (
  source_id VARCHAR NOT NULL, id VARCHAR NOT NULL, fips VARCHAR, customers_out BIGINT NOT NULL, etr VARCHAR,
  crew_status VARCHAR, cause VARCHAR, started_at VARCHAR, lat DOUBLE, lon DOUBLE, city VARCHAR
);
-- Planned work the feed flags (issue 36 part 3; appended so existing state databases keep their column order).
ALTER TABLE obs_incident ADD COLUMN IF NOT EXISTS planned BOOLEAN DEFAULT false;
ALTER TABLE obs_county ADD COLUMN IF NOT EXISTS planned_out BIGINT;

-- State-level severity frames behind /live/timeline (one per state per 15-minute bucket).
CREATE TABLE IF NOT EXISTS state_frames (
  frame_at VARCHAR NOT NULL, state VARCHAR NOT NULL, customers_out BIGINT NOT NULL, pct_out DOUBLE, band INTEGER NOT NULL,
  PRIMARY KEY (frame_at, state)
);

-- Outages (open ones have closed_at NULL) and the event stream. Event ids only grow; a published event never changes.
CREATE TABLE IF NOT EXISTS outages (
  id VARCHAR PRIMARY KEY, scope VARCHAR NOT NULL, key VARCHAR NOT NULL, fips VARCHAR, state VARCHAR, utility VARCHAR,
  area VARCHAR, opened_at VARCHAR NOT NULL, threshold BIGINT NOT NULL, peak BIGINT NOT NULL, last_value BIGINT NOT NULL,
  below_polls INTEGER NOT NULL, grew_base BIGINT NOT NULL, improving_base BIGINT NOT NULL, etr VARCHAR,
  major BOOLEAN NOT NULL, closed_at VARCHAR
);
CREATE TABLE IF NOT EXISTS events (
  id BIGINT PRIMARY KEY, event_at VARCHAR NOT NULL, kind VARCHAR NOT NULL, scope VARCHAR NOT NULL, fips VARCHAR,
  state VARCHAR, utility VARCHAR, area VARCHAR, source_id VARCHAR, outage_id VARCHAR, customers_out BIGINT,
  pct_out DOUBLE, threshold BIGINT, previous BIGINT, etr VARCHAR, previous_etr VARCHAR
);
-- Incident events (issue 41 part 1; appended so existing state databases keep their column order).
ALTER TABLE events ADD COLUMN IF NOT EXISTS etr_slip_min BIGINT;
ALTER TABLE events ADD COLUMN IF NOT EXISTS incident_id VARCHAR;
ALTER TABLE events ADD COLUMN IF NOT EXISTS cause VARCHAR;
ALTER TABLE events ADD COLUMN IF NOT EXISTS crew_status VARCHAR;
ALTER TABLE events ADD COLUMN IF NOT EXISTS previous_crew_status VARCHAR;
ALTER TABLE outages ADD COLUMN IF NOT EXISTS crew_status VARCHAR;
CREATE TABLE IF NOT EXISTS source_freshness (source_id VARCHAR PRIMARY KEY, freshness VARCHAR NOT NULL);
-- Per-chunk summaries of the published event stream (1,000 events a chunk), kept up to date as events are appended.
CREATE TABLE IF NOT EXISTS event_chunks (
  n BIGINT PRIMARY KEY, min_id BIGINT NOT NULL, max_id BIGINT NOT NULL, first_at VARCHAR NOT NULL, last_at VARCHAR NOT NULL,
  kinds VARCHAR NOT NULL, states VARCHAR NOT NULL, fips VARCHAR NOT NULL, utilities VARCHAR NOT NULL, max_customers BIGINT NOT NULL
);
-- The scopes a chunk holds (null for a chunk summarised before incident events: no incident events in it).
ALTER TABLE event_chunks ADD COLUMN IF NOT EXISTS scopes VARCHAR;

-- History (imported). EAGLE-I 15-minute county outage rows; EAGLE-I modelled county customers (MCC); import log.
CREATE TABLE IF NOT EXISTS eaglei_outages (fips VARCHAR NOT NULL, run_start_time TIMESTAMP NOT NULL, customers_out INTEGER NOT NULL, total_customers INTEGER);
CREATE TABLE IF NOT EXISTS county_customers_mcc (fips VARCHAR PRIMARY KEY, customers BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS import_log (
  kind VARCHAR NOT NULL, file VARCHAR NOT NULL, imported_at VARCHAR NOT NULL, rows_read BIGINT NOT NULL,
  rows_loaded BIGINT NOT NULL, rows_rejected BIGINT NOT NULL, years VARCHAR NOT NULL
);
-- Derived history: county outage episodes from the 15-minute series, and their monthly and yearly rollups.
CREATE TABLE IF NOT EXISTS episodes (
  fips VARCHAR NOT NULL, start_at TIMESTAMP NOT NULL, end_at TIMESTAMP NOT NULL, peak INTEGER NOT NULL,
  customer_hours DOUBLE NOT NULL, duration_h DOUBLE NOT NULL, size_class VARCHAR NOT NULL, threshold INTEGER NOT NULL
);
-- where an episode's intervals come from: 'eaglei', 'archive' (the live archive) or 'both' (history_series below)
ALTER TABLE episodes ADD COLUMN IF NOT EXISTS origin VARCHAR DEFAULT 'eaglei';
-- County customers out per 15-minute bucket, for counties with an outage (behind the live chart); kept 8 days.
CREATE TABLE IF NOT EXISTS county_frames (frame_at VARCHAR NOT NULL, fips VARCHAR NOT NULL, customers_out BIGINT NOT NULL, PRIMARY KEY (frame_at, fips));
-- EAGLE-I coverage by state and year (coverage_history.csv): customers in the state (EIA) and the range EAGLE-I saw.
CREATE TABLE IF NOT EXISTS eaglei_coverage (year INTEGER NOT NULL, state VARCHAR NOT NULL, total_customers DOUBLE, min_covered DOUBLE, max_covered DOUBLE, PRIMARY KEY (year, state));
-- DOE OE-417 electric emergency and disturbance events (times local as reported; states parsed from Area Affected).
CREATE TABLE IF NOT EXISTS oe417_events (
  year INTEGER NOT NULL, began_at TIMESTAMP NOT NULL, restored_at TIMESTAMP, restoration VARCHAR NOT NULL, area VARCHAR,
  states VARCHAR NOT NULL, nerc VARCHAR, alert_criteria VARCHAR, event_type VARCHAR, cause VARCHAR NOT NULL,
  demand_loss_mw DOUBLE, customers_affected BIGINT, source VARCHAR NOT NULL
);
-- EIA-861: reliability (per utility × state × standard), service territory (utility × county), customers (utility × state × part).
CREATE TABLE IF NOT EXISTS eia861_reliability (
  year INTEGER NOT NULL, utility_number INTEGER NOT NULL, utility_name VARCHAR NOT NULL, state VARCHAR NOT NULL, ownership VARCHAR,
  standard VARCHAR NOT NULL, saidi_with_med DOUBLE, saifi_with_med DOUBLE, caidi_with_med DOUBLE,
  saidi_without_med DOUBLE, saifi_without_med DOUBLE, caidi_without_med DOUBLE, customers BIGINT
);
CREATE TABLE IF NOT EXISTS eia861_territory (year INTEGER NOT NULL, utility_number INTEGER NOT NULL, utility_name VARCHAR NOT NULL, state VARCHAR NOT NULL, county VARCHAR NOT NULL, fips VARCHAR NOT NULL);
CREATE TABLE IF NOT EXISTS eia861_customers (year INTEGER NOT NULL, utility_number INTEGER NOT NULL, utility_name VARCHAR NOT NULL, part VARCHAR, service_type VARCHAR, state VARCHAR NOT NULL, ownership VARCHAR, customers BIGINT NOT NULL);
-- The archive (issue 25): every cycle's observations at a fixed 15-minute resolution, never pruned. `quarter_at` is the
-- quarter mark whose value in force the row is (EAGLE-I's run_start_time); `archive_quarters` has one row per quarter
-- the poller reached (a quarter it did not reach has none: nothing is invented), with the coverage in force. The
-- per-county, state and source tables have no key: a key's index over a never-pruned table grows in memory without
-- bound (a year at national scale is tens of millions of rows); recordArchive replaces a quarter's rows as a whole.
-- customers_tracked: the customers the fresh sources served (state/tracked.ts); null where no fresh source served.
CREATE TABLE IF NOT EXISTS archive_quarters (
  quarter_at VARCHAR PRIMARY KEY, cycle_at VARCHAR NOT NULL, sources_total INTEGER NOT NULL,
  sources_fresh INTEGER NOT NULL, customers_tracked BIGINT, customers_out BIGINT NOT NULL,
  simulated BOOLEAN NOT NULL
);
CREATE TABLE IF NOT EXISTS archive_county (
  quarter_at VARCHAR NOT NULL, fips VARCHAR NOT NULL, county VARCHAR NOT NULL, state VARCHAR NOT NULL,
  customers_out BIGINT NOT NULL, customers_tracked BIGINT, customers_served_feed BIGINT, pct_out DOUBLE,
  band INTEGER NOT NULL, magnitude INTEGER NOT NULL, level DOUBLE NOT NULL, sources INTEGER NOT NULL,
  stale BOOLEAN NOT NULL
);
CREATE TABLE IF NOT EXISTS archive_state (
  quarter_at VARCHAR NOT NULL, state VARCHAR NOT NULL, customers_out BIGINT NOT NULL, customers_tracked BIGINT,
  pct_out DOUBLE, band INTEGER NOT NULL, magnitude INTEGER NOT NULL, level DOUBLE NOT NULL
);
CREATE TABLE IF NOT EXISTS archive_source (
  quarter_at VARCHAR NOT NULL, source_id VARCHAR NOT NULL, customers_out BIGINT, customers_served BIGINT,
  fresh BOOLEAN NOT NULL
);
-- The archive's finished days as published: written once (a day is never rewritten), listed in /api/v1/archive.
CREATE TABLE IF NOT EXISTS archive_files (
  day VARCHAR PRIMARY KEY, rows BIGINT NOT NULL, quarters INTEGER NOT NULL, csv_bytes BIGINT NOT NULL,
  csv_sha256 VARCHAR NOT NULL, parquet_bytes BIGINT NOT NULL, parquet_sha256 VARCHAR NOT NULL, written_at VARCHAR NOT NULL
);
-- Per-outage history (issue 25 part 5): every incident a feed listed, when it was first and last seen, and every ETR it
-- was given with the poll that first showed it (its changes: how often the restoration estimate slipped). One row per
-- (source_id, id), kept so by recordSeen; no key, like the archive's tables: its finished incidents move to the
-- archive's incident day files (state/incident-archive.ts), and a key's index
-- grows with every incident ever seen (at 1 M rows adding a storm's 60,000 took 223 ms and 165 MB RSS against 95 ms
-- and 126 MB without it; a 3 M-row keyed table could not be built within DuckDB's 256 MB).
CREATE TABLE IF NOT EXISTS incident_history (
  source_id VARCHAR NOT NULL, id VARCHAR NOT NULL, first_seen_at VARCHAR NOT NULL, last_seen_at VARCHAR NOT NULL,
  etr VARCHAR, etrs STRUCT(etr VARCHAR, seen_at VARCHAR)[] NOT NULL
);
-- Its largest customers out (issue 41 part 4: the archive's incident day files carry it); null before it was kept.
ALTER TABLE incident_history ADD COLUMN IF NOT EXISTS peak BIGINT;
-- Each incident's history with its last sighting: a listed incident was last seen at its source's last good poll
-- (incident_history.last_seen_at is written when it leaves the feed or gets a new ETR, not at every poll).
CREATE OR REPLACE VIEW incident_seen AS
SELECT h.source_id, h.id, h.first_seen_at,
       CASE WHEN i.id IS NOT NULL AND s.last_success_at > h.last_seen_at THEN s.last_success_at ELSE h.last_seen_at END
         AS last_seen_at,
       h.etr, h.etrs, i.id IS NOT NULL AS listed, h.peak
  FROM incident_history h
  LEFT JOIN (SELECT DISTINCT source_id, id FROM obs_incident) i ON i.source_id = h.source_id AND i.id = h.id
  LEFT JOIN source_status s ON s.source_id = h.source_id;
-- The county 15-minute series history is derived from (issue 25 part 3): EAGLE-I's rows, and the live archive's rows
-- of its published (finished) days for every quarter hour EAGLE-I does not cover. EAGLE-I covers a quarter hour when
-- a file of its year is loaded and the quarter is at or before that year's last EAGLE-I time (a county absent there had
-- no one out, as EAGLE-I omits zeros): for periods both cover, EAGLE-I's figures are used. Archive rows join only a
-- history of their own kind (simulated with simulated, real with real; with no EAGLE-I loaded, any).
CREATE OR REPLACE VIEW eaglei_span AS
  SELECT year(run_start_time)::INTEGER AS year, min(run_start_time) AS first_at, max(run_start_time) AS last_at
    FROM eaglei_outages GROUP BY ALL;
CREATE OR REPLACE VIEW history_archive_quarters AS
  SELECT q.quarter_at, q.quarter_at::TIMESTAMP AS run_start_time, q.sources_total, q.sources_fresh, q.customers_tracked
    FROM archive_quarters q
   WHERE substr(q.quarter_at, 1, 10) IN (SELECT day FROM archive_files)
     AND q.simulated = coalesce(
           (SELECT bool_or(file LIKE 'SIMULATED\_%' ESCAPE '\') FROM import_log WHERE kind = 'eaglei'), q.simulated)
     AND NOT EXISTS (SELECT 1 FROM eaglei_span s
                      WHERE s.year = year(q.quarter_at::TIMESTAMP) AND q.quarter_at::TIMESTAMP <= s.last_at);
CREATE OR REPLACE VIEW history_series AS
  SELECT fips, run_start_time, customers_out, 'eaglei' AS origin FROM eaglei_outages
  UNION ALL
  SELECT c.fips, h.run_start_time, c.customers_out::INTEGER, 'archive' AS origin
    FROM archive_county c JOIN history_archive_quarters h USING (quarter_at);
