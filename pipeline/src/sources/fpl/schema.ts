// FPL county JSON: the everyday county list (comma-formatted strings), its {main, nw} pair, and storm mode. Checked
// by hand in place, only the fields normalize reads.
import { arrayAt, fail, isObj, misfit, nullish, numOrText, objectAt, optNumOrText, optNumber } from '../checks.ts';

type Count = number | string;

export interface FplCountyRow {
  'County Name': string;
  'Customers Out': Count;
  'Customers Served'?: Count | null;
}
export interface FplCountyList {
  outages: FplCountyRow[];
}
export interface FplStormCounty {
  name: string;
  numberofoutages: number;
  numberofaccounts?: number | null;
}
export interface FplStorm {
  counties: Record<string, FplStormCounty>;
  statewide?: { numberofoutages?: number | null; numberofaccounts?: number | null } | null;
}

const WHAT = 'FPL county answer';

/** `{outages: [...]}` at `at` ('' for the root). */
export function readCountyList(raw: unknown, at = ''): FplCountyList {
  const path = at ? `${at}.outages` : 'outages';
  const rows = arrayAt(WHAT, objectAt(WHAT, raw, at).outages, path);
  for (let i = 0; i < rows.length; i++) {
    const r = objectAt(WHAT, rows[i], path, i);
    if (typeof r['County Name'] !== 'string') misfit(WHAT, path, i, 'County Name', 'string', r['County Name']);
    if (!numOrText(r['Customers Out'])) misfit(WHAT, path, i, 'Customers Out', 'number or string', r['Customers Out']);
    if (!optNumOrText(r['Customers Served']))
      misfit(WHAT, path, i, 'Customers Served', 'number or string', r['Customers Served']);
  }
  return raw as FplCountyList;
}

/** `{main: list, nw?: list}`: the peninsula and the north-west (former Gulf Power) lists. */
export function readPair(raw: unknown): FplCountyList[] {
  const pair = objectAt(WHAT, raw, '');
  const lists = [readCountyList(pair.main, 'main')];
  if (pair.nw !== undefined) lists.push(readCountyList(pair.nw, 'nw'));
  return lists;
}

/** Storm mode: `{counties: {key: {name, numberofoutages, numberofaccounts}}, statewide}`. */
export function readStorm(raw: unknown): FplStorm {
  const root = objectAt(WHAT, raw, '');
  const counties = objectAt(WHAT, root.counties, 'counties');
  for (const key in counties) {
    const c = counties[key];
    if (!isObj(c)) fail(WHAT, `counties.${key}`, 'object', c);
    if (typeof c.name !== 'string') fail(WHAT, `counties.${key}.name`, 'string', c.name);
    if (typeof c.numberofoutages !== 'number')
      fail(WHAT, `counties.${key}.numberofoutages`, 'number', c.numberofoutages);
    if (!optNumber(c.numberofaccounts)) fail(WHAT, `counties.${key}.numberofaccounts`, 'number', c.numberofaccounts);
  }
  const all = root.statewide;
  if (!nullish(all)) {
    const s = objectAt(WHAT, all, 'statewide');
    if (!optNumber(s.numberofoutages)) fail(WHAT, 'statewide.numberofoutages', 'number', s.numberofoutages);
    if (!optNumber(s.numberofaccounts)) fail(WHAT, 'statewide.numberofaccounts', 'number', s.numberofaccounts);
  }
  return raw as FplStorm;
}
