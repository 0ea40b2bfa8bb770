// How far to trust a utility's restoration estimates (issue 41 part 3): per source and UTC month (of an incident's
// first sighting), from the per-outage history (incident_seen: each incident's first and last sighting and every ETR it
// was given). Definitions (also in the report rules, README and OpenAPI):
//  - incidents: every incident the feed listed, first seen that month; with_etr: those given an ETR at least once;
//    etr_coverage_pct = with_etr ÷ incidents × 100 (what the figures below stand on);
//  - etr_finished: incidents with an ETR that have left their feed (an incident still listed has no outcome yet);
//  - restored_by_first_etr_pct: of etr_finished, the share last seen at or before the first ETR given;
//  - slip = last ETR given − first ETR given, minutes (later is positive); etr_slip_median_min and etr_slip_p90_min
//    are its median and 90th percentile over etr_finished (linear interpolation, DuckDB quantile_cont);
//  - moved_more_than_twice_pct: of etr_finished, the share whose ETR changed (to any other value) more than twice
//    after the first one given.
// Null where the denominator is zero: unknown is never zero.
import type { Db } from './db.ts';
import { archivedIncidentsSql } from './incident-archive.ts';

export interface EtrRecordRow {
  source_id: string;
  utility: string | null;
  year: number;
  month: number;
  incidents: number;
  with_etr: number;
  etr_coverage_pct: number | null;
  etr_finished: number;
  restored_by_first_etr_pct: number | null;
  etr_slip_median_min: number | null;
  etr_slip_p90_min: number | null;
  moved_more_than_twice_pct: number | null;
}

/** The live incidents the record reads: one row each (source_id, id, first_seen_at, last_seen_at, etrs, listed). */
export const ETR_INCIDENTS = 'SELECT source_id, id, first_seen_at, last_seen_at, etrs, listed FROM incident_seen';

/** Each incident's figures (live, and archived in `from`): month, whether it had an ETR, outcome, slip and moves. */
const perIncident = (from: string) => `
  SELECT source_id, first_seen_at[1:7] AS ym, len(etrs) > 0 AS has_etr, NOT listed AND len(etrs) > 0 AS finished,
         CAST(last_seen_at AS TIMESTAMPTZ) <= CAST(etrs[1].etr AS TIMESTAMPTZ) AS by_first,
         CASE WHEN len(etrs) > 0 THEN date_diff('second', CAST(etrs[1].etr AS TIMESTAMPTZ), CAST(etrs[-1].etr AS TIMESTAMPTZ)) / 60.0 END AS slip_min,
         len(etrs) - 1 AS moves
    FROM (${from})`;

const pct = (n: string, d: string) => `CASE WHEN ${d} > 0 THEN round(100.0 * ${n} / ${d}, 1) END`;

/**
 * The record, by source and month (oldest first), of the live incidents and those archived in the incident day files'
 * Parquet `archived` (incident-archive.ts); `sourceId` narrows it to one source.
 */
export async function etrRecord(db: Db, archived: readonly string[] = [], sourceId?: string): Promise<EtrRecordRow[]> {
  const old = archivedIncidentsSql(archived);
  const from = old ? `${ETR_INCIDENTS} UNION ALL ${old}` : ETR_INCIDENTS;
  const fin = 'count(*) FILTER (WHERE finished)';
  return db.all<EtrRecordRow>(
    `SELECT i.source_id, s.utility, CAST(ym[1:4] AS INTEGER) AS year, CAST(ym[6:7] AS INTEGER) AS month,
            count(*)::INTEGER AS incidents, count(*) FILTER (WHERE has_etr)::INTEGER AS with_etr,
            ${pct('count(*) FILTER (WHERE has_etr)', 'count(*)')} AS etr_coverage_pct,
            ${fin}::INTEGER AS etr_finished,
            ${pct('count(*) FILTER (WHERE finished AND by_first)', fin)} AS restored_by_first_etr_pct,
            round(quantile_cont(slip_min, 0.5) FILTER (WHERE finished), 1) AS etr_slip_median_min,
            round(quantile_cont(slip_min, 0.9) FILTER (WHERE finished), 1) AS etr_slip_p90_min,
            ${pct('count(*) FILTER (WHERE finished AND moves > 2)', fin)} AS moved_more_than_twice_pct
       FROM (${perIncident(from)}) i LEFT JOIN sources s ON s.id = i.source_id
      WHERE ? IS NULL OR i.source_id = ?
      GROUP BY ALL ORDER BY year, month, i.source_id`,
    [sourceId ?? null, sourceId ?? null],
  );
}
