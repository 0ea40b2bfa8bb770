// Which iFactor area names are counties: Census names, a small alias map, and a rule that a whole sibling group must be
// counties (Eversource's towns include "Hartford" and "Middlesex", which are also county names).
import { matchCounty } from '../../geo/match.ts';
import type { IfactorArea } from './schema.ts';

/**
 * Names a deployment gives a county that are not its Census name, by state. Con Edison's five boroughs are the five
 * counties of New York City; Bronx and Queens match as they are, the other three need this.
 */
export const COUNTY_ALIASES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  NY: { BROOKLYN: 'Kings', MANHATTAN: 'New York', 'STATEN ISLAND': 'Richmond' },
};

/**
 * `CONEDFUZZY_BROOKLYN OTHER`: a bucket for customers the utility does not place in a neighbourhood (cust_s 0).
 * Not a place: never an area. Its customers are already in its parent's own count, which is what a county uses.
 */
export const isPlaceholder = (name: string): boolean => /FUZZY_/i.test(name);

export const nameOf = (a: IfactorArea): string => (typeof a.area_name === 'string' ? a.area_name.trim() : '');

/** Answers of countyIn by states and name (nested, so a look-up builds no key): feeds repeat the same names every
 * poll, and matching a name is the costly part of normalising a large tree. Cleared past a bound all the same. */
const memo = new Map<string, Map<string, string | null>>();

/** The county `name` names in exactly one of `states`; undefined when it names none, or counties in two states. */
export function countyIn(states: string[], name: string): string | undefined {
  const key = states.length === 1 ? states[0] : states.join(',');
  let byName = memo.get(key);
  if (!byName) memo.set(key, (byName = new Map()));
  let fips = byName.get(name);
  if (fips === undefined) {
    if (byName.size >= 20_000) byName.clear();
    byName.set(name, (fips = matchIn(states, name) ?? null));
  }
  return fips ?? undefined;
}

function matchIn(states: string[], name: string): string | undefined {
  let found: string | undefined;
  for (const st of states) {
    const fips = matchCounty(st, COUNTY_ALIASES[st]?.[name.toUpperCase()] ?? name);
    if (!fips) continue;
    if (found && found !== fips) return undefined;
    found = fips;
  }
  return found;
}

/**
 * FIPS of each named node of a sibling group when every named, real node in it names a county; null otherwise
 * (a group of towns where a few share a county's name is not a county level).
 */
export function countyLevel(nodes: IfactorArea[], states: string[]): Map<IfactorArea, string> | null {
  const found = new Map<IfactorArea, string>();
  for (const node of nodes) {
    const name = nameOf(node);
    if (!name || isPlaceholder(name)) continue;
    const fips = countyIn(states, name);
    if (!fips) return null;
    found.set(node, fips);
  }
  return found.size > 0 ? found : null;
}
