// Counties from us-atlas (Census cartographic boundaries, 2017 vintage): FIPS, names, shapes, adjacency, name index.
import { createRequire } from 'node:module';
import { feature, neighbors } from 'topojson-client';
import { geoBounds, geoCentroid } from 'd3-geo';
import type { Topology, GeometryCollection } from 'topojson-specification';
import type { Feature, Geometry } from 'geojson';
import { stateByFips } from './states.ts';
import { pointIndex } from './point-index.ts';

export interface County {
  fips: string;
  name: string;
  stateFips: string;
  state: string;
  centroid: [number, number];
  bbox: [number, number, number, number];
}

export interface CountyAtlas {
  counties: County[];
  byFips: Map<string, County>;
  neighbours: Map<string, string[]>;
  /** county FIPS for a lon/lat point (within SHORE_KM of the coarse coast: the nearest), or undefined */
  locate(lon: number, lat: number): string | undefined;
  /** the county whose 1:10m polygon contains the point, without the shoreline rule (what its drawing contains) */
  within(lon: number, lat: number): string | undefined;
}

const require = createRequire(import.meta.url);
let cached: CountyAtlas | undefined;

export function loadAtlas(): CountyAtlas {
  if (cached) return cached;
  const topo = require('us-atlas/counties-10m.json') as Topology<{ counties: GeometryCollection<{ name: string }> }>;
  const collection = topo.objects.counties;
  const shapes = (feature(topo, collection) as unknown as { features: Feature<Geometry, { name: string }>[] }).features;
  const counties: County[] = [];
  const shapeByFips = new Map<string, Feature<Geometry, { name: string }>>();
  for (const f of shapes) {
    const fips = String(f.id);
    const st = stateByFips(fips.slice(0, 2));
    if (!st) continue;
    const [[w, s], [e, n]] = geoBounds(f);
    counties.push({
      fips,
      name: f.properties.name,
      stateFips: st.fips,
      state: st.code,
      centroid: geoCentroid(f) as [number, number],
      bbox: [w, s, e, n],
    });
    shapeByFips.set(fips, f);
  }
  counties.sort((a, b) => a.fips.localeCompare(b.fips));
  const ids = collection.geometries.map((g) => String(g.id));
  const adj = neighbors(collection.geometries as never);
  const neighbours = new Map<string, string[]>();
  for (const [i, list] of adj.entries()) neighbours.set(ids[i], list.map((j) => ids[j]).sort());
  const byFips = new Map(counties.map((c) => [c.fips, c]));
  const index = pointIndex(counties.map((c) => ({ fips: c.fips, feature: shapeByFips.get(c.fips)! })));
  const locate = (lon: number, lat: number) => index(lon, lat);
  const within = (lon: number, lat: number) => index(lon, lat, false);
  cached = { counties, byFips, neighbours, locate, within };
  return cached;
}
