// NorthWestern Energy get-outage-map-data answer: `{d: "<JSON text>"}` (an ASP.NET page method's wrapper) whose text
// is a list of outage points; checked in place for only what normalize reads.
import { SourceError } from '../../errors.ts';
import { countOf, fail, isObj, kind, misfit, objectAt, optNumOrText, optText } from '../checks.ts';

type Text = string | null | undefined;
type NumText = number | string | null | undefined;

/** One outage point, as far as normalize reads it (the peer's sample has no other fields). */
export interface NweOutage {
  /** customers out: a number, or a count as text */
  NUM_CUST: number | string;
  /** a town in the sample ("Great Falls") */
  AREA?: Text;
  LATITUDE?: NumText;
  LONGITUDE?: NumText;
  /** wall clock without a zone in the sample, e.g. `2026-06-24T20:00:00` */
  ETR?: Text;
}

const WHAT = 'NorthWestern Energy get-outage-map-data answer';
/** The list lives in the answer's `d` text: failures name their path from there. */
const AT = 'd';

/** The document inside the answer's `d` text, parsed a second time; a `d` that is not JSON text fails the poll. */
export function innerOf(answer: unknown): unknown {
  const root = objectAt(WHAT, answer, '');
  const text = root.d;
  if (typeof text !== 'string') return fail(WHAT, AT, 'string (JSON text)', text);
  try {
    return JSON.parse(text);
  } catch {
    throw new SourceError('bad_body', `${WHAT}: d is not JSON text (starts with ${JSON.stringify(text.slice(0, 40))})`);
  }
}

function checkOutage(v: unknown, i: number): void {
  const o = objectAt(WHAT, v, AT, i);
  // The count is what the feed is read for: a row without one is a changed feed, not an outage of no one.
  if (countOf(o.NUM_CUST) === null) misfit(WHAT, AT, i, 'NUM_CUST', 'a count (number or digits)', o.NUM_CUST);
  if (!optText(o.AREA)) misfit(WHAT, AT, i, 'AREA', 'string', o.AREA);
  if (!optNumOrText(o.LATITUDE)) misfit(WHAT, AT, i, 'LATITUDE', 'number or string', o.LATITUDE);
  if (!optNumOrText(o.LONGITUDE)) misfit(WHAT, AT, i, 'LONGITUDE', 'number or string', o.LONGITUDE);
  if (!optText(o.ETR)) misfit(WHAT, AT, i, 'ETR', 'string', o.ETR);
}

/** The outage list (the parsed `d` document), checked in place (no copy). */
export function readRaw(list: unknown): NweOutage[] {
  if (!Array.isArray(list)) {
    // ASP.NET reports a server error as `{Message, StackTrace, ExceptionType}` in the same wrapper.
    const said = isObj(list) && typeof list.Message === 'string' ? ` (Message: ${list.Message.slice(0, 120)})` : '';
    throw new SourceError('schema', `${WHAT} has an unexpected shape: ${AT}: expected array, got ${kind(list)}${said}`);
  }
  for (let i = 0; i < list.length; i++) checkOutage(list[i], i);
  return list as NweOutage[];
}
