// iFactor (Kubra legacy StormCenter 5) upstream shapes: metadata.json, data.json, report_*.json, thematic_areas.json.
// metadata.json (fetch's) is a zod schema. data.json, the area trees and thematic lists are checked in place by hand:
// zod copies every node of a loose object, which made parse + normalise cost 3× JSON.parse.
import { z } from 'zod';
import { arrayAt, fail, isObj, misfit, objectAt, optBoolean, optNumOrText, optText } from '../checks.ts';

/** The directory pointer; some deployments spell the key `Directory`. */
export const metadataSchema = z
  .object({ directory: z.string().optional(), Directory: z.string().optional() })
  .loose()
  .refine((m) => /\S/.test(m.directory ?? m.Directory ?? ''), {
    message: 'expected a non-empty `directory` string',
    path: ['directory'],
  });

/** A count as published: a number, a comma string ("1,038"), a masked string ("Less than 5"), or {val, masked}. */
export type IfactorCount = number | string | null | { val?: number | string | null; masked?: boolean };

/** data.json's summaryFileData, as far as normalize reads it. */
export interface IfactorSummary {
  total_cust_a?: IfactorCount;
  total_cust_s?: number | string | null;
  page_mode?: { mode?: string | null; redirectURL?: string | null; pausePublish?: boolean | null } | null;
}

export interface IfactorArea {
  area_name?: string | null;
  cust_a?: IfactorCount;
  cust_s?: number | string | null;
  etr?: string | null;
  areas?: IfactorArea[] | null;
}
export interface IfactorReport {
  file_data: { areas: IfactorArea[] };
}

export interface ThematicDesc {
  cust_a?: IfactorCount;
  cust_s?: number | string | null;
}
export interface IfactorThematic {
  file_data: Array<{ id?: string; title?: string; desc: ThematicDesc | ThematicDesc[] }>;
}

/** What fetch hands to normalize: the summary and the reports (in `options.reports` order) of one directory, and its
 * thematic areas when `options.thematic` is set. */
export interface IfactorRaw {
  directory?: string;
  summary?: unknown;
  reports?: unknown[];
  thematic?: unknown;
}

const COUNT = 'a count: a number, a string or {val}';
const isCount = (v: unknown): boolean =>
  optNumOrText(v) || (isObj(v) && optNumOrText(v.val) && (v.masked === undefined || typeof v.masked === 'boolean'));

/** data.json, checked in place for what normalize reads: the headline counts and the page mode. */
export function readSummary(raw: unknown): IfactorSummary {
  const what = 'iFactor data.json';
  const d = objectAt(what, objectAt(what, raw, '').summaryFileData, 'summaryFileData');
  if (!isCount(d.total_cust_a)) fail(what, 'summaryFileData.total_cust_a', COUNT, d.total_cust_a);
  if (!optNumOrText(d.total_cust_s)) fail(what, 'summaryFileData.total_cust_s', 'number or string', d.total_cust_s);
  const mode = d.page_mode;
  if (mode === null || mode === undefined) return d as IfactorSummary;
  const m = objectAt(what, mode, 'summaryFileData.page_mode');
  if (!optText(m.mode)) fail(what, 'summaryFileData.page_mode.mode', 'string', m.mode);
  if (!optText(m.redirectURL)) fail(what, 'summaryFileData.page_mode.redirectURL', 'string', m.redirectURL);
  if (!optBoolean(m.pausePublish)) fail(what, 'summaryFileData.page_mode.pausePublish', 'boolean', m.pausePublish);
  return d as IfactorSummary;
}

/** An area list and every list below it; a nested list's path is built only for an area that has one. */
function checkAreas(what: string, list: unknown, at: string): void {
  const areas = arrayAt(what, list, at);
  for (let i = 0; i < areas.length; i++) {
    const a = objectAt(what, areas[i], at, i);
    if (!optText(a.area_name)) misfit(what, at, i, 'area_name', 'string', a.area_name);
    if (!isCount(a.cust_a)) misfit(what, at, i, 'cust_a', COUNT, a.cust_a);
    if (!optNumOrText(a.cust_s)) misfit(what, at, i, 'cust_s', 'number or string', a.cust_s);
    if (!optText(a.etr)) misfit(what, at, i, 'etr', 'string', a.etr);
    if (a.areas !== undefined && a.areas !== null) checkAreas(what, a.areas, `${at}.${i}.areas`);
  }
}

/** `{file_data: {areas: [...]}}`, every node checked for the fields normalize reads. */
export function parseReport(raw: unknown, what: string): IfactorReport {
  const fd = objectAt(what, objectAt(what, raw, '').file_data, 'file_data');
  checkAreas(what, fd.areas, 'file_data.areas');
  return raw as IfactorReport;
}

function checkDesc(what: string, d: unknown, at: string): void {
  if (!isObj(d)) fail(what, at, 'object', d);
  if (!isCount(d.cust_a)) fail(what, `${at}.cust_a`, COUNT, d.cust_a);
  if (!optNumOrText(d.cust_s)) fail(what, `${at}.cust_s`, 'number or string', d.cust_s);
}

/** `{file_data: [{title, desc}]}`, `desc` an object or a one-element array. */
export function parseThematic(raw: unknown, what: string): IfactorThematic {
  const items = arrayAt(what, objectAt(what, raw, '').file_data, 'file_data');
  for (let i = 0; i < items.length; i++) {
    const item = objectAt(what, items[i], 'file_data', i);
    if (item.title !== undefined && typeof item.title !== 'string')
      misfit(what, 'file_data', i, 'title', 'string', item.title);
    if (item.id !== undefined && typeof item.id !== 'string') misfit(what, 'file_data', i, 'id', 'string', item.id);
    const desc = item.desc;
    if (!Array.isArray(desc)) {
      if (!isObj(desc) || !isCount(desc.cust_a) || !optNumOrText(desc.cust_s))
        checkDesc(what, desc, `file_data.${i}.desc`);
      continue;
    }
    for (let j = 0; j < desc.length; j++) {
      const d = desc[j];
      if (!isObj(d) || !isCount(d.cust_a) || !optNumOrText(d.cust_s)) checkDesc(what, d, `file_data.${i}.desc.${j}`);
    }
  }
  return raw as IfactorThematic;
}
