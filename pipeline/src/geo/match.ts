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

/** FIPS of `name` in `state` (postal code, FIPS or name), or undefined when it matches no county. */
export function matchCounty(state: string, name: string): string | undefined {
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
