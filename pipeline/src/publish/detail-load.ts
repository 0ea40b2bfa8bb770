// Reads the current observations behind the county detail documents: areas and incidents per county, as records.
import { createHash } from 'node:crypto';
import type { Db } from '../state/db.ts';
import type { SourceDef } from '../sources/source-def.ts';
import type { Incident } from '../sources/snapshot.ts';
import { pctOut } from '../state/rules.ts';
import type { AreaRecord, IncidentRecord } from '../contract/county-detail.ts';

const listOf = (fips: string[]) => `[${fips.join(',')}]`;

type AreaRow = {
  source_id: string;
  fips: string | null;
  name: string;
  path: string;
  customers_out: number;
  out_display: string;
  out_lower: number;
  out_upper: number | null;
  masked: boolean;
  customers_served: number | null;
  etr: string | null;
  bbox: string | null;
};

function areaRecord(a: AreaRow & { fips: string }, src: SourceDef): AreaRecord {
  return {
    area_id: createHash('sha256').update(`${a.source_id}|${a.path}`).digest('hex').slice(0, 12),
    name: a.name,
    path: JSON.parse(a.path),
    utility: src.utility,
    source_id: a.source_id,
    fips: a.fips,
    customers_out: a.customers_out,
    out_display: a.out_display,
    out_lower: a.out_lower,
    out_upper: a.out_upper,
    masked: a.masked,
    customers_served: a.customers_served,
    pct_out: a.masked ? null : pctOut(a.customers_out, a.customers_served),
    etr: a.etr,
    active: a.customers_out > 0,
    bbox: a.bbox ? JSON.parse(a.bbox) : null,
  };
}

/** The areas the feeds list in these counties, per county. */
export async function loadAreas(db: Db, sources: SourceDef[], fips: string[]): Promise<Map<string, AreaRecord[]>> {
  const byId = new Map(sources.map((s) => [s.id, s]));
  const out = new Map<string, AreaRecord[]>();
  if (fips.length === 0) return out;
  for (const a of await db.allJson<AreaRow>(
    `SELECT to_json(a)::VARCHAR FROM obs_area a JOIN (SELECT unnest(?::VARCHAR[]) AS fips) o USING (fips) ORDER BY a.fips, a.source_id, a.path`,
    [listOf(fips)],
  )) {
    const src = byId.get(a.source_id);
    if (src && a.fips)
      (out.get(a.fips) ?? out.set(a.fips, []).get(a.fips)!).push(areaRecord({ ...a, fips: a.fips }, src));
  }
  return out;
}

interface IncidentHistory {
  first_seen_at: string | null;
  etr_history: Array<{ etr: string; seen_at: string }> | null;
}

/** The incidents the feeds list in these counties, per county. */
export async function loadIncidents(
  db: Db,
  sources: SourceDef[],
  fips: string[],
): Promise<Map<string, IncidentRecord[]>> {
  const byId = new Map(sources.map((s) => [s.id, s]));
  const out = new Map<string, IncidentRecord[]>();
  if (fips.length === 0) return out;
  // With each incident's history (issue 25 part 5): first seen, and every ETR it was given with when.
  for (const i of await db.allJson<Incident & { source_id: string } & IncidentHistory>(
    `SELECT to_json(i)::VARCHAR FROM (
       SELECT i.*, h.first_seen_at, coalesce(h.etrs, []) AS etr_history
         FROM obs_incident i JOIN (SELECT unnest(?::VARCHAR[]) AS fips) o USING (fips)
         LEFT JOIN incident_history h ON h.source_id = i.source_id AND h.id = i.id) i
      ORDER BY i.fips, i.source_id, i.id`,
    [listOf(fips)],
  )) {
    const src = byId.get(i.source_id);
    if (!src || !i.fips) continue;
    (out.get(i.fips) ?? out.set(i.fips, []).get(i.fips)!).push({
      incident_id: i.id,
      utility: src.utility,
      source_id: i.source_id,
      fips: i.fips,
      customers_out: i.customers_out,
      etr: i.etr,
      crew_status: i.crew_status,
      cause: i.cause,
      started_at: i.started_at,
      lat: i.lat,
      lon: i.lon,
      city: i.city,
      planned: i.planned ?? false,
      first_seen_at: i.first_seen_at ?? null,
      etr_changes: Math.max(0, (i.etr_history?.length ?? 0) - 1),
      etr_history: i.etr_history ?? [],
    });
  }
  return out;
}
