// Kubra StormCenter upstream shapes: currentState, configuration (zod, small), report (V2 area tree) and thematic
// areas (checked by hand, only what normalize reads).
import { z } from 'zod';
import { arrayAt, fail, isObj, misfit, nullish, objectAt, optArray, optNumber, optText } from '../checks.ts';

export const currentStateSchema = z
  .object({
    stormcenterDeploymentId: z.string().min(1),
    data: z
      .object({ interval_generation_data: z.string().min(1), cluster_interval_generation_data: z.string().optional() })
      .loose(),
  })
  .loose();

/** Reports are listed under config.reports (array, or object holding arrays) with an id and a type. */
export const reportRefSchema = z.object({ id: z.string().min(1), type: z.string().optional() }).loose();
export const configurationSchema = z.object({ config: z.object({ reports: z.unknown().optional() }).loose() }).loose();

/** A count: a number, or `{val, masked}`; null or absent when the area has none. */
export type KubraCountValue = number | { val?: number | null; masked?: boolean; [k: string]: unknown } | null;

export interface KubraArea {
  name?: string | null;
  area_name?: string | null;
  key?: string | null;
  areaId?: string | null;
  cust_a?: KubraCountValue;
  cust_s?: number | null;
  etr?: string | null;
  gotoMap?: { bbox?: unknown[] | null; [k: string]: unknown } | null;
  areas?: KubraArea[] | null;
  [k: string]: unknown;
}

export interface KubraReport {
  file_data: { areas: KubraArea[]; totals?: { cust_a?: KubraCountValue; cust_s?: number | null } | null };
}

export interface KubraThematic {
  file_data: Array<{
    id?: string | null;
    title?: string | null;
    desc: { name?: string | null; cust_a?: KubraCountValue; cust_s?: number | null; etr?: string | null };
  }>;
}

const COUNT = 'a number or {val: number, masked: boolean}';
const isCount = (v: unknown): boolean =>
  v === null ||
  v === undefined ||
  typeof v === 'number' ||
  (isObj(v) && optNumber(v.val) && (v.masked === undefined || typeof v.masked === 'boolean'));
const isGotoMap = (v: unknown): boolean => v === null || v === undefined || (isObj(v) && optArray(v.bbox));

/** An area list and every list below it; a nested list's path is built only for an area that has one. */
function checkAreas(what: string, list: unknown, at: string): void {
  const areas = arrayAt(what, list, at);
  for (let i = 0; i < areas.length; i++) {
    const a = objectAt(what, areas[i], at, i);
    if (!optText(a.name)) misfit(what, at, i, 'name', 'string', a.name);
    if (!optText(a.area_name)) misfit(what, at, i, 'area_name', 'string', a.area_name);
    if (!optText(a.key)) misfit(what, at, i, 'key', 'string', a.key);
    if (!optText(a.areaId)) misfit(what, at, i, 'areaId', 'string', a.areaId);
    if (!isCount(a.cust_a)) misfit(what, at, i, 'cust_a', COUNT, a.cust_a);
    if (!optNumber(a.cust_s)) misfit(what, at, i, 'cust_s', 'number', a.cust_s);
    if (!optText(a.etr)) misfit(what, at, i, 'etr', 'string', a.etr);
    if (!isGotoMap(a.gotoMap)) misfit(what, at, i, 'gotoMap', 'an object whose bbox is an array', a.gotoMap);
    if (nullish(a.areas)) continue;
    if (!Array.isArray(a.areas)) misfit(what, at, i, 'areas', 'array', a.areas);
    if (a.areas.length > 0) checkAreas(what, a.areas, `${at}.${i}.areas`);
  }
}

/** The V2 report (area tree and totals), checked in place for what normalize reads. */
export function readReport(raw: unknown, what: string): KubraReport {
  const data = objectAt(what, objectAt(what, raw, '').file_data, 'file_data');
  checkAreas(what, data.areas, 'file_data.areas');
  const totals = data.totals;
  if (nullish(totals)) return raw as KubraReport;
  const t = objectAt(what, totals, 'file_data.totals');
  if (!isCount(t.cust_a)) fail(what, 'file_data.totals.cust_a', COUNT, t.cust_a);
  if (!optNumber(t.cust_s)) fail(what, 'file_data.totals.cust_s', 'number', t.cust_s);
  return raw as KubraReport;
}

/** The thematic areas (one item per county), checked in place for what normalize reads. */
export function readThematic(raw: unknown, what: string): KubraThematic {
  const items = arrayAt(what, objectAt(what, raw, '').file_data, 'file_data');
  for (let i = 0; i < items.length; i++) {
    const item = objectAt(what, items[i], 'file_data', i);
    if (!optText(item.id)) misfit(what, 'file_data', i, 'id', 'string', item.id);
    if (!optText(item.title)) misfit(what, 'file_data', i, 'title', 'string', item.title);
    if (!isObj(item.desc)) misfit(what, 'file_data', i, 'desc', 'object', item.desc);
    const d = item.desc;
    if (!optText(d.name)) fail(what, `file_data.${i}.desc.name`, 'string', d.name);
    if (!isCount(d.cust_a)) fail(what, `file_data.${i}.desc.cust_a`, COUNT, d.cust_a);
    if (!optNumber(d.cust_s)) fail(what, `file_data.${i}.desc.cust_s`, 'number', d.cust_s);
    if (!optText(d.etr)) fail(what, `file_data.${i}.desc.etr`, 'string', d.etr);
  }
  return raw as KubraThematic;
}

/** What fetch hands to normalize: the report when the deployment has one, the thematic areas otherwise, neither when
 * the counties come from the cluster layer's points (`options.counties: "clusters"`); plus the cluster layer's
 * outages and the summary file when the registry asks for them. */
export interface KubraRaw {
  report?: unknown;
  thematic?: unknown;
  clusters?: import('./clusters.ts').ClusterRecord[];
  summary?: unknown;
}
