// Live rollups: every county and state from the sources' current observations, with the rules applied.
// Several sources covering one county add up (customers out and published served counts are summed).
import type { SourceDef } from '../sources/source-def.ts';
import { loadAtlas } from '../geo/counties.ts';
import { STATES } from '../geo/states.ts';
import { band, denominator, level, magnitude, pctOut, TIMELINE_FRAME_MIN } from './rules.ts';

const FRAME_MS = TIMELINE_FRAME_MIN * 60_000;
import type { Db } from './db.ts';
import type { SourceStatus } from './status.ts';
import { freshness } from '../sources/scheduler.ts';
import { countyTracked, sumTracked, trackedByCounty } from './tracked.ts';

export interface CountySourceShare {
  source_id: string;
  utility: string;
  customers_out: number;
  customers_served: number | null;
  /** of customers_out, those out for planned work; null where the source does not say per county */
  planned_out: number | null;
  stale: boolean;
  unit: string;
}

export interface CountyLive {
  fips: string;
  name: string;
  state: string;
  customers_out: number;
  customers_served_feed: number | null;
  customers_modelled: number | null;
  denominator: number | null;
  /** customers served by the sources fresh here now (state/tracked.ts); null where no fresh source serves the county */
  customers_tracked: number | null;
  /** of customers_out, those out for planned work; null unless every source with customers out here says */
  planned_out: number | null;
  pct_out: number | null;
  band: number;
  magnitude: number;
  level: number;
  sources: CountySourceShare[];
  stale: boolean;
  meters: boolean;
  updated_at: string | null;
}

export interface StateLive {
  state: string;
  fips: string;
  name: string;
  customers_out: number;
  /** the sum of its counties' customers_tracked; null where no fresh source serves any of them */
  customers_tracked: number | null;
  /** the share of the state's customers (the sum of its counties' denominators), as a county's pct_out */
  pct_out: number | null;
  band: number;
  magnitude: number;
  level: number;
  counties_out: number;
}

/** A county's or state's map entry: [customers_out, pct_out, level, band, magnitude] (/live/map and the archive). */
export type MapEntry = [number, number | null, number, number, number];

export interface LiveState {
  counties: CountyLive[];
  states: StateLive[];
  national: {
    customers_out: number;
    customers_tracked: number | null;
    pct_out: number | null;
    counties_out: number;
    states_out: number;
  };
}

interface ObsRow {
  source_id: string;
  fips: string;
  customers_out: number;
  customers_served: number | null;
  planned_out: number | null;
}

export async function computeLive(
  db: Db,
  sources: SourceDef[],
  statuses: Map<string, SourceStatus>,
  model: Map<string, number>,
  now: Date,
): Promise<LiveState> {
  const atlas = loadAtlas();
  const byId = new Map(sources.map((s) => [s.id, s]));
  const rows = await db.all<ObsRow>(
    'SELECT source_id, fips, customers_out, customers_served, planned_out FROM obs_county ORDER BY fips, source_id',
  );
  const shares = new Map<string, CountySourceShare[]>();
  for (const r of rows) {
    const src = byId.get(r.source_id);
    if (!src) continue; // a source removed from the registry no longer counts
    const st = statuses.get(r.source_id);
    const list = shares.get(r.fips) ?? [];
    list.push({
      source_id: r.source_id,
      utility: src.utility,
      customers_out: r.customers_out,
      customers_served: r.customers_served,
      planned_out: r.planned_out ?? null,
      stale: freshness(src, st, now) === 'stale',
      unit: st?.unit ?? 'customers',
    });
    shares.set(r.fips, list);
  }
  const tracked = trackedByCounty(sources, statuses, rows, model, now);
  const base = atlas.counties.map((c) => {
    const list = shares.get(c.fips) ?? [];
    const out = list.reduce((s, x) => s + x.customers_out, 0);
    const served = list.filter((x) => x.customers_served !== null);
    const feed = served.length ? served.reduce((s, x) => s + (x.customers_served ?? 0), 0) : null;
    const modelled = model.get(c.fips) ?? null;
    const denom = denominator(feed, modelled);
    const pct = pctOut(out, denom);
    const updated =
      list
        .map((x) => statuses.get(x.source_id)?.last_success_at ?? '')
        .filter(Boolean)
        .sort()
        .at(-1) ?? null;
    return {
      fips: c.fips,
      name: c.name,
      state: c.state,
      customers_out: out,
      customers_served_feed: feed,
      customers_modelled: modelled,
      denominator: denom,
      customers_tracked: countyTracked(tracked.get(c.fips), denom),
      planned_out: countyPlanned(list),
      pct_out: pct,
      band: band(pct),
      magnitude: magnitude(out),
      level: 0,
      sources: list,
      stale: list.some((x) => x.stale),
      meters: list.some((x) => x.unit === 'meters' && x.customers_out > 0),
      updated_at: updated,
    } satisfies CountyLive;
  });
  const magByFips = new Map(base.map((c) => [c.fips, c.magnitude]));
  for (const c of base) {
    const n = atlas.neighbours.get(c.fips) ?? [];
    const mean = n.length ? n.reduce((s, f) => s + (magByFips.get(f) ?? 0), 0) / n.length : 0;
    c.level = level(c.magnitude, c.pct_out, mean);
  }
  const states: StateLive[] = [];
  let nCustomers = 0;
  for (const st of STATES) {
    const cs = base.filter((c) => c.state === st.code);
    if (cs.length === 0) continue;
    const out = cs.reduce((s, c) => s + c.customers_out, 0);
    const customers = cs.reduce((s, c) => s + (c.denominator ?? 0), 0);
    nCustomers += customers;
    const pct = pctOut(out, customers || null);
    const outCounties = cs.filter((c) => c.customers_out > 0);
    const meanMag = outCounties.length ? outCounties.reduce((s, c) => s + c.magnitude, 0) / outCounties.length : 0;
    states.push({
      state: st.code,
      fips: st.fips,
      name: st.name,
      customers_out: out,
      customers_tracked: sumTracked(cs.map((c) => c.customers_tracked)),
      pct_out: pct,
      band: band(pct),
      magnitude: magnitude(out),
      level: level(magnitude(out), pct, meanMag),
      counties_out: outCounties.length,
    });
  }
  const nOut = states.reduce((s, x) => s + x.customers_out, 0);
  return {
    counties: base,
    states,
    national: {
      customers_out: nOut,
      customers_tracked: sumTracked(states.map((x) => x.customers_tracked)),
      pct_out: pctOut(nOut, nCustomers || null),
      counties_out: base.filter((c) => c.customers_out > 0).length,
      states_out: states.filter((s) => s.customers_out > 0).length,
    },
  };
}

/** Records this cycle's state frame (one per 15-minute bucket; a later cycle in the same bucket replaces it). */
export async function recordFrame(db: Db, live: LiveState, now: Date): Promise<string> {
  const bucket = new Date(Math.floor(now.getTime() / FRAME_MS) * FRAME_MS).toISOString();
  await db.run('DELETE FROM state_frames WHERE frame_at = ?', [bucket]);
  const a = await db.appender('state_frames');
  for (const s of live.states) {
    a.appendVarchar(bucket);
    a.appendVarchar(s.state);
    a.appendBigInt(BigInt(s.customers_out));
    if (s.pct_out === null) a.appendNull();
    else a.appendDouble(s.pct_out);
    a.appendInteger(s.band);
    a.endRow();
  }
  a.closeSync();
  await db.run('DELETE FROM county_frames WHERE frame_at = ? OR frame_at < ?', [
    bucket,
    new Date(now.getTime() - 8 * 86_400_000).toISOString(),
  ]);
  const c = await db.appender('county_frames');
  for (const x of live.counties) {
    if (x.customers_out <= 0) continue;
    c.appendVarchar(bucket);
    c.appendVarchar(x.fips);
    c.appendBigInt(BigInt(x.customers_out));
    c.endRow();
  }
  c.closeSync();
  return bucket;
}

/**
 * A county's planned work: the sum of its sources' planned_out, when every source with customers out here says (a
 * source that does not tell planned from unplanned leaves the county's share unknown: null, never a partial sum).
 */
function countyPlanned(list: CountySourceShare[]): number | null {
  let sum = 0;
  for (const x of list) {
    if (x.customers_out === 0) continue;
    if (x.planned_out === null) return null;
    sum += x.planned_out;
  }
  return list.some((x) => x.planned_out !== null) ? sum : null;
}
