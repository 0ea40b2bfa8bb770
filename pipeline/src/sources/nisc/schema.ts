// NISC hosted outage map (`…/data/summary.json`) upstream shape, checked by hand for only what normalize reads.
import {
  arrayAt,
  fail,
  isObj,
  misfit,
  numOrText,
  objectAt,
  optArray,
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

const WHAT = 'NISC summary.json';
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
