// Writes a cycle's poll outcomes: the poll log, snapshot versions, and each changed source's current observations.
import { createHash } from 'node:crypto';
import type { SourceDef } from '../sources/source-def.ts';
import type { HeldSnapshot, Snapshot } from '../sources/snapshot.ts';
import { put, type Db } from './db.ts';
import { markLastSeen, recordSeen } from './incident-history.ts';

export interface PollOutcome {
  source: SourceDef;
  at: string;
  ms: number;
  ok: boolean;
  reason: string | null;
  message: string | null;
  /** the snapshot normalised by this poll (null when the poll failed or the upstream answered 304) */
  snapshot: Snapshot | null;
  /** what a successful poll leaves of the source's current snapshot (also after a 304) */
  held?: HeldSnapshot | null;
  hash: string | null;
  changed: boolean;
  requests: number;
  /** an HTTP refusal (429/403/503) with the upstream's Retry-After, for the scheduler's back-off */
  refusal?: { status?: number; retryAfter?: number | null } | null;
}

/** Records serialised per hash update: each text stays small enough to die young (V8 keeps texts over 128 KB old). */
const HASH_CHUNK = 200;

/**
 * Hash of a normalised snapshot: equal snapshots (same counts, areas, incidents) hash equal. Its lists are serialised
 * a chunk at a time: one text of a storm feed's 10,000 incidents is megabytes of garbage only a full GC frees.
 */
export function snapshotHash(s: Snapshot): string {
  const { counties, areas, incidents, ...rest } = s;
  const h = createHash('sha256').update(JSON.stringify(rest));
  for (const list of [counties, areas, incidents] as unknown[][]) {
    h.update(`|${list.length}|`);
    for (let i = 0; i < list.length; i += HASH_CHUNK) h.update(JSON.stringify(list.slice(i, i + HASH_CHUNK)));
  }
  return h.digest('hex').slice(0, 32);
}

/** Mirrors the registry into the `sources` table in one statement (row-by-row inserts each hold a 256 KB block). */
export async function syncSources(db: Db, sources: SourceDef[]): Promise<void> {
  await db.staging('sources_in', 'AS SELECT * FROM sources LIMIT 0');
  const a = await db.appender('sources_in');
  for (const s of sources) {
    put(a, s.id);
    put(a, s.utility);
    put(a, s.states.join(';'));
    put(a, s.connector);
    put(a, s.url);
    a.appendInteger(s.interval_min);
    a.appendInteger(s.tier);
    put(a, JSON.stringify(s.options));
    put(a, s.customers, 'int');
    put(a, true, 'bool');
    a.endRow();
  }
  a.closeSync();
  await db.transaction(async () => {
    await db.run('UPDATE sources SET active = false');
    await db.run('INSERT OR REPLACE INTO sources SELECT * FROM sources_in');
  });
}

export async function writeOutcomes(db: Db, outcomes: PollOutcome[]): Promise<void> {
  await db.staging(
    'polls_in',
    '(source_id VARCHAR, polled_at VARCHAR, ms INTEGER, ok BOOLEAN, reason VARCHAR, message VARCHAR, changed BOOLEAN, http_requests INTEGER)',
  );
  const polls = await db.appender('polls_in');
  for (const o of outcomes) {
    put(polls, o.source.id);
    put(polls, o.at);
    put(polls, o.ms, 'int');
    put(polls, o.ok, 'bool');
    put(polls, o.reason);
    put(polls, o.message);
    put(polls, o.changed, 'bool');
    put(polls, o.requests, 'int');
    polls.endRow();
  }
  polls.closeSync();
  await db.run(
    'INSERT INTO polls (source_id, polled_at, ms, ok, reason, message, changed, http_requests) SELECT * FROM polls_in',
  );

  const changed = outcomes.filter((o) => o.changed && o.snapshot);
  if (changed.length === 0) return;
  await db.staging('changed_ids', '(id VARCHAR, polled_at VARCHAR)');
  const idApp = await db.appender('changed_ids');
  for (const o of changed) {
    idApp.appendVarchar(o.source.id);
    idApp.appendVarchar(o.at);
    idApp.endRow();
  }
  idApp.closeSync();
  await markLastSeen(db);
  for (const t of OBS_TABLES) await db.staging(`new_${t.slice(4)}`, `AS SELECT * FROM ${t} LIMIT 0`);
  const counties = await db.appender('new_county');
  const areas = await db.appender('new_area');
  const incidents = await db.appender('new_incident');
  const versions = await db.appender('snapshot_versions');
  for (const o of changed) {
    const s = o.snapshot!;
    const id = o.source.id;
    for (const c of s.counties) {
      put(counties, id);
      put(counties, c.fips);
      put(counties, c.customers_out, 'int');
      put(counties, c.customers_served, 'int');
      put(counties, c.planned_out ?? null, 'int');
      counties.endRow();
    }
    for (const a of s.areas) {
      put(areas, id);
      put(areas, a.fips);
      put(areas, a.name);
      put(areas, JSON.stringify(a.path));
      put(areas, a.customers_out, 'int');
      put(areas, a.out_display);
      put(areas, a.out_lower, 'int');
      put(areas, a.out_upper, 'int');
      put(areas, a.masked, 'bool');
      put(areas, a.customers_served, 'int');
      put(areas, a.etr);
      put(areas, a.bbox ? JSON.stringify(a.bbox) : null);
      areas.endRow();
    }
    for (const i of s.incidents) {
      put(incidents, id);
      put(incidents, i.id);
      put(incidents, i.fips);
      put(incidents, i.customers_out, 'int');
      put(incidents, i.etr);
      put(incidents, i.crew_status);
      put(incidents, i.cause);
      put(incidents, i.started_at);
      put(incidents, i.lat, 'real');
      put(incidents, i.lon, 'real');
      put(incidents, i.city);
      put(incidents, i.planned, 'bool');
      incidents.endRow();
    }
    put(versions, id);
    put(versions, o.hash);
    put(versions, o.at);
    versions.endRow();
  }
  for (const a of [counties, areas, incidents, versions]) a.closeSync();
  await keepVanished(db);
  for (const t of OBS_TABLES) await applyDifference(db, t);
  await recordSeen(db);
}

/** The current observations, and each one's columns (schema.sql): a row is replaced only when one of them changed. */
const OBS_COLUMNS = {
  obs_county: ['source_id', 'fips', 'customers_out', 'customers_served', 'planned_out'],
  obs_area: [
    ...['source_id', 'fips', 'name', 'path', 'customers_out', 'out_display', 'out_lower', 'out_upper', 'masked'],
    ...['customers_served', 'etr', 'bbox'],
  ],
  obs_incident: [
    ...['source_id', 'id', 'fips', 'customers_out', 'etr', 'crew_status', 'cause', 'started_at', 'lat', 'lon'],
    ...['city', 'planned'],
  ],
} as const;
const OBS_TABLES = Object.keys(OBS_COLUMNS) as Array<keyof typeof OBS_COLUMNS>;

/**
 * A complete, successful poll is the source's whole picture: a county or area it listed before and lists no more
 * counts as 0 from that source (its open outage can close, a new one can open). A failed poll never reaches here, and
 * connectors fail rather than return part of a feed, so a vanished name always means "nothing out there now".
 */
async function keepVanished(db: Db): Promise<void> {
  await db.run(`INSERT INTO new_county SELECT o.source_id, o.fips, 0, o.customers_served, CASE WHEN o.planned_out IS NULL THEN NULL ELSE 0 END FROM obs_county o
    WHERE o.source_id IN (SELECT id FROM changed_ids)
      AND NOT EXISTS (SELECT 1 FROM new_county n WHERE n.source_id = o.source_id AND n.fips = o.fips)`);
  await db.run(`INSERT INTO new_area SELECT o.source_id, o.fips, o.name, o.path, 0, '0', 0, 0, false, o.customers_served, NULL, o.bbox
    FROM obs_area o WHERE o.source_id IN (SELECT id FROM changed_ids)
      AND NOT EXISTS (SELECT 1 FROM new_area n WHERE n.source_id = o.source_id AND n.path = o.path)`);
}

/**
 * Replaces a changed source's observations by difference (issue "Performance, next step", part 2): rows that no longer
 * appear as they were are deleted, rows that are new or changed are inserted, and the rest stay untouched, so a storm
 * cycle's transaction holds what changed rather than every observation of every changed source.
 */
async function applyDifference(db: Db, table: keyof typeof OBS_COLUMNS): Promise<void> {
  const staged = `new_${table.slice(4)}`;
  const same = OBS_COLUMNS[table].map((c) => `n.${c} IS NOT DISTINCT FROM o.${c}`).join(' AND ');
  await db.run(`DELETE FROM ${table} o WHERE o.source_id IN (SELECT id FROM changed_ids)
    AND NOT EXISTS (SELECT 1 FROM ${staged} n WHERE ${same})`);
  await db.run(
    `INSERT INTO ${table} SELECT * FROM ${staged} n WHERE NOT EXISTS (SELECT 1 FROM ${table} o WHERE ${same})`,
  );
  await db.run(`DROP TABLE ${staged}`);
}
