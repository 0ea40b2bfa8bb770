// Finished incidents leave the live database (issue 41 part 4): when a UTC day is archived, every incident that has
// left its feed and was last seen on or before that day is written to the day's incident files (Parquet and CSV, one
// row per incident: first and last seen, peak, every ETR given) and, once those are published, deleted from
// incident_history — so the state database holds the incidents still listed and the few that left since the last day
// was written, never every incident ever seen. Nearly always an incident is in the file of the day it was last seen; one
// whose feed still listed it when that day was written (a stale feed) goes into the first day written after it left.
// Listed incidents never move: the county incidents answer reads only them. The ETR record reads both (etr-record.ts).
// The file's columns are documented with its catalogue entry (`archive.incidents`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Db } from './db.ts';
import { nextDay } from './archive-read.ts';

/** Incidents staged for day files and not yet forgotten (one publish may archive several days). */
const STAGED = 'archived_incident';

/**
 * Stages the incidents of `day`'s file — left their feed, last seen before `day` ends, not staged for an earlier day
 * of this publish — and returns their rows as CSV and Parquet bytes.
 */
export async function incidentDayFiles(db: Db, day: string): Promise<{ csv: Buffer; parquet: Buffer; rows: number }> {
  await db.run(
    `CREATE TEMP TABLE IF NOT EXISTS ${STAGED} (day VARCHAR, source_id VARCHAR, id VARCHAR, first_seen_at VARCHAR,
       last_seen_at VARCHAR, peak BIGINT, etrs STRUCT(etr VARCHAR, seen_at VARCHAR)[])`,
  );
  await db.run(
    `INSERT INTO ${STAGED} SELECT ?, source_id, id, first_seen_at, last_seen_at, peak, etrs FROM incident_seen s
      WHERE NOT listed AND last_seen_at < ?
        AND NOT EXISTS (SELECT 1 FROM ${STAGED} a WHERE a.source_id = s.source_id AND a.id = s.id)`,
    [day, nextDay(day)],
  );
  const rows = `SELECT source_id, id AS incident_id, first_seen_at, last_seen_at, peak, len(etrs) AS etr_count, etrs
                  FROM ${STAGED} WHERE day = '${day.replace(/[^0-9-]/g, '')}' ORDER BY source_id, id`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outage-incident-day-'));
  try {
    const [csv, parquet] = [path.join(dir, 'd.csv'), path.join(dir, 'd.parquet')];
    await db.run(
      `COPY (SELECT * REPLACE (to_json(etrs)::VARCHAR AS etrs) FROM (${rows})) TO '${csv}' (FORMAT csv, HEADER true)`,
    );
    await db.run(`COPY (${rows}) TO '${parquet}' (FORMAT parquet, COMPRESSION zstd)`);
    const [{ n }] = await db.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM (${rows})`);
    return { csv: fs.readFileSync(csv), parquet: fs.readFileSync(parquet), rows: n };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** After the day files are published: the staged incidents leave incident_history. Returns how many. */
export async function forgetArchivedIncidents(db: Db): Promise<number> {
  const [{ staged }] = await db.all<{ staged: number }>(
    `SELECT count(*)::INTEGER AS staged FROM duckdb_tables() WHERE table_name = '${STAGED}' AND temporary`,
  );
  if (!staged) return 0;
  const [{ n }] = await db.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${STAGED}`);
  await db.run(`DELETE FROM incident_history h USING ${STAGED} a WHERE h.source_id = a.source_id AND h.id = a.id`);
  await db.run(`DROP TABLE ${STAGED}`);
  return n;
}

/** The archived incidents as etr-record.ts reads them, from the day files' Parquet `paths` (none: no rows). */
export function archivedIncidentsSql(paths: readonly string[]): string | null {
  if (paths.length === 0) return null;
  const list = paths.map((p) => `'${p.replace(/'/g, "''")}'`).join(', ');
  return `SELECT source_id, incident_id AS id, first_seen_at, last_seen_at, etrs, false AS listed FROM read_parquet([${list}])`;
}
