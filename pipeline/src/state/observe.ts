// This cycle's observations of every scope the lifecycle tracks: counties, municipalities/townships, utilities.
import type { SourceDef } from '../sources/source-def.ts';
import type { Db } from './db.ts';
import type { LiveState } from './rollup.ts';
import { pctOut } from './rules.ts';
import type { Observation } from './lifecycle.ts';
import type { SourceStatus } from './status.ts';
import { freshness } from '../sources/scheduler.ts';
import { loadAtlas } from '../geo/counties.ts';
import { observeIncidents } from './observe-incidents.ts';

const countyState = (fips: string | null): string | undefined =>
  fips ? loadAtlas().byFips.get(fips)?.state : undefined;

/** Each utility's states with customers out, most out first, as events store them (`VA;NC`). */
function utilityStates(live: LiveState): Map<string, string> {
  const byUtility = new Map<string, Map<string, number>>();
  for (const c of live.counties) {
    for (const x of c.sources) {
      if (x.customers_out <= 0) continue;
      const m = byUtility.get(x.utility) ?? byUtility.set(x.utility, new Map()).get(x.utility)!;
      m.set(c.state, (m.get(c.state) ?? 0) + x.customers_out);
    }
  }
  return new Map(
    [...byUtility].map(([u, m]) => [
      u,
      [...m]
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .map(([st]) => st)
        .join(';'),
    ]),
  );
}

/** The lowest opening threshold of a municipality (see lifecycle.openingThreshold). */
const MIN_MUNICIPAL_THRESHOLD = 20;

export interface CycleContext {
  sources: SourceDef[];
  statuses: Map<string, SourceStatus>;
  /** sources fetched successfully in this cycle */
  polled: Set<string>;
  now: Date;
}

const maxIso = (a: string | null, b: string | null): string | null => (!a ? b : !b ? a : a > b ? a : b);

export async function observe(db: Db, live: LiveState, ctx: CycleContext): Promise<Observation[]> {
  const byId = new Map(ctx.sources.map((s) => [s.id, s]));
  const stale = new Set(
    ctx.sources.filter((s) => freshness(s, ctx.statuses.get(s.id), ctx.now) === 'stale').map((s) => s.id),
  );
  const out: Observation[] = [];

  // ETRs: the latest ETR among a county's (and a utility's) areas and incidents.
  const etrRows = await db.all<{ source_id: string; fips: string | null; etr: string }>(
    `SELECT source_id, fips, max(etr) AS etr FROM (SELECT source_id, fips, etr FROM obs_area WHERE etr IS NOT NULL AND customers_out > 0
       UNION ALL SELECT source_id, fips, etr FROM obs_incident WHERE etr IS NOT NULL AND customers_out > 0) GROUP BY source_id, fips`,
  );
  const countyEtr = new Map<string, string | null>();
  const utilityEtr = new Map<string, string | null>();
  for (const r of etrRows) {
    if (r.fips) countyEtr.set(r.fips, maxIso(countyEtr.get(r.fips) ?? null, r.etr));
    const u = byId.get(r.source_id)?.utility;
    if (u) utilityEtr.set(u, maxIso(utilityEtr.get(u) ?? null, r.etr));
  }

  for (const c of live.counties) {
    if (c.sources.length === 0) continue;
    out.push({
      scope: 'county',
      key: c.fips,
      fips: c.fips,
      state: c.state,
      utility: null,
      area: null,
      source_id: null,
      customers_out: c.customers_out,
      customers: c.denominator,
      pct_out: c.pct_out,
      etr: countyEtr.get(c.fips) ?? null,
      polled: c.sources.some((s) => ctx.polled.has(s.source_id)),
      stale: c.sources.some((s) => stale.has(s.source_id)),
    });
  }

  // Only areas that can open an outage (the lowest municipality threshold is 20) or that have one open: a national
  // tree holds tens of thousands of quiet areas that can produce no event.
  const areas = await db.all<{
    source_id: string;
    fips: string | null;
    name: string;
    path: string;
    customers_out: number;
    customers_served: number | null;
    etr: string | null;
  }>(
    `SELECT a.source_id, a.fips, a.name, a.path, a.customers_out, a.customers_served, a.etr FROM obs_area a
     WHERE a.customers_out >= ${MIN_MUNICIPAL_THRESHOLD}
        OR (a.source_id || '|' || a.path) IN (SELECT key FROM outages WHERE scope = 'municipality' AND closed_at IS NULL)`,
  );
  const seenAreas = new Set<string>();
  for (const a of areas) {
    const src = byId.get(a.source_id);
    if (!src) continue;
    seenAreas.add(`${a.source_id}|${a.path}`);
    out.push({
      scope: 'municipality',
      key: `${a.source_id}|${a.path}`,
      fips: a.fips,
      state: countyState(a.fips) ?? src.states[0],
      utility: src.utility,
      area: a.name,
      source_id: a.source_id,
      customers_out: a.customers_out,
      customers: a.customers_served,
      pct_out: pctOut(a.customers_out, a.customers_served),
      etr: a.etr,
      polled: ctx.polled.has(a.source_id),
      stale: stale.has(a.source_id),
    });
  }

  // An open municipality outage whose area no longer appears in its (successfully polled) feed reads as 0 out.
  const vanished = await db.all<{
    key: string;
    fips: string | null;
    area: string | null;
    utility: string | null;
    state: string | null;
  }>("SELECT key, fips, area, utility, state FROM outages WHERE scope = 'municipality' AND closed_at IS NULL");
  for (const v of vanished) {
    if (seenAreas.has(v.key)) continue;
    const sourceId = v.key.split('|')[0];
    out.push({
      scope: 'municipality',
      key: v.key,
      fips: v.fips,
      state: v.state,
      utility: v.utility,
      area: v.area,
      source_id: sourceId,
      customers_out: 0,
      customers: null,
      pct_out: null,
      etr: null,
      polled: ctx.polled.has(sourceId),
      stale: stale.has(sourceId),
    });
  }

  out.push(...(await observeIncidents(db, ctx, stale)));

  const outStates = utilityStates(live);
  const utilities = new Map<string, { sources: SourceDef[] }>();
  for (const s of ctx.sources)
    (utilities.get(s.utility) ?? utilities.set(s.utility, { sources: [] }).get(s.utility)!).sources.push(s);
  for (const [name, { sources }] of utilities) {
    const st = sources
      .map((s) => ctx.statuses.get(s.id))
      .filter((x): x is SourceStatus => !!x && x.customers_out !== null);
    if (st.length === 0) continue;
    const outN = st.reduce((a, x) => a + (x.customers_out ?? 0), 0);
    const customers = sources.reduce<number | null>((a, s) => {
      const v = ctx.statuses.get(s.id)?.customers_served ?? s.customers;
      return v === null || v === undefined ? a : (a ?? 0) + v;
    }, null);
    out.push({
      scope: 'utility',
      key: name,
      fips: null,
      state: outStates.get(name) ?? [...new Set(sources.flatMap((s) => s.states))].join(';'),
      utility: name,
      area: null,
      source_id: sources.length === 1 ? sources[0].id : null,
      customers_out: outN,
      customers,
      pct_out: pctOut(outN, customers),
      etr: utilityEtr.get(name) ?? null,
      polled: sources.some((s) => ctx.polled.has(s.id)),
      stale: sources.some((s) => stale.has(s.id)),
    });
  }
  return out;
}
