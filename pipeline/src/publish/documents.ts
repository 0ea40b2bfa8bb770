// The live documents: the `data` member of each live endpoint, built from the rollups and source statuses.
import type { SourceDef } from '../sources/source-def.ts';
import type { CountyLive, LiveState, MapEntry } from '../state/rollup.ts';
import type { SourceStatus } from '../state/status.ts';
import type { SourceHealth } from '../state/health.ts';
import { odinFlagged } from '../state/reconcile.ts';
import { transportOf } from '../sources/transport.ts';
import { freshness, publishedInterval, staleAfterFor, staleAt, utilityPct } from '../sources/scheduler.ts';
import { band, pctOut } from '../state/rules.ts';
import { stateByFips } from '../geo/states.ts';
import { TIMELINE_DEFAULT_HOURS } from '../contract/catalogue.ts';

export type { MapEntry };

export function mapDoc(live: LiveState): Record<string, MapEntry> {
  const out: Record<string, MapEntry> = {};
  for (const c of live.counties)
    if (c.customers_out > 0) out[c.fips] = [c.customers_out, c.pct_out, c.level, c.band, c.magnitude];
  for (const s of live.states) out[s.state] = [s.customers_out, s.pct_out, s.level, s.band, s.magnitude];
  return out;
}

/** `reportsBuilding`: the report tables are being built in this process now (`outage start` importing history). */
export function summaryDoc(live: LiveState, simulated: boolean, reportsBuilding = false) {
  const n = live.national;
  return {
    simulated,
    reports_building: reportsBuilding,
    national: { ...n, band: band(n.pct_out) },
    states: live.states.map((s) => ({ ...s })),
  };
}

export function topDoc(live: LiveState, sources: SourceDef[], statuses: Map<string, SourceStatus>, limit = 10) {
  const states = [...live.states]
    .filter((s) => s.customers_out > 0)
    .sort((a, b) => b.customers_out - a.customers_out || a.state.localeCompare(b.state))
    .slice(0, limit)
    .map((s) => ({ state: s.state, name: s.name, customers_out: s.customers_out, pct_out: s.pct_out, band: s.band }));
  const counties = live.counties
    .filter((c) => c.customers_out > 0)
    .sort((a, b) => b.customers_out - a.customers_out || a.fips.localeCompare(b.fips))
    .slice(0, limit)
    .map((c) => ({
      fips: c.fips,
      name: c.name,
      state: c.state,
      customers_out: c.customers_out,
      pct_out: c.pct_out,
      band: c.band,
    }));
  const byUtility = new Map<
    string,
    { utility: string; customers_out: number; customers_served: number | null; states: Set<string>; sources: string[] }
  >();
  for (const s of sources) {
    const st = statuses.get(s.id);
    if (!st || st.customers_out === null) continue;
    const u = byUtility.get(s.utility) ?? {
      utility: s.utility,
      customers_out: 0,
      customers_served: null,
      states: new Set<string>(),
      sources: [],
    };
    u.customers_out += st.customers_out;
    const served = st.customers_served ?? s.customers;
    if (served !== null) u.customers_served = (u.customers_served ?? 0) + served;
    for (const x of s.states) u.states.add(x);
    u.sources.push(s.id);
    byUtility.set(s.utility, u);
  }
  const providers = [...byUtility.values()]
    .filter((u) => u.customers_out > 0)
    .sort((a, b) => b.customers_out - a.customers_out || a.utility.localeCompare(b.utility))
    .slice(0, limit)
    .map((u) => ({
      utility: u.utility,
      customers_out: u.customers_out,
      customers_served: u.customers_served,
      pct_out: pctOut(u.customers_out, u.customers_served),
      states: [...u.states].sort(),
      sources: u.sources.sort(),
    }));
  return { states, counties, providers };
}

export interface FrameRow {
  at: string;
  state: string;
  customers_out: number;
  pct_out: number | null;
  band: number;
}

export function timelineDoc(rows: FrameRow[], hours = TIMELINE_DEFAULT_HOURS) {
  const frames = new Map<string, Record<string, [number, number | null, number]>>();
  for (const r of rows) {
    const f = frames.get(r.at) ?? {};
    f[r.state] = [r.customers_out, r.pct_out, r.band];
    frames.set(r.at, f);
  }
  return {
    hours,
    interval_min: 15,
    entry: ['customers_out', 'pct_out', 'band'],
    frames: [...frames.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([at, states]) => ({ at, states })),
  };
}

export function sourcesDoc(
  sources: SourceDef[],
  statuses: Map<string, SourceStatus>,
  totalCustomers: number,
  now: Date,
  health: Map<string, SourceHealth> = new Map(),
  late: ReadonlyMap<string, string> = new Map(),
) {
  const list = sources.map((s) => {
    const st = statuses.get(s.id);
    return {
      id: s.id,
      utility: s.utility,
      states: s.states,
      connector: s.connector,
      transport: transportOf(s.url),
      evidence: s.evidence ?? null,
      tier: s.tier,
      interval_min: publishedInterval(s, st),
      base_interval_min: s.interval_min,
      hardened: st?.hardened ?? false,
      next_due_at: st?.next_due_at ?? now.toISOString(),
      updated_at: st?.last_attempt_at ?? null,
      last_success_at: st?.last_success_at ?? null,
      freshness: freshness(s, st, now),
      stale_after_min: staleAfterFor(s, st),
      stale_after: staleAt(s, st),
      last_error: st?.last_reason ? { reason: st.last_reason, message: st.last_error ?? '' } : null,
      consecutive_failures: st?.consecutive_failures ?? 0,
      late_since: late.get(s.id) ?? null,
      coverage: st?.basis ?? null,
      unit: st?.unit ?? null,
      notice: st?.notice ?? null,
      customers_out: st?.customers_out ?? null,
      planned_out: st?.planned_out ?? null,
      customers_served: st?.customers_served ?? s.customers ?? null,
      pct_out: utilityPct(s, st),
      unmatched_names: st?.unmatched ?? 0,
      unreadable_records: st?.unreadable ?? 0,
      health: health.get(s.id) ?? null,
      odin_delta_pct: st?.odin_delta_pct ?? null,
      odin_flagged: odinFlagged(st),
    };
  });
  const classes = {
    county: { customers: 0, utilities: 0 },
    utility_total: { customers: 0, utilities: 0 },
    outage_only: { customers: 0, utilities: 0 },
  };
  const seen = new Set<string>();
  for (const s of list) {
    const cls = s.coverage as keyof typeof classes | null;
    if (!cls || !(cls in classes)) continue;
    classes[cls].customers += s.customers_served ?? 0;
    if (!seen.has(`${cls}|${s.utility}`)) classes[cls].utilities += 1;
    seen.add(`${cls}|${s.utility}`);
  }
  const covered = classes.county.customers + classes.utility_total.customers + classes.outage_only.customers;
  // Feeds can publish more served customers than the model counts (or overlap): never a share above 100 %.
  const base = Math.max(totalCustomers, covered);
  const share = (n: number) => (base > 0 ? Math.round((n / base) * 10_000) / 100 : null);
  return {
    sources: list,
    connector_coverage: {
      total_customers: totalCustomers,
      method:
        'Customers of each polled utility (from its feed, else the registry) by how the feed sees it; no_feed is the modelled US total minus the rest.',
      county: { ...classes.county, pct: share(classes.county.customers) },
      utility_total: { ...classes.utility_total, pct: share(classes.utility_total.customers) },
      outage_only: { ...classes.outage_only, pct: share(classes.outage_only.customers) },
      no_feed: {
        customers: Math.max(0, totalCustomers - covered),
        utilities: null,
        pct: share(Math.max(0, totalCustomers - covered)),
      },
    },
  };
}

export const METERS_NOTICE = 'Includes counts in meters (service points) from ODIN, not customers.';

export function countyDoc(c: CountyLive, simulated: boolean) {
  const notices = [
    simulated ? 'SIMULATED DATA from the built-in storm simulator, not real outages.' : null,
    c.meters ? METERS_NOTICE : null,
  ].filter(Boolean);
  return {
    fips: c.fips,
    name: c.name,
    state: c.state,
    state_name: stateByFips(c.fips.slice(0, 2))?.name ?? null,
    customers_out: c.customers_out,
    pct_out: c.pct_out,
    band: c.band,
    magnitude: c.magnitude,
    level: c.level,
    denominator: c.denominator,
    customers_tracked: c.customers_tracked,
    planned_out: c.planned_out,
    customers_served_feed: c.customers_served_feed,
    customers_modelled: c.customers_modelled,
    stale: c.stale,
    includes_meters: c.meters,
    notice: notices.length ? notices.join(' ') : null,
    sources: c.sources.map((s) => ({
      source_id: s.source_id,
      utility: s.utility,
      customers_out: s.customers_out,
      customers_served: s.customers_served,
      planned_out: s.planned_out,
      stale: s.stale,
      unit: s.unit,
    })),
  };
}

export const COUNTY_CSV_COLUMNS = [
  'fips',
  'name',
  'state',
  'customers_out',
  'pct_out',
  'band',
  'magnitude',
  'level',
  'denominator',
  'customers_served_feed',
  'customers_modelled',
  'stale',
  'sources',
  'generated_at',
] as const;

export function countyCsvRow(c: CountyLive, generatedAt: string): Array<string | number | null | boolean> {
  return [
    c.fips,
    c.name,
    c.state,
    c.customers_out,
    c.pct_out,
    c.band,
    c.magnitude,
    c.level,
    c.denominator,
    c.customers_served_feed,
    c.customers_modelled,
    c.stale,
    c.sources.map((s) => s.source_id).join(';'),
    generatedAt,
  ];
}
