// Portland General Electric getOutagesByCounty answer: {data: {getOutagesByCounty}}, one row per Oregon county with
// outages, the list sent as an array or as JSON text of one. Checked by hand in place, only the fields normalize reads.
import { SourceError } from '../../errors.ts';
import { arrayAt, isObj, misfit, numOrText, objectAt } from '../checks.ts';

/** One county row as far as normalize reads it; zipCodeInfo (per-ZIP aggregates) passes through unread. */
export interface PgeCounty {
  county: string;
  totalCustomersImpacted: number | string;
  [k: string]: unknown;
}

const WHAT = 'PGE getOutagesByCounty answer';
const LIST = 'data.getOutagesByCounty';

/**
 * A GraphQL answer can be 200 with `errors` and no data (a query the server refuses, a resolver that failed): a
 * failed poll naming the server's message, never "no outages".
 */
function checkErrors(root: Record<string, unknown>, list: unknown): void {
  const errors = root.errors;
  if (!Array.isArray(errors) || errors.length === 0 || (list !== null && list !== undefined)) return;
  const messages = errors.map((e) => (isObj(e) && typeof e.message === 'string' ? e.message : JSON.stringify(e)));
  throw new SourceError('bad_body', `PGE GraphQL answered errors and no data: ${messages.slice(0, 3).join('; ')}`);
}

/** The list itself: the array, or the array parsed from the JSON text the field is sometimes sent as. */
function listOf(v: unknown): unknown[] {
  if (typeof v !== 'string') return arrayAt(WHAT, v, LIST);
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch {
    throw new SourceError(
      'bad_body',
      `${WHAT}: ${LIST} is text but not JSON (starts with ${JSON.stringify(v.slice(0, 40))})`,
    );
  }
  return arrayAt(WHAT, parsed, LIST);
}

/** The county rows, checked in place (no copy of the rows) for the fields normalize reads. */
export function readRaw(raw: unknown): PgeCounty[] {
  const root = objectAt(WHAT, raw, '');
  const data = root.data;
  const field = isObj(data) ? data.getOutagesByCounty : undefined;
  checkErrors(root, field);
  objectAt(WHAT, data, 'data');
  const rows = listOf(field);
  for (let i = 0; i < rows.length; i++) {
    const r = objectAt(WHAT, rows[i], LIST, i);
    if (typeof r.county !== 'string') misfit(WHAT, LIST, i, 'county', 'string', r.county);
    if (!numOrText(r.totalCustomersImpacted))
      misfit(WHAT, LIST, i, 'totalCustomersImpacted', 'number or string', r.totalCustomersImpacted);
  }
  return rows as PgeCounty[];
}
