// SienaTech UpdatePushpin XML: a .NET DataSet, `<NewDataSet><OMSCASES><SERIAL/><CURCUST/>…</OMSCASES>…</NewDataSet>`,
// every field a child element, parsed with fast-xml-parser and checked in place for only what normalize reads.
import { xmlParser } from '../xml.ts';
import { SourceError } from '../../errors.ts';
import { fail, isObj, misfit, objectAt, optText } from '../checks.ts';

/** Every leaf is text (parseTagValue off): '' for an empty element, undefined for an absent one. */
type Text = string | undefined;

/** One `<OMSCASES>` row: one outage case of the OMS. PLANNED (0 in the sample) passes through unread. */
export interface SienaCase {
  SERIAL?: Text;
  /** customers out now */
  CURCUST?: Text;
  /** customers out when the case opened; stands in when CURCUST is blank */
  INITCUST?: Text;
  AVGLAT?: Text;
  AVGLONG?: Text;
  /** `2026-06-29 09:00:00`, Mountain wall clock; empty when none */
  RESTORETIM?: Text;
  DESC_CAUSE?: Text;
}

const WHAT = 'SienaTech pushpin XML';
const ROOT = 'NewDataSet';
const AT = 'NewDataSet.OMSCASES';
const FIELDS = ['SERIAL', 'CURCUST', 'INITCUST', 'AVGLAT', 'AVGLONG', 'RESTORETIM', 'DESC_CAUSE'] as const;

const parser = xmlParser(
  {
    // Every field is an element: with attributes ignored, no attribute can turn a field's text into an object.
    ignoreAttributes: true,
    // Values stay text, read by countOf/decimalOf: ids keep their digits as sent, and a blank stays blank.
    parseTagValue: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    // An answer with one outage has one row: it is a list of one, as an answer with many is a list.
    isArray: (name) => name === 'OMSCASES',
  },
  WHAT,
);

/** Checks one case in place; CURCUST or INITCUST must be there, since they are what counts. */
function checkCase(v: unknown, i: number): void {
  const c = objectAt(WHAT, v, AT, i);
  for (const k of FIELDS) if (!optText(c[k])) misfit(WHAT, AT, i, k, 'one text element', c[k]);
  if (c.CURCUST === undefined && c.INITCUST === undefined) misfit(WHAT, AT, i, 'CURCUST', 'an element', undefined);
}

/** What fetch returned, parsed and checked: `bad_body` when the text is not XML, `schema` when it is another shape. */
export function readRaw(raw: unknown): SienaCase[] {
  if (typeof raw !== 'string') fail(WHAT, '(root)', 'the answer text', raw);
  const doc = parser.parse(raw);
  const root = doc[ROOT];
  // `<NewDataSet />` (no outages now) parses as ''.
  if (root === '') return [];
  if (!isObj(root)) {
    const got = Object.keys(doc).join(', ') || 'none';
    throw new SourceError('schema', `${WHAT} has an unexpected shape: expected root element <${ROOT}>, got <${got}>`);
  }
  const list = root.OMSCASES;
  if (list === undefined) return [];
  if (!Array.isArray(list)) return fail(WHAT, AT, 'a list of <OMSCASES> elements', list);
  for (let i = 0; i < list.length; i++) checkCase(list[i], i);
  return list as SienaCase[];
}
