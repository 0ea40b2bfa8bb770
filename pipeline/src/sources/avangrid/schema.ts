// Avangrid outagedata answers (`?filter=county` and `?filter=town`): GeoJSON FeatureCollections whose feature
// properties carry the counts; the county answer also carries the opco's totals at its top level. Checked in place,
// only what normalize reads.
import { arrayAt, isObj, misfit, nullish, objectAt, optNumOrText, optObj, optText, type Obj } from '../checks.ts';

type NumText = number | string | null | undefined;

/** A feature's properties as far as normalize reads them (the same keys at every level; unread keys pass through). */
export interface AvangridProps {
  /** `county`, `town` or `street` (a street row is one incident on that street) */
  level?: string | null;
  /** upper-case county name without a state, `PENOBSCOT` */
  county?: string | null;
  town?: string | null;
  hamlet?: string | null;
  street?: string | null;
  /** customers served in the county, town or street */
  customers?: NumText;
  /** customers out (the name notwithstanding) */
  Outages?: NumText;
  /** wall clock without a zone, `7/16/2026 6:30:00 PM`, or '' */
  EstRest?: string | null;
  /** street rows: crew code (`DISP `, `ENRT `), cause text, incident id */
  crewstatus?: string | null;
  cause?: string | null;
  incidentnumber?: NumText;
}

export interface AvangridFeature {
  properties: AvangridProps;
  geometry?: { type?: unknown; coordinates?: unknown } | null;
}

export interface AvangridAnswer {
  /** the county answer's features; null when the answer carries none (a recorded bundle keeps only its totals) */
  counties: AvangridFeature[] | null;
  towns: AvangridFeature[];
  /** the county answer's top-level totals: customers served, customers out */
  customers: NumText;
  outages: NumText;
}

export const WHAT = 'Avangrid outagedata answer';
const TEXTS = ['level', 'county', 'town', 'hamlet', 'street', 'EstRest', 'crewstatus', 'cause'] as const;
const COUNTS = ['customers', 'Outages', 'incidentnumber'] as const;

function checkFeature(v: unknown, at: string, i: number): void {
  const f = objectAt(WHAT, v, at, i);
  const p = objectAt(WHAT, f.properties, `${at}.${i}.properties`);
  for (const k of TEXTS) if (!optText(p[k])) misfit(WHAT, `${at}.${i}.properties`, -1, k, 'string', p[k]);
  for (const k of COUNTS)
    if (!optNumOrText(p[k])) misfit(WHAT, `${at}.${i}.properties`, -1, k, 'number or string', p[k]);
  if (!optObj(f.geometry)) misfit(WHAT, at, i, 'geometry', 'object', f.geometry);
}

function features(answer: Obj, at: string): AvangridFeature[] | null {
  if (nullish(answer.features)) return null;
  const list = arrayAt(WHAT, answer.features, `${at}.features`);
  for (let i = 0; i < list.length; i++) checkFeature(list[i], `${at}.features`, i);
  return list as AvangridFeature[];
}

/** Both answers, checked in place (no copy). A town answer without features is a day with no town out. */
export function readRaw(raw: unknown): AvangridAnswer {
  const root = objectAt(WHAT, raw, '');
  const county = objectAt(WHAT, root.county, 'county');
  const town = objectAt(WHAT, root.town, 'town');
  for (const k of ['customers', 'outages'] as const)
    if (!optNumOrText(county[k])) misfit(WHAT, 'county', -1, k, 'number or string', county[k]);
  return {
    counties: features(county, 'county'),
    towns: features(town, 'town') ?? [],
    customers: county.customers as NumText,
    outages: county.outages as NumText,
  };
}

/** The point of a Point geometry, else null (towns may come as polygons or without geometry). */
export function pointOf(f: AvangridFeature): [number, number] | null {
  const g = f.geometry;
  if (!isObj(g) || g.type !== 'Point' || !Array.isArray(g.coordinates)) return null;
  const [lon, lat] = g.coordinates as unknown[];
  return typeof lon === 'number' &&
    typeof lat === 'number' &&
    Math.abs(lon) <= 180 &&
    Math.abs(lat) <= 90 &&
    !(lon === 0 && lat === 0)
    ? [lon, lat]
    : null;
}
