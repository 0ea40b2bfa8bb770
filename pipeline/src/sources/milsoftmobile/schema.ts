// Milsoft/DataVoice mobile service answers (`…/MobileMap/OMSMobileService.asmx`, XML): GetAllCounties'
// `<ArrayOfMobileCounty>` of `<MobileCounty>{CountyName, CustomersServed, CustomersAffected, Shape}` and GetAllOutages'
// `<MobileOutageInfo>` (`<Outages><MobileOutage>…`, `TotalCustAffected`, `TotalCustomers`). Parsed with
// fast-xml-parser under the shared XML bounds (xml.ts), then checked by a zod schema of only what normalize reads;
// every leaf is text.
import { z } from 'zod';
import { SourceError } from '../../errors.ts';
import { fail, objectAt } from '../checks.ts';
import { parseUpstream } from '../parse.ts';
import { xmlParser } from '../xml.ts';

/** What fetch returns: each answer's text as sent; a recorded file fills one of the two (recorded.ts). */
export interface MilsoftMobileRaw {
  counties: string | null;
  outages: string | null;
}

/** Every leaf is text (parseTagValue off): '' for an empty element (`<Cause />`, `xsi:nil`), undefined when absent. */
const text = z.string().optional();

export const countySchema = z.object({
  CountyName: z.string(),
  CustomersServed: text,
  CustomersAffected: text,
  /** the county's outline, `lon,lat;lon,lat;…` */
  Shape: text,
});
export const outageSchema = z.object({
  CaseNumber: text,
  ElementName: text,
  /** [sic]: the service's spelling; the right one is read too */
  CutomersAffected: text,
  CustomersAffected: text,
  /** `6/29/2026 10:23:00 AM`, the utility's wall clock */
  OutageTime: text,
  RestorationTime: text,
  CaseStatus: text,
  Cause: text,
  X: text,
  Y: text,
  Assigned: text,
});
/** An empty element parses as '': a list with nothing in it (no counties, no outages). */
const orEmpty = <T extends z.ZodType>(inner: T) => z.preprocess((v) => (v === '' ? {} : v), inner);
const countiesSchema = orEmpty(z.object({ MobileCounty: z.array(countySchema).optional() }));
const infoSchema = orEmpty(
  z.object({
    Outages: orEmpty(z.object({ MobileOutage: z.array(outageSchema).optional() })).optional(),
    TotalCustAffected: text,
    TotalCustomers: text,
  }),
);

export type MobileCounty = z.infer<typeof countySchema>;
export type MobileOutage = z.infer<typeof outageSchema>;
export interface MobileAnswer {
  counties: MobileCounty[] | null;
  outages: { list: MobileOutage[]; totalOut: string | undefined; totalServed: string | undefined } | null;
}

const WHAT = 'Milsoft mobile service answer';
/** A county outline is one text: 256 K characters (~20,000 vertices) is far beyond the ~12 K of a real county. */
const MAX_SHAPE = 256 * 1024;
const parser = xmlParser(
  {
    ignoreAttributes: true, // only namespace declarations and xsi:nil: no attribute can turn a field into an object
    parseTagValue: false, // counts and coordinates stay text, read by countOf / decimalOf
    ignoreDeclaration: true,
    ignorePiTags: true,
    // One county (or outage) parses as a list of one, as many parse as a list.
    isArray: (name) => name === 'MobileCounty' || name === 'MobileOutage',
  },
  WHAT,
  MAX_SHAPE,
);

/** The root element's content, or the `schema` failure naming the root that was expected. */
function rootOf(xml: string, name: string): unknown {
  const doc = parser.parse(xml);
  if (name in doc) return doc[name];
  const got = Object.keys(doc).join(', ') || 'none';
  throw new SourceError('schema', `${WHAT} has an unexpected shape: expected root element <${name}>, got <${got}>`);
}

function readCounties(xml: string): MobileCounty[] {
  const root = parseUpstream(countiesSchema, rootOf(xml, 'ArrayOfMobileCounty'), `${WHAT} (GetAllCounties)`);
  return root.MobileCounty ?? [];
}

function readOutages(xml: string): NonNullable<MobileAnswer['outages']> {
  const info = parseUpstream(infoSchema, rootOf(xml, 'MobileOutageInfo'), `${WHAT} (GetAllOutages)`);
  const list = info.Outages?.MobileOutage ?? [];
  return { list, totalOut: info.TotalCustAffected, totalServed: info.TotalCustomers };
}

/** What fetch returned, parsed and checked: `bad_body` when a text is not XML, `schema` when it is another shape. */
export function readRaw(raw: unknown): MobileAnswer {
  const { counties, outages } = objectAt(WHAT, raw, '');
  if (counties !== null && typeof counties !== 'string') fail(WHAT, 'counties', 'the answer text or null', counties);
  if (outages !== null && typeof outages !== 'string') fail(WHAT, 'outages', 'the answer text or null', outages);
  if (counties === null && outages === null) fail(WHAT, '(root)', 'at least one answer', null);
  return {
    counties: typeof counties === 'string' ? readCounties(counties) : null,
    outages: typeof outages === 'string' ? readOutages(outages) : null,
  };
}
