// iFactor (Kubra legacy StormCenter 5) upstream shapes: metadata.json, data.json, report_*.json, thematic_areas.json.
// The small bodies are zod schemas. The area trees and thematic lists are checked in place by hand: zod copies every
// node of a loose object, which made parse + normalise cost 3× JSON.parse; this check allocates nothing on success.
import { z } from 'zod';
import { SourceError } from '../../errors.ts';

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
const countSchema = z.union([
  z.number(),
  z.string(),
  z.null(),
  z.object({ val: z.union([z.number(), z.string(), z.null()]).optional(), masked: z.boolean().optional() }).loose(),
]);

export const summarySchema = z
  .object({
    summaryFileData: z
      .object({
        total_cust_a: countSchema.optional(),
        total_cust_s: z.union([z.number(), z.string(), z.null()]).optional(),
        page_mode: z
          .object({
            mode: z.string().nullable().optional(),
            redirectURL: z.string().nullable().optional(),
            pausePublish: z.boolean().nullable().optional(),
          })
          .loose()
          .nullable()
          .optional(),
      })
      .loose(),
  })
  .loose();

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

/** A misfit found while checking; each enclosing level prepends its key, so the message names the whole path. */
class Misfit extends Error {
  constructor(
    readonly at: Array<string | number>,
    message: string,
  ) {
    super(message);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown) => v === undefined || v === null || typeof v === 'string';
const isNumText = (v: unknown) => isText(v) || typeof v === 'number';
const isCount = (v: unknown) =>
  isNumText(v) || (isObject(v) && isNumText(v.val) && (v.masked === undefined || typeof v.masked === 'boolean'));

function need(ok: boolean, key: string, message: string): void {
  if (!ok) throw new Misfit([key], message);
}

function checkList(v: unknown, key: string, item: (x: unknown) => void): void {
  need(Array.isArray(v), key, 'expected an array');
  const list = v as unknown[];
  for (let i = 0; i < list.length; i++) {
    try {
      item(list[i]);
    } catch (err) {
      if (err instanceof Misfit) err.at.unshift(key, i);
      throw err;
    }
  }
}

function checkArea(v: unknown): void {
  if (!isObject(v)) throw new Misfit([], 'expected an object');
  need(isText(v.area_name), 'area_name', 'expected a string or null');
  need(isCount(v.cust_a), 'cust_a', 'expected a count: a number, a string or {val}');
  need(isNumText(v.cust_s), 'cust_s', 'expected a number or a string');
  need(isText(v.etr), 'etr', 'expected a string or null');
  if (v.areas !== undefined && v.areas !== null) checkList(v.areas, 'areas', checkArea);
}

function checkDesc(v: unknown): void {
  if (!isObject(v)) throw new Misfit([], 'expected an object');
  need(isCount(v.cust_a), 'cust_a', 'expected a count: a number, a string or {val}');
  need(isNumText(v.cust_s), 'cust_s', 'expected a number or a string');
}

function checkThematicItem(v: unknown): void {
  if (!isObject(v)) throw new Misfit([], 'expected an object');
  need(v.title === undefined || typeof v.title === 'string', 'title', 'expected a string');
  need(v.id === undefined || typeof v.id === 'string', 'id', 'expected a string');
  if (Array.isArray(v.desc)) checkList(v.desc, 'desc', checkDesc);
  else {
    try {
      checkDesc(v.desc);
    } catch (err) {
      if (err instanceof Misfit) err.at.unshift('desc');
      throw err;
    }
  }
}

function checked<T>(raw: unknown, what: string, check: (fd: unknown) => void): T {
  if (!isObject(raw)) throw new SourceError('schema', `${what} has an unexpected shape: (root): expected an object`);
  try {
    check(raw.file_data);
  } catch (err) {
    const at = err instanceof Misfit ? ['file_data', ...err.at].filter((k) => k !== '').join('.') : '';
    if (err instanceof Misfit)
      throw new SourceError('schema', `${what} has an unexpected shape: ${at}: ${err.message}`);
    throw err;
  }
  return raw as T;
}

/** `{file_data: {areas: [...]}}`, every node checked for the fields normalize reads. */
export const parseReport = (raw: unknown, what: string): IfactorReport =>
  checked(raw, what, (fd) => {
    if (!isObject(fd)) throw new Misfit([], 'expected an object');
    checkList(fd.areas, 'areas', checkArea);
  });

/** `{file_data: [{title, desc}]}`, `desc` an object or a one-element array. */
export const parseThematic = (raw: unknown, what: string): IfactorThematic =>
  checked(raw, what, (fd) => checkList(fd, '', checkThematicItem));
