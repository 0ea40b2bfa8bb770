// MidAmerican OutageWatch CountyInfo answer: `[{CountyNam, NumOutages, PremiseCount}]`, one row per county. Checked
// by hand in place, only the fields normalize reads (see checks.ts).
import { arrayAt, misfit, numOrText, objectAt, optNumOrText, optText } from '../checks.ts';

type Count = number | string;

/** One county row as far as normalize reads it. */
export interface CountyRow {
  /** upper-case county name without a state, e.g. `POLK` */
  CountyNam?: string | null;
  /** customers out in the county (the name notwithstanding: see README) */
  NumOutages: Count;
  /** customers (premises) served in the county */
  PremiseCount?: Count | null;
  [k: string]: unknown;
}

export const WHAT = 'MidAmerican CountyInfo answer';

/** The answer, checked in place (no copy): a list of rows, each field of the type normalize reads. */
export function readRaw(raw: unknown): CountyRow[] {
  const rows = arrayAt(WHAT, raw, '');
  for (let i = 0; i < rows.length; i++) {
    const r = objectAt(WHAT, rows[i], '', i);
    if (!optText(r.CountyNam)) misfit(WHAT, '', i, 'CountyNam', 'string', r.CountyNam);
    if (!numOrText(r.NumOutages)) misfit(WHAT, '', i, 'NumOutages', 'number or string', r.NumOutages);
    if (!optNumOrText(r.PremiseCount)) misfit(WHAT, '', i, 'PremiseCount', 'number or string', r.PremiseCount);
  }
  return raw as CountyRow[];
}
