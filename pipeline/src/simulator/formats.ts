// Renders a simulated utility at an instant in the real vendor formats its connector reads.
import { countyLabel } from '../geo/match.ts';
import { loadAtlas } from '../geo/counties.ts';
import { stateByFips } from '../geo/states.ts';
import type { Scenario } from './scenario.ts';
import type { SimUtility } from './utilities.ts';
import { unit } from './random.ts';
import polyline from '@mapbox/polyline';
import { quadkeyFor } from '../sources/kubra/clusters.ts';
import { countyPoint, PLACEMENT_SLOTS, townBox } from './placement.ts';

export interface CountyState {
  fips: string;
  name: string;
  served: number;
  out: number;
}

export interface RenderOptions {
  /** municipalities per county in Kubra reports */
  areasPerCounty: number;
}

const CAUSES = ['Tree contact', 'Wind damage', 'Equipment failure', 'Flooding', 'Under investigation', 'Lightning'];
const CREW = ['Crew assigned', 'Crew en route', 'Crew on site', 'Awaiting crew', 'Assessing damage'];

export function countyStates(s: Scenario, u: SimUtility, at: Date): CountyState[] {
  const atlas = loadAtlas();
  return [...u.counties.entries()].map(([fips, share]) => {
    const served = Math.max(1, Math.round((s.customers.get(fips) ?? 500) * share));
    return { fips, name: countyLabel(atlas.byFips.get(fips)!), served, out: Math.round(served * s.share(fips, at)) };
  });
}

/** Splits `total` into `n` integer parts by deterministic weights (largest remainder). */
export function split(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0) || 1;
  const raw = weights.map((w) => (total * w) / sum);
  const parts = raw.map(Math.floor);
  let rest = total - parts.reduce((a, b) => a + b, 0);
  const order = raw.map((r, i) => [r - Math.floor(r), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let k = 0; rest > 0; k = (k + 1) % order.length, rest--) parts[order[k][1]] += 1;
  return parts;
}

const hourStart = (at: Date) => Math.floor(at.getTime() / 3_600_000) * 3_600_000;

export function kubraReport(s: Scenario, u: SimUtility, at: Date, opts: RenderOptions) {
  const seed = s.options.seed;
  const counties = countyStates(s, u, at).map((c) => {
    const weights = Array.from({ length: opts.areasPerCounty }, (_, i) => 0.2 + unit(seed, 'area', c.fips, i));
    const served = split(c.served, weights);
    const out = split(
      c.out,
      weights.map((w, i) => w * (0.3 + unit(seed, 'areaExposure', c.fips, i, Math.floor(at.getTime() / 1_800_000)))),
    );
    const etr =
      c.out > 0
        ? new Date(hourStart(at) + (4 + Math.floor(20 * unit(seed, 'etr', c.fips))) * 3_600_000).toISOString()
        : 'ETR-NULL';
    return {
      key: 'county',
      name: c.name,
      cust_a: { val: c.out },
      cust_s: c.served,
      percent_cust_a: { val: Math.round((c.out / c.served) * 10_000) / 100 },
      etr,
      etr_confidence: null,
      areaId: `BOUN|${u.state}|${c.name}|county`,
      n_out: c.out > 0 ? Math.ceil(c.out / 80) : 0,
      areas: served.map((sv, i) => ({
        key: 'town',
        name: `${c.name} Township ${i + 1}`,
        cust_s: sv,
        gotoMap: { bbox: townBox(s.options.seed, c.fips, i, () => s.interiorPoint(c.fips)) },
        cust_a: out[i] > 0 && out[i] < 5 ? { masked: true, val: out[i] } : { val: Math.min(out[i], sv) },
        etr: out[i] > 0 ? etr : 'ETR-NULL',
        areaId: `BOUN|${c.fips}|${i + 1}|town`,
      })),
    };
  });
  const totalOut = counties.reduce((a, c) => a + c.cust_a.val, 0);
  const totalServed = counties.reduce((a, c) => a + c.cust_s, 0);
  return {
    version: 'V2',
    file_title: 'report_county.json',
    file_data: {
      areas: [
        {
          key: 'geopolitical',
          name: stateByFips(stateFips(u))?.name ?? u.state,
          cust_a: { val: totalOut },
          cust_s: totalServed,
          areas: counties,
        },
      ],
      totals: {
        cust_a: { val: totalOut },
        cust_s: totalServed,
        percent_cust_a: { val: Math.round((totalOut / totalServed) * 10_000) / 100 },
        n_out: counties.reduce((a, c) => a + c.n_out, 0),
      },
    },
  };
}

const stateFips = (u: SimUtility) => [...u.counties.keys()][0].slice(0, 2);

export interface SimIncident {
  id: string;
  fips: string;
  customers: number;
  etr: number;
  cause: string;
  crew: string;
  start: number;
  lon: number;
  lat: number;
}

/** The last instant's incidents per utility: every tile and page of one poll asks for the same list. */
const incidentMemo = new WeakMap<SimUtility, { s: Scenario; at: number; list: SimIncident[] }>();

/** A county's outage as individual incidents (at most incidentCap per county) that add up to its count. */
export function incidents(s: Scenario, u: SimUtility, at: Date): SimIncident[] {
  const memo = incidentMemo.get(u);
  if (memo?.s === s && memo.at === at.getTime()) return memo.list;
  const list = computeIncidents(s, u, at);
  incidentMemo.set(u, { s, at: at.getTime(), list });
  return list;
}

function computeIncidents(s: Scenario, u: SimUtility, at: Date): SimIncident[] {
  const seed = s.options.seed;
  const list: SimIncident[] = [];
  for (const c of countyStates(s, u, at)) {
    if (c.out === 0) continue;
    const n = Math.min(s.options.incidentCap ?? 40, Math.max(1, Math.round(c.out / (s.options.incidentSize ?? 150))));
    const parts = split(
      c.out,
      Array.from({ length: n }, (_, i) => 0.2 + unit(seed, 'inc', c.fips, i)),
    );
    parts.forEach((customers, i) => {
      if (customers === 0) return;
      const id = `${u.id}-${c.fips}-${i + 1}`;
      // spread over the county's land (placement.ts), as real feeds place their incidents
      const [lon, lat] = countyPoint(seed, c.fips, i, () => s.interiorPoint(c.fips), u.id);
      list.push({
        id,
        fips: c.fips,
        customers,
        lon,
        lat,
        etr: hourStart(at) + (3 + Math.floor(30 * unit(seed, 'ietr', id))) * 3_600_000,
        cause: CAUSES[Math.floor(unit(seed, 'cause', id) * CAUSES.length)],
        crew: CREW[Math.floor(unit(seed, 'crew', id, Math.floor(at.getTime() / 3_600_000)) * CREW.length)],
        start: hourStart(at) - Math.floor(unit(seed, 'start', id) * 6) * 3_600_000,
      });
    });
  }
  return list;
}

export function niscSummary(s: Scenario, u: SimUtility, at: Date) {
  const cs = countyStates(s, u, at);
  return {
    totalServed: cs.reduce((a, c) => a + c.served, 0),
    outages: incidents(s, u, at).map((i) => ({
      id: i.id,
      nbrOut: i.customers,
      estimateTime: i.etr,
      outagePoint: { lat: i.lat, lng: i.lon },
      cause: i.cause,
      crewStatus: i.crew,
      startTime: i.start,
    })),
    regionDataSets: [
      {
        id: 'omscounty',
        description: 'Counties',
        regions: cs.map((c) => ({ id: c.name, description: 'Counties', numberOut: c.out, numberServed: c.served })),
      },
    ],
  };
}

export function arcgisPage(s: Scenario, u: SimUtility, at: Date, offset: number, count: number) {
  const all = incidents(s, u, at);
  const page = all.slice(offset, offset + count);
  return {
    objectIdFieldName: 'OBJECTID',
    geometryType: 'esriGeometryPoint',
    spatialReference: { wkid: 4326 },
    features: page.map((i, k) => ({
      attributes: {
        OBJECTID: offset + k + 1,
        OUTAGE_ID: i.id,
        EST_CUSTOMERS: i.customers,
        CURRENT_ETOR: i.etr,
        OUTAGE_CAUSE: i.cause,
        CREW_CURRENT_STATUS: i.crew,
        OUTAGE_START: i.start,
        CITY: null,
      },
      geometry: { x: i.lon, y: i.lat },
    })),
    exceededTransferLimit: offset + count < all.length,
  };
}

const fmt = (n: number) => n.toLocaleString('en-US');

export function fplCounties(s: Scenario, u: SimUtility, at: Date) {
  return {
    outages: countyStates(s, u, at).map((c) => ({
      'County Name': c.name,
      'Customers Out': fmt(c.out),
      'Customers Served': fmt(c.served),
    })),
  };
}

/** Kubra cluster-layer tile: the utility's outages under `quadkey`, clustered per child tile below zoom 11. */
export function kubraTile(s: Scenario, u: SimUtility, at: Date, quadkey: string): { file_data: unknown[] } | null {
  const z = quadkey.length;
  const inside = incidents(s, u, at).filter((i) => quadkeyFor(i.lon, i.lat, z) === quadkey);
  if (inside.length === 0) return null;
  const record = (i: SimIncident) => ({
    id: `${quadkey}-${i.id}`,
    title: 'Outage',
    desc: {
      cluster: false,
      inc_id: i.id,
      n_out: 1,
      cust_a: { val: i.customers },
      etr: new Date(i.etr).toISOString(),
      start_time: new Date(i.start).toISOString(),
      cause: { 'EN-US': i.cause },
      crew_status: i.crew,
    },
    geom: { p: [polyline.encode([[i.lat, i.lon]])] },
  });
  if (z >= 11) return { file_data: inside.map(record) };
  const groups = new Map<string, SimIncident[]>();
  for (const i of inside) {
    const child = quadkeyFor(i.lon, i.lat, z + 1);
    groups.set(child, [...(groups.get(child) ?? []), i]);
  }
  return {
    file_data: [...groups.entries()].map(([child, list]) =>
      list.length === 1
        ? record(list[0])
        : {
            id: `${child}-cluster`,
            title: 'Cluster',
            desc: { cluster: true, n_out: list.length, cust_a: { val: list.reduce((a, i) => a + i.customers, 0) } },
            geom: { p: [polyline.encode([[list[0].lat, list[0].lon]])] },
          },
    ),
  };
}

/** Zoom-7 tiles covering the utility's counties (the registry's `quadkeys` option). */
export function rootQuadkeys(s: Scenario, u: SimUtility): string[] {
  return [
    ...new Set(
      // every tile an incident of the county can fall in: incidents are spread over the county (placement.ts)
      [...u.counties.keys()].flatMap((f) =>
        Array.from({ length: PLACEMENT_SLOTS }, (_, i) => {
          const [lon, lat] = countyPoint(s.options.seed, f, i, () => s.interiorPoint(f), u.id);
          return quadkeyFor(lon, lat, 7);
        }),
      ),
    ),
  ].sort();
}
