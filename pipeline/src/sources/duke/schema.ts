// Duke Energy outage-maps `counties?jurisdiction=…` answer: `{data: [county…], errorMessages}`, one row per county the
// jurisdiction serves, its outage figures nested in `areaOfInterestSummary`. Checked in place, only what normalize reads.
import { arrayAt, isObj, misfit, nullish, objectAt, optNumOrText, optObj, optText } from '../checks.ts';
import { SourceError } from '../../errors.ts';

type NumText = number | string | null | undefined;

/** The county's outage summary; every field is null while the county has no outage. */
export interface DukeSummary {
  /** customers out in the county now (the most any of its active events affect, summed by Duke) */
  maxCustomersAffected?: NumText;
  activeEventsCount?: NumText;
  latestRestorationDate?: string | null;
}

/** One county row as far as normalize reads it; unread keys (ids, etrOverride, serviceAreas…) pass through. */
export interface DukeCounty {
  /** `NC - Alamance`: the state's postal code, a dash, the county */
  areaOfInterestName?: string | null;
  countyName?: string | null;
  /** postal code, `NC` */
  state?: string | null;
  /** customers Duke serves in the county */
  customersServed?: NumText;
  /** Duke's manual figures, shown instead of the computed ones when set (null in every capture) */
  customersAffectedOverride?: NumText;
  customersServedOverride?: NumText;
  areaOfInterestSummary?: DukeSummary | null;
}

export const WHAT = 'Duke Energy counties answer';

function checkSummary(v: unknown, i: number): void {
  if (!optObj(v)) misfit(WHAT, 'data', i, 'areaOfInterestSummary', 'object', v);
  if (!isObj(v)) return;
  const at = `data.${i}.areaOfInterestSummary`;
  if (!optNumOrText(v.maxCustomersAffected))
    misfit(WHAT, at, -1, 'maxCustomersAffected', 'number or string', v.maxCustomersAffected);
  if (!optText(v.latestRestorationDate))
    misfit(WHAT, at, -1, 'latestRestorationDate', 'string', v.latestRestorationDate);
}

function checkCounty(v: unknown, i: number): void {
  const r = objectAt(WHAT, v, 'data', i);
  for (const key of ['areaOfInterestName', 'countyName', 'state'] as const)
    if (!optText(r[key])) misfit(WHAT, 'data', i, key, 'string', r[key]);
  for (const key of ['customersServed', 'customersAffectedOverride', 'customersServedOverride'] as const)
    if (!optNumOrText(r[key])) misfit(WHAT, 'data', i, key, 'number or string', r[key]);
  checkSummary(r.areaOfInterestSummary, i);
}

/** The county rows, checked in place. An answer with no `data` but error messages fails with Duke's own words. */
export function readRaw(raw: unknown): DukeCounty[] {
  const root = objectAt(WHAT, raw, '');
  if (nullish(root.data) && Array.isArray(root.errorMessages) && root.errorMessages.length)
    throw new SourceError('schema', `${WHAT} has no data: ${JSON.stringify(root.errorMessages).slice(0, 300)}`);
  const rows = arrayAt(WHAT, root.data, 'data');
  for (let i = 0; i < rows.length; i++) checkCounty(rows[i], i);
  return rows as DukeCounty[];
}
