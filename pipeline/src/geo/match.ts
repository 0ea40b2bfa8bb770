// County name → FIPS within a state, tolerant of how utilities spell them ("De Soto", "ST. LUCIE", "Miami-Dade County").
import { loadAtlas } from './counties.ts';
import { findState } from './states.ts';

const SUFFIXES = /\s+(county|parish|borough|census area|municipality|city and borough|municipio)$/;

export function normalizeCountyName(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .replace(SUFFIXES, '')
    .replace(/^st\.?\s+/, 'saint ')
    .replace(/^ste\.?\s+/, 'sainte ')
    .replace(/[^a-z0-9]/g, '');
}

let index: Map<string, string> | undefined;

/** Independent cities (Virginia's, Baltimore, St. Louis, Carson City) carry county-level FIPS codes ≥ 500. */
export function isIndependentCity(fips: string): boolean {
  return ['24', '29', '32', '51'].includes(fips.slice(0, 2)) && Number(fips.slice(2)) >= 500;
}

/** The name a feed would use: "Baltimore city" for the city, "Baltimore" for the county. */
export function countyLabel(c: { fips: string; name: string }): string {
  return isIndependentCity(c.fips) ? `${c.name} city` : c.name;
}

function buildIndex(): Map<string, string> {
  const map = new Map<string, string>();
  // Counties first (ascending FIPS), so a bare name shared with an independent city means the county.
  for (const c of loadAtlas().counties) {
    const label = `${c.state}|${normalizeCountyName(countyLabel(c))}`;
    if (!map.has(label)) map.set(label, c.fips);
    const bare = `${c.state}|${normalizeCountyName(c.name)}`;
    if (!map.has(bare)) map.set(bare, c.fips);
  }
  return map;
}

/**
 * Answers by the exact (state, name) text a feed sent: feeds repeat the same names every poll and every record, and
 * normalising a name (Unicode decomposition, five regexes) costs more than the lookup. One map per state text, so a
 * look-up builds no key string. Cleared when it grows large.
 */
const answers = new Map<string, Map<string, string | null>>();
let answerCount = 0;

/** FIPS of `name` in `state` (postal code, FIPS or name), or undefined when it matches no county. */
export function matchCounty(state: string, name: string): string | undefined {
  let byName = answers.get(state);
  if (!byName) {
    if (answers.size >= 1_000) clearAnswers();
    answers.set(state, (byName = new Map()));
  }
  let fips = byName.get(name);
  if (fips === undefined) {
    if (answerCount >= 50_000) {
      clearAnswers();
      answers.set(state, byName);
    }
    fips = lookup(state, name) ?? null;
    byName.set(name, fips);
    answerCount += 1;
  }
  return fips ?? undefined;
}

function clearAnswers(): void {
  for (const m of answers.values()) m.clear();
  answers.clear();
  answerCount = 0;
}

function lookup(state: string, name: string): string | undefined {
  index ??= buildIndex();
  const st = findState(state);
  if (!st) return undefined;
  const trimmed = name.trim();
  if (/^\d{5}$/.test(trimmed)) return loadAtlas().byFips.has(trimmed) ? trimmed : undefined;
  if (/^\d{3}$/.test(trimmed)) {
    const fips = st.fips + trimmed;
    return loadAtlas().byFips.has(fips) ? fips : undefined;
  }
  return index.get(`${st.code}|${normalizeCountyName(trimmed)}`);
}

/**
 * Point → county, remembered across polls: feeds send the same outage points poll after poll, and a point-in-polygon
 * test over a grid cell's counties costs far more than a map look-up. Cleared when it grows large.
 */
const points = new Map<number, Map<number, string | null>>();
let pointCount = 0;
export function locatePoint(lon: number, lat: number): string | null {
  // Keyed by the numbers themselves: turning two doubles into a string key costs as much as the look-up saves.
  let row = points.get(lon);
  if (!row) {
    if (pointCount >= 100_000) {
      points.clear();
      pointCount = 0;
    }
    points.set(lon, (row = new Map()));
  }
  let fips = row.get(lat);
  if (fips === undefined) {
    fips = loadAtlas().locate(lon, lat) ?? null;
    row.set(lat, fips);
    pointCount += 1;
  }
  return fips;
}
