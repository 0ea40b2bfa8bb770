// AES outage XML in its two forms: AES Indiana's `<OutageData>` (a headline and `<Incidents><Marker>…`) and AES Ohio's
// `<Incidents>` (`<Markers>…` and a `<Message>` headline), parsed with fast-xml-parser and checked in place for only
// what normalize reads.
import { xmlParser } from '../xml.ts';
import { SourceError } from '../../errors.ts';
import { fail, isObj, misfit, objectAt, optText, type Obj } from '../checks.ts';

export type AesFormat = 'indiana' | 'ohio';

/** What fetch returns: the answer's text as sent, and the form its URL says it is in. */
export interface AesRaw {
  format: AesFormat;
  xml: string;
}

/** Every leaf is text (parseTagValue off): '' for an empty element, undefined for an absent one. */
type Text = string | undefined;

/** One `<Marker>` of OMSDATA_OSI.xml; `outageType` is `OUTAGE` in the sample. */
export interface IndianaMarker {
  IncidentId?: Text;
  CustAffected?: Text;
  Lat?: Text;
  Long?: Text;
  /** `06/24/2026 07:00 PM`, Indianapolis wall clock; empty when none */
  Etr?: Text;
  outageType?: Text;
}

/** One `<Markers>` of DPLOMSDATA.xml; IND and `total` pass through unread. */
export interface OhioMarker {
  INCIDENTID?: Text;
  TOTALCUSTS?: Text;
  LAT?: Text;
  LNG?: Text;
  /** upper case, without "County": `MONTGOMERY`, `VAN WERT` */
  COUNTY?: Text;
  /** `06/24/2026 03:23 PM`, Eastern wall clock */
  OutageTime?: Text;
  EstimateTime?: Text;
}

/** The answer as normalize reads it: its markers and the feed's own headline (customers out), when it has one. */
export type AesAnswer =
  | { format: 'indiana'; total: Text; markers: IndianaMarker[] }
  | { format: 'ohio'; total: Text; markers: OhioMarker[] };

const WHAT = 'AES outage XML';

const parser = xmlParser(
  {
    // Every field is an element: with attributes ignored, no attribute can turn a field's text into an object.
    ignoreAttributes: true,
    // Numbers stay text and are read by countOf/decimalOf: ids keep their digits as sent, and a blank stays blank.
    parseTagValue: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    // A file with one outage has one marker element: it is a list of one, as a file with many is a list.
    isArray: (name) => name === 'Marker' || name === 'Markers',
  },
  WHAT,
);

/** The root element's content ('' when empty: an answer without outages), or `schema` when the root is another. */
function rootOf(doc: Obj, name: string): Obj | null {
  const root = doc[name];
  if (root === '') return null;
  if (isObj(root)) return root;
  const got = Object.keys(doc).join(', ') || 'none';
  throw new SourceError('schema', `${WHAT} has an unexpected shape: expected root element <${name}>, got <${got}>`);
}

/** The marker list at `parent[key]` (absent, or an empty parent: none), each marker checked by `check`. */
function markersAt(parent: Obj | null, key: string, at: string, check: (m: Obj, i: number) => void): Obj[] {
  const list = parent?.[key];
  if (list === undefined) return [];
  if (!Array.isArray(list)) return fail(WHAT, at, `a list of <${key}> elements`, list);
  for (let i = 0; i < list.length; i++) check(objectAt(WHAT, list[i], at, i), i);
  return list as Obj[];
}

const ONE = 'one text element';
const IN_AT = 'OutageData.Incidents.Marker';
const OH_AT = 'Incidents.Markers';

function checkIndiana(m: Obj, i: number): void {
  if (!optText(m.IncidentId)) misfit(WHAT, IN_AT, i, 'IncidentId', ONE, m.IncidentId);
  if (!optText(m.CustAffected)) misfit(WHAT, IN_AT, i, 'CustAffected', ONE, m.CustAffected);
  if (!optText(m.Lat)) misfit(WHAT, IN_AT, i, 'Lat', ONE, m.Lat);
  if (!optText(m.Long)) misfit(WHAT, IN_AT, i, 'Long', ONE, m.Long);
  if (!optText(m.Etr)) misfit(WHAT, IN_AT, i, 'Etr', ONE, m.Etr);
  if (!optText(m.outageType)) misfit(WHAT, IN_AT, i, 'outageType', ONE, m.outageType);
}

function checkOhio(m: Obj, i: number): void {
  if (!optText(m.INCIDENTID)) misfit(WHAT, OH_AT, i, 'INCIDENTID', ONE, m.INCIDENTID);
  if (!optText(m.TOTALCUSTS)) misfit(WHAT, OH_AT, i, 'TOTALCUSTS', ONE, m.TOTALCUSTS);
  if (!optText(m.LAT)) misfit(WHAT, OH_AT, i, 'LAT', ONE, m.LAT);
  if (!optText(m.LNG)) misfit(WHAT, OH_AT, i, 'LNG', ONE, m.LNG);
  if (!optText(m.COUNTY)) misfit(WHAT, OH_AT, i, 'COUNTY', ONE, m.COUNTY);
  if (!optText(m.OutageTime)) misfit(WHAT, OH_AT, i, 'OutageTime', ONE, m.OutageTime);
  if (!optText(m.EstimateTime)) misfit(WHAT, OH_AT, i, 'EstimateTime', ONE, m.EstimateTime);
}

/** A single text element (the headline), or the failure naming it. */
function textAt(parent: Obj | null, key: string, at: string): Text {
  const v = parent?.[key];
  if (!optText(v)) fail(WHAT, at, ONE, v);
  return v as Text;
}

/** An optional section (Indiana's `<Incidents>`, Ohio's `<Message>`): null when absent or empty. */
function sectionAt(parent: Obj | null, key: string, at: string): Obj | null {
  const v = parent?.[key];
  if (v === undefined || v === '') return null;
  return objectAt(WHAT, v, at);
}

function readIndiana(doc: Obj): AesAnswer {
  const root = rootOf(doc, 'OutageData');
  const total = textAt(root, 'TotalCustAffected', 'OutageData.TotalCustAffected');
  const incidents = sectionAt(root, 'Incidents', 'OutageData.Incidents');
  const markers = markersAt(incidents, 'Marker', IN_AT, checkIndiana);
  return { format: 'indiana', total, markers: markers as IndianaMarker[] };
}

function readOhio(doc: Obj): AesAnswer {
  const root = rootOf(doc, 'Incidents');
  const message = sectionAt(root, 'Message', 'Incidents.Message');
  const total = textAt(message, 'TotalOut', 'Incidents.Message.TotalOut');
  const markers = markersAt(root, 'Markers', OH_AT, checkOhio);
  return { format: 'ohio', total, markers: markers as OhioMarker[] };
}

/** What fetch returned, parsed and checked: `bad_body` when the text is not XML, `schema` when it is another shape. */
export function readRaw(raw: unknown): AesAnswer {
  const r = objectAt(WHAT, raw, '');
  if (r.format !== 'indiana' && r.format !== 'ohio') fail(WHAT, 'format', '"indiana" or "ohio"', r.format);
  if (typeof r.xml !== 'string') fail(WHAT, 'xml', 'the answer text', r.xml);
  const doc = parser.parse(r.xml);
  return r.format === 'indiana' ? readIndiana(doc) : readOhio(doc);
}
