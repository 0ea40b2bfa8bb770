// Town or city name → county, by the place table behind /api/v1/places (places.ts: the USPS city names of the ZIP
// codes, each with its counties by population share), for feeds that count customers per town (Green Mountain Power,
// Liberty, Chugach's sections). Names are compared with the site's place search key (place-search.js).
import { loadPlaceTables, type CountyShare } from './places.ts';
import { findState } from './states.ts';
// @ts-expect-error: a plain browser module (no types); it has no DOM and no imports, so the pipeline shares it
import { nameKey } from '../../../site/src/map/browser/place-search.js';

/** Name → comparison key: the site's own place search key (case, accents, punctuation folded; St./Ft./Mt. spelled out). */
export const placeKey: (name: string) => string = nameKey;

/** What a feed adds to a town's name (`Barre City`, `Rutland Town`) and the USPS city name leaves out. */
const KIND = /\s+(city|town|village|township)$/i;

let index: Map<string, CountyShare[]> | undefined;

/** `state|key` → the town's counties by share, largest first (the place table's order). */
function buildIndex(): Map<string, CountyShare[]> {
  const map = new Map<string, CountyShare[]>();
  for (const [name, state, , shares] of loadPlaceTables().places) {
    const key = `${state}|${placeKey(name)}`;
    if (!map.has(key)) map.set(key, shares);
  }
  return map;
}

/** Answers by the exact (state, name) a feed sent: the same towns come back every poll. Cleared when it grows large. */
const answers = new Map<string, string | null>();

/**
 * The county of town `name` in `state` (postal code, FIPS or name): the county holding the largest share of the
 * town's population. A name the table lacks is tried once more without a trailing City/Town/Village/Township. Null
 * when the table has no such town in the state, or the town spans counties whose shares it does not know.
 */
export function placeCounty(state: string, name: string): string | null {
  const st = findState(state);
  if (!st) return null;
  const key = `${st.code}|${name}`;
  let fips = answers.get(key);
  if (fips === undefined) {
    if (answers.size >= 20_000) answers.clear();
    fips = lookup(st.code, name.trim());
    answers.set(key, fips);
  }
  return fips;
}

function lookup(state: string, name: string): string | null {
  index ??= buildIndex();
  const shares =
    index.get(`${state}|${placeKey(name)}`) ??
    (KIND.test(name) ? index.get(`${state}|${placeKey(name.replace(KIND, ''))}`) : undefined);
  if (!shares?.length) return null;
  const [fips, share] = shares[0];
  // Shares are sorted with unknown ones last: an unknown first share means none is known.
  return share === null && shares.length > 1 ? null : fips;
}
