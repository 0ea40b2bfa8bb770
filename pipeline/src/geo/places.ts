// Search by place: the county, town and ZIP code tables behind /api/v1/places, from data/reference (method, sources and
// licences in data/reference/README.md; the tables are built by scripts/build-place-tables.ts).
import { readFileSync } from 'node:fs';
import { fromRoot } from '../package-root.ts';
import { parse } from 'csv-parse/sync';
import { loadAtlas } from './counties.ts';
import { countyLabel } from './match.ts';

const reference = (name: string) => fromRoot('data/reference', name);
export const ZCTA_FILE = reference('zcta-county.csv');
export const PLACES_FILE = reference('places.csv');
export const POPULATION_FILE = reference('county-customers-modelled.csv');

/** [fips, share of the ZIP's or town's population in the county (0–1), or null when the source gives none] */
export type CountyShare = [string, number | null];
/** [fips, name as the county page titles it, USPS state, population (0 when unknown)] */
export type CountyEntry = [string, string, string, number];
/** [name, USPS state, population of its ZIP codes, its counties by share, largest first] */
export type PlaceEntry = [string, string, number, CountyShare[]];

export interface PlaceTables {
  counties: CountyEntry[];
  places: PlaceEntry[];
  /** ZIP code (Census ZCTA) → its counties by share, largest first (unknown shares last) */
  zips: Record<string, CountyShare[]>;
}

export const PLACES_CREDIT =
  'ZIP codes: US Census Bureau 2010 ZCTA-to-county relationship file (public domain). Shares of a ZIP code spanning counties, and town names (the USPS city of each ZIP code): SimpleMaps US ZIP database (https://simplemaps.com/data/us-zips), CC BY 4.0. Counties: US Census Bureau cartographic boundaries via us-atlas.';

type Records = Array<Record<string, string>>;
const read = (file: string): Records =>
  parse(readFileSync(file), { columns: true, skip_empty_lines: true, bom: true }) as Records;

/** Counties with a county page: us-atlas's in the 50 states and DC (contract/site-pages.ts STATE_PAGES). */
const hasPage = (fips: string) => Number(fips.slice(0, 2)) <= 56;

const share = (s: string): number | null => (s === '' ? null : Number(s));
const byShare = (a: CountyShare, b: CountyShare) =>
  (b[1] ?? -1) - (a[1] ?? -1) || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** The default tables while anything still holds them: read once for callers close together, never kept alive. */
let recent: WeakRef<PlaceTables> | undefined;

/**
 * The three tables (~20 MB of arrays: each caller keeps what it derives, not the tables, and they are read again
 * only once all are let go); only counties with a page, so every FIPS answered leads somewhere.
 */
export function loadPlaceTables(
  files = { zcta: ZCTA_FILE, places: PLACES_FILE, population: POPULATION_FILE },
): PlaceTables {
  const isDefault = files.zcta === ZCTA_FILE && files.places === PLACES_FILE && files.population === POPULATION_FILE;
  const held = isDefault ? recent?.deref() : undefined;
  if (held) return held;
  const atlas = loadAtlas();
  const population = new Map(read(files.population).map((r) => [r.fips, Number(r.population) || 0]));
  const counties: CountyEntry[] = atlas.counties
    .filter((c) => hasPage(c.fips))
    .map((c) => [c.fips, countyLabel(c), c.state, population.get(c.fips) ?? 0]);

  const zips: Record<string, CountyShare[]> = {};
  for (const r of read(files.zcta)) {
    if (!atlas.byFips.has(r.fips))
      throw new Error(`${files.zcta}: ZCTA ${r.zcta} names \`${r.fips}\`, not a us-atlas county; rebuild the table.`);
    if (hasPage(r.fips)) (zips[r.zcta] ??= []).push([r.fips, share(r.share)]);
  }
  for (const list of Object.values(zips)) list.sort(byShare);

  const places: PlaceEntry[] = [];
  let last: PlaceEntry | undefined;
  for (const r of read(files.places)) {
    if (!hasPage(r.fips)) continue;
    if (!last || last[0] !== r.name || last[1] !== r.state) places.push((last = [r.name, r.state, 0, []]));
    last[2] += Number(r.population) || 0;
    last[3].push([r.fips, share(r.share)]);
  }
  for (const p of places) p[3].sort(byShare);

  const tables = { counties, places, zips };
  if (isDefault) recent = new WeakRef(tables);
  return tables;
}
