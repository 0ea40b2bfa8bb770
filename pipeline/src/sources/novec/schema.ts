// NOVEC outage XML: `<outages><outage numOut county lat lng eTime cause id/>…</outages>`, every field an attribute,
// parsed with fast-xml-parser and checked in place for only what normalize reads.
import { xmlParser } from '../xml.ts';
import { SourceError } from '../../errors.ts';
import { fail, isObj, misfit, objectAt, optText } from '../checks.ts';

/**
 * One `<outage>` as parsed: its attributes under `@name`, as text (attribute values are not parsed); undefined when
 * absent. The prefix keeps a child element from ever taking an attribute's place.
 */
export interface NovecOutage {
  '@id'?: string;
  /** customers out, digits */
  '@numOut': string;
  /** two-letter county code: `PW` (Prince William), `FX` (Fairfax) */
  '@county'?: string;
  '@lat'?: string;
  '@lng'?: string;
  /** `11:02 PM 06/24/2026`, Eastern wall clock; empty when none */
  '@eTime'?: string;
  '@cause'?: string;
  /** not in the sample; another public scraper reads it as the start time */
  '@sTime'?: string;
}

const WHAT = 'NOVEC outage XML';
const AT = 'outages.outage';
const OPTIONAL = ['@id', '@county', '@lat', '@lng', '@eTime', '@cause', '@sTime'] as const;

const parser = xmlParser(
  {
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    // Values stay text, read by countOf/decimalOf: ids keep their digits as sent, and a blank stays blank.
    parseAttributeValue: false,
    parseTagValue: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    // A file with one outage has one element: it is a list of one, as a file with many is a list.
    isArray: (name) => name === 'outage',
  },
  WHAT,
);

/** Checks one outage in place; `numOut` must be there, since it is what counts. */
function checkOutage(v: unknown, i: number): void {
  const o = objectAt(WHAT, v, AT, i);
  if (typeof o['@numOut'] !== 'string') misfit(WHAT, AT, i, '@numOut', 'an attribute', o['@numOut']);
  for (const k of OPTIONAL) if (!optText(o[k])) misfit(WHAT, AT, i, k, 'an attribute', o[k]);
}

/** What fetch returned, parsed and checked: `bad_body` when the text is not XML, `schema` when it is another shape. */
export function readRaw(raw: unknown): NovecOutage[] {
  if (typeof raw !== 'string') fail(WHAT, '(root)', 'the answer text', raw);
  const doc = parser.parse(raw);
  const root = doc.outages;
  // `<outages/>` (no outages now) parses as ''.
  if (root === '') return [];
  if (!isObj(root)) {
    const got = Object.keys(doc).join(', ') || 'none';
    throw new SourceError('schema', `${WHAT} has an unexpected shape: expected root element <outages>, got <${got}>`);
  }
  const list = root.outage;
  if (list === undefined) return [];
  if (!Array.isArray(list)) return fail(WHAT, AT, 'a list of <outage> elements', list);
  for (let i = 0; i < list.length; i++) checkOutage(list[i], i);
  return list as NovecOutage[];
}
