// ORNL ODIN upstream shape (OpenDataSoft explore v2.1): the export endpoint answers a JSON array of records, the
// paged `/records` endpoint wraps the same records in {total_count, results}; both are read, checked by hand.
import { arrayAt, fail, misfit, objectAt, optNumOrText, optNumber, optText } from '../checks.ts';

type Text = string | null | undefined;

/** A record, as far as normalize and the reconciliation read it; the rest (geo shapes …) is not looked at. */
export interface OdinRecord {
  communitydescriptor?: Text;
  county?: Text;
  state?: Text;
  /** the utility's EIA-861 utility number for almost every utility (see README.md) */
  utility_id?: string | number | null;
  /** "NAME,UTILITY_ID" */
  name?: Text;
  metersaffected?: number | null;
  estimatedrestorationtime?: Text;
  [k: string]: unknown;
}

/** The records at `at`, checked in place (no copy) for the fields read. */
function checkRecords(what: string, list: unknown, at: string): OdinRecord[] {
  const records = arrayAt(what, list, at);
  for (let i = 0; i < records.length; i++) {
    const r = objectAt(what, records[i], at, i);
    if (!optText(r.communitydescriptor)) misfit(what, at, i, 'communitydescriptor', 'string', r.communitydescriptor);
    if (!optText(r.county)) misfit(what, at, i, 'county', 'string', r.county);
    if (!optText(r.state)) misfit(what, at, i, 'state', 'string', r.state);
    if (!optNumOrText(r.utility_id)) misfit(what, at, i, 'utility_id', 'number or string', r.utility_id);
    if (!optText(r.name)) misfit(what, at, i, 'name', 'string', r.name);
    if (!optNumber(r.metersaffected)) misfit(what, at, i, 'metersaffected', 'number', r.metersaffected);
    if (!optText(r.estimatedrestorationtime))
      misfit(what, at, i, 'estimatedrestorationtime', 'string', r.estimatedrestorationtime);
  }
  return records as OdinRecord[];
}

/** The records of an export array or of a records page ({total_count, results}); anything else is a `schema`
 * poll failure. */
export function odinRecords(raw: unknown): OdinRecord[] {
  if (Array.isArray(raw)) return checkRecords('ODIN export', raw, '');
  const page = objectAt('ODIN records page', raw, '');
  if (typeof page.total_count !== 'number') fail('ODIN records page', 'total_count', 'number', page.total_count);
  return checkRecords('ODIN records page', page.results, 'results');
}

/** Canonical form of a utility number, so "0240", 240 and "240" compare equal; null when there is none. */
export function utilityKey(v: unknown): string | null {
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
  if (/^\d+$/.test(s)) return String(Number(s));
  return s === '' ? null : s;
}

/** A record's utility number: `utility_id`, else the `,ID` ending of `name`. */
export function recordUtility(r: OdinRecord): string | null {
  return utilityKey(r.utility_id) ?? utilityKey(/,\s*(\d+)\s*$/.exec(r.name ?? '')?.[1]);
}
