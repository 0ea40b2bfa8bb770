// Snohomish County PUD KMLOutageAreas answer (KML 2.2): `<kml><Document><Folder><Placemark>` per outage area, each with
// `<name>` (its id), `<ExtendedData><Data name="…"><value>` fields (StartUTC, Cause, EstCustomersOut,
// EstimatedRestorationUTC, OutageStatus, …) and a `<Polygon>` (or `<MultiGeometry>` of them, or a `<Point>`). Parsed
// with fast-xml-parser and checked in place for only what normalize reads.
import { xmlParser } from '../xml.ts';
import { SourceError } from '../../errors.ts';
import { fail, isObj, misfit, nullish, objectAt, optText, type Obj } from '../checks.ts';

/** One outage area as normalize reads it. */
export interface Area {
  /** `<name>`: SnoPUD's id of the area */
  name: string | null;
  /** the ExtendedData fields by name, as text */
  data: Map<string, string>;
  /** the `<coordinates>` text of the first polygon's outer ring (or of the point): `lon,lat[,alt] …` */
  coordinates: string | null;
}

const WHAT = 'Snohomish PUD KMLOutageAreas answer';
const LISTS = new Set(['Document', 'Folder', 'Placemark', 'Data', 'Polygon']);

/** A polygon ring is one text: KML has no other way to write it. 256 K characters is ~7,000 vertices. */
const MAX_RING = 256 * 1024;

const parser = xmlParser(
  {
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    parseAttributeValue: false,
    parseTagValue: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    // One Placemark (or Data, or Folder) parses as a list of one, as many parse as a list.
    isArray: (name) => LISTS.has(name),
  },
  WHAT,
  MAX_RING,
);

const listOf = (v: unknown): unknown[] => (nullish(v) || v === '' ? [] : Array.isArray(v) ? v : [v]);

/** The ExtendedData fields of placemark `at`: each `<Data name>`'s `<value>` text (an empty value is ''). */
function dataOf(ext: unknown, at: string): Map<string, string> {
  const out = new Map<string, string>();
  if (nullish(ext) || ext === '') return out;
  const data = listOf(objectAt(WHAT, ext, `${at}.ExtendedData`).Data);
  for (let j = 0; j < data.length; j++) {
    const d = objectAt(WHAT, data[j], `${at}.ExtendedData.Data`, j);
    const name = d['@name'];
    if (typeof name !== 'string') misfit(WHAT, `${at}.ExtendedData.Data`, j, '@name', 'an attribute', name);
    const value = d.value ?? '';
    if (typeof value !== 'string') misfit(WHAT, `${at}.ExtendedData.Data`, j, 'value', 'text', value);
    if (!out.has(name)) out.set(name, value);
  }
  return out;
}

/** The coordinates text of a Polygon's outer ring, else null. */
function ringOf(polygon: unknown, at: string): string | null {
  if (!isObj(polygon)) return null;
  const ring = (polygon.outerBoundaryIs as Obj | undefined)?.LinearRing as Obj | undefined;
  const c = isObj(ring) ? ring.coordinates : undefined;
  if (!optText(c)) fail(WHAT, `${at}.outerBoundaryIs.LinearRing.coordinates`, 'text', c);
  return (c as string | undefined) ?? null;
}

/** Where the placemark is: its first polygon's outer ring, a MultiGeometry's first polygon, or its point. */
function coordinatesOf(p: Obj, at: string): string | null {
  const polygons = listOf(p.Polygon);
  if (polygons.length) return ringOf(polygons[0], `${at}.Polygon.0`);
  const multi = p.MultiGeometry;
  if (isObj(multi)) {
    const inner = listOf(multi.Polygon);
    if (inner.length) return ringOf(inner[0], `${at}.MultiGeometry.Polygon.0`);
  }
  const point = p.Point;
  if (isObj(point) && !optText(point.coordinates)) fail(WHAT, `${at}.Point.coordinates`, 'text', point.coordinates);
  return isObj(point) ? ((point.coordinates as string | undefined) ?? null) : null;
}

function areaOf(v: unknown, at: string): Area {
  const p = objectAt(WHAT, v, at);
  const name = p.name;
  if (!optText(name)) fail(WHAT, `${at}.name`, 'text', name);
  return {
    name: (name as string | undefined)?.trim() || null,
    data: dataOf(p.ExtendedData, at),
    coordinates: coordinatesOf(p, at),
  };
}

/**
 * What fetch returned (the answer's text), parsed and checked: `bad_body` when it is not XML, `schema` when it is not
 * KML. Every Placemark of every Document and Folder is an area (the recorded test answer has two Documents).
 */
export function readRaw(raw: unknown): Area[] {
  if (typeof raw !== 'string') fail(WHAT, '(root)', 'the answer text', raw);
  const doc = parser.parse(raw);
  const kml = doc.kml;
  if (kml === '') return [];
  if (!isObj(kml)) {
    const got = Object.keys(doc).join(', ') || 'none';
    throw new SourceError('schema', `${WHAT} has an unexpected shape: expected root element <kml>, got <${got}>`);
  }
  const areas: Area[] = [];
  const docs = listOf(kml.Document);
  for (let d = 0; d < docs.length; d++) {
    if (docs[d] === '') continue;
    const document = objectAt(WHAT, docs[d], 'kml.Document', d);
    const placemarks = (at: string, owner: Obj) => {
      const list = listOf(owner.Placemark);
      for (let i = 0; i < list.length; i++) areas.push(areaOf(list[i], `${at}.Placemark.${i}`));
    };
    placemarks(`kml.Document.${d}`, document);
    const folders = listOf(document.Folder);
    for (let f = 0; f < folders.length; f++) {
      if (folders[f] === '') continue;
      placemarks(`kml.Document.${d}.Folder.${f}`, objectAt(WHAT, folders[f], `kml.Document.${d}.Folder`, f));
    }
  }
  return areas;
}
