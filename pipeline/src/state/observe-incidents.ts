// This cycle's observations of single incidents (issue 41 part 1): each incident of at least the incident threshold,
// and each incident with an open outage, whether it is still in its feed or has left it.
import type { Incident } from '../sources/snapshot.ts';
import type { SourceDef } from '../sources/source-def.ts';
import { loadAtlas } from '../geo/counties.ts';
import type { Db } from './db.ts';
import { INCIDENT_EVENT_MIN, type Observation } from './lifecycle.ts';
import type { CycleContext } from './observe.ts';

/** The obs_incident columns an incident observation reads. */
type IncidentRow = Pick<Incident, 'id' | 'fips' | 'customers_out' | 'etr' | 'crew_status' | 'cause' | 'city'> & {
  source_id: string;
};

/** An incident outage's key: the source and the feed's incident id. */
export const incidentKey = (sourceId: string, id: string) => `${sourceId}|${id}`;

/** The incident observations of the cycle; `stale` holds the ids of the stale sources. */
export async function observeIncidents(db: Db, ctx: CycleContext, stale: ReadonlySet<string>): Promise<Observation[]> {
  const byId = new Map(ctx.sources.map((s) => [s.id, s]));
  const open = await db.all<{ key: string; fips: string | null; state: string | null; utility: string | null }>(
    "SELECT key, fips, state, utility FROM outages WHERE scope = 'incident' AND closed_at IS NULL",
  );
  const rows = await db.all<IncidentRow>(
    `SELECT source_id, id, fips, customers_out, etr, crew_status, cause, city FROM obs_incident
     WHERE customers_out >= ? OR (source_id || '|' || id) IN (SELECT key FROM outages WHERE scope = 'incident' AND closed_at IS NULL)`,
    [INCIDENT_EVENT_MIN],
  );
  const seen = new Set<string>();
  const out: Observation[] = [];
  for (const r of rows) {
    const src = byId.get(r.source_id);
    if (!src) continue;
    seen.add(incidentKey(r.source_id, r.id));
    out.push(present(r, src, ctx, stale));
  }
  // An open incident its (successfully polled) feed no longer lists has been restored.
  for (const o of open) {
    if (seen.has(o.key)) continue;
    const sourceId = o.key.slice(0, o.key.indexOf('|'));
    out.push({
      ...{ scope: 'incident', key: o.key, fips: o.fips, state: o.state, utility: o.utility, area: null },
      ...{ source_id: sourceId, customers_out: 0, customers: null, pct_out: null, etr: null },
      polled: ctx.polled.has(sourceId),
      stale: stale.has(sourceId),
      incident: { id: o.key.slice(sourceId.length + 1), cause: null, crew_status: null, gone: true },
    });
  }
  return out;
}

function present(r: IncidentRow, src: SourceDef, ctx: CycleContext, stale: ReadonlySet<string>): Observation {
  return {
    scope: 'incident',
    key: incidentKey(r.source_id, r.id),
    fips: r.fips,
    state: (r.fips ? loadAtlas().byFips.get(r.fips)?.state : undefined) ?? src.states[0] ?? null,
    utility: src.utility,
    area: r.city,
    source_id: r.source_id,
    customers_out: r.customers_out,
    customers: null,
    pct_out: null,
    etr: r.etr,
    polled: ctx.polled.has(r.source_id),
    stale: stale.has(r.source_id),
    incident: { id: r.id, cause: r.cause, crew_status: r.crew_status, gone: false },
  };
}
