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

function buildIndex(): Map<string, string> {
  const map = new Map<string, string>();
  for (const c of loadAtlas().counties) {
    map.set(`${c.state}|${normalizeCountyName(c.name)}`, c.fips);
    // Independent cities of Virginia etc. share names with counties; keep the county (lower FIPS) for the bare name.
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
