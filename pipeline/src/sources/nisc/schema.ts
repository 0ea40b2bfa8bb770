// NISC hosted outage map upstream shapes (`summary.json`, and `config.json`'s map extent), checked by hand for only
// what normalize reads.
import {
  arrayAt,
  fail,
  isObj,
  misfit,
  numOrText,
  objectAt,
  optArray,
  optBoolean,
  optNumber,
  optText,
  type Obj,
} from '../checks.ts';

export interface NiscOutage {
  id: string | number;
  nbrOut?: number | null;
  estimateTime?: number | null;
  outagePoint?: { lat: number; lng: number } | null;
  cause?: string | null;
  crewStatus?: string | null;
  startTime?: number | null;
  /** when the outage began (epoch ms); some tenants send it instead of startTime */
  timeOff?: number | null;
  /** metres east and north of the map's boundaryExtent corner (Web Mercator), when there is no outagePoint */
  x?: number | null;
  y?: number | null;
  /** a planned (scheduled) outage: counted (it leaves customers without power), and flagged `planned` */
  planned?: boolean | null;
}
export interface NiscRegion {
  id: string;
  numberOut?: number | null;
  numberServed?: number | null;
}
export interface NiscRegionSet {
  id: string;
  description?: string | null;
  regions: NiscRegion[];
}
export interface NiscSummary {
  totalServed?: number | null;
  outages?: NiscOutage[] | null;
  regionDataSets?: NiscRegionSet[] | null;
}

export const WHAT = 'NISC summary.json';
const isPoint = (v: unknown) =>
  v === null || v === undefined || (isObj(v) && typeof v.lat === 'number' && typeof v.lng === 'number');

function checkOutage(o: Obj, i: number): void {
  const at = 'outages';
  if (!numOrText(o.id)) misfit(WHAT, at, i, 'id', 'number or string', o.id);
  if (!optNumber(o.nbrOut)) misfit(WHAT, at, i, 'nbrOut', 'number', o.nbrOut);
  if (!optNumber(o.estimateTime)) misfit(WHAT, at, i, 'estimateTime', 'number', o.estimateTime);
  if (!isPoint(o.outagePoint)) misfit(WHAT, at, i, 'outagePoint', '{lat: number, lng: number}', o.outagePoint);
  if (!optText(o.cause)) misfit(WHAT, at, i, 'cause', 'string', o.cause);
  if (!optText(o.crewStatus)) misfit(WHAT, at, i, 'crewStatus', 'string', o.crewStatus);
  if (!optNumber(o.startTime)) misfit(WHAT, at, i, 'startTime', 'number', o.startTime);
  if (!optNumber(o.timeOff)) misfit(WHAT, at, i, 'timeOff', 'number', o.timeOff);
  if (!optNumber(o.x)) misfit(WHAT, at, i, 'x', 'number', o.x);
  if (!optNumber(o.y)) misfit(WHAT, at, i, 'y', 'number', o.y);
  if (!optBoolean(o.planned)) misfit(WHAT, at, i, 'planned', 'boolean', o.planned);
}

function checkRegions(list: unknown, at: string): void {
  const regions = arrayAt(WHAT, list, at);
  for (let i = 0; i < regions.length; i++) {
    const r = objectAt(WHAT, regions[i], at, i);
    if (typeof r.id !== 'string') misfit(WHAT, at, i, 'id', 'string', r.id);
    if (!optNumber(r.numberOut)) misfit(WHAT, at, i, 'numberOut', 'number', r.numberOut);
    if (!optNumber(r.numberServed)) misfit(WHAT, at, i, 'numberServed', 'number', r.numberServed);
  }
}

/** The summary, checked in place (no copy): the region sets, the outages and the served total. */
export function readSummary(raw: unknown): NiscSummary {
  const data = objectAt(WHAT, raw, '');
  if (!optNumber(data.totalServed)) fail(WHAT, 'totalServed', 'number', data.totalServed);
  if (!optArray(data.outages)) fail(WHAT, 'outages', 'array', data.outages);
  if (!optArray(data.regionDataSets)) fail(WHAT, 'regionDataSets', 'array', data.regionDataSets);
  if (data.outages === undefined && data.regionDataSets === undefined)
    fail(WHAT, '(root)', 'one of `outages` or `regionDataSets` (neither is present)', raw);
  const outages = (data.outages ?? []) as unknown[];
  for (let i = 0; i < outages.length; i++) checkOutage(objectAt(WHAT, outages[i], 'outages', i), i);
  const sets = (data.regionDataSets ?? []) as unknown[];
  for (let i = 0; i < sets.length; i++) {
    const set = objectAt(WHAT, sets[i], 'regionDataSets', i);
    if (typeof set.id !== 'string') misfit(WHAT, 'regionDataSets', i, 'id', 'string', set.id);
    if (!optText(set.description)) misfit(WHAT, 'regionDataSets', i, 'description', 'string', set.description);
    checkRegions(set.regions, `regionDataSets.${i}.regions`);
  }
  return data as NiscSummary;
}

/** The region data set of counties: "omscounty", or any set whose id or description says county. */
export const isCountySet = (d: NiscRegionSet): boolean =>
  /county/i.test(d.id) || /count(y|ies)/i.test(d.description ?? '');

/** `[xmin, ymin, xmax, ymax]` in Web Mercator metres: the corner outage x/y offsets are measured from. */
export type NiscExtent = [number, number, number, number];

/**
 * config.json's `mapSettings.boundaryExtent` (else `fullExtent`, which public scrapers fall back to), or null when
 * neither is four finite numbers forming a box.
 */
export function readExtent(config: unknown): NiscExtent | null {
  const settings = isObj(config) ? config.mapSettings : undefined;
  if (!isObj(settings)) return null;
  for (const e of [settings.boundaryExtent, settings.fullExtent]) {
    if (!Array.isArray(e) || e.length !== 4 || !e.every((n) => typeof n === 'number' && Number.isFinite(n))) continue;
    if (e[2] > e[0] && e[3] > e[1]) return e as NiscExtent;
  }
  return null;
}

/** What fetch returns: the summary alone, or with config.json when the outages need its extent to be placed. */
export interface NiscRaw {
  summary: unknown;
  config?: unknown;
}

/** The raw form's parts: a bare summary.json (a saved body, the older raw form) is a summary without config. */
export function partsOf(raw: unknown): NiscRaw {
  return isObj(raw) && 'summary' in raw && !('outages' in raw) && !('regionDataSets' in raw)
    ? (raw as unknown as NiscRaw)
    : { summary: raw };
}
