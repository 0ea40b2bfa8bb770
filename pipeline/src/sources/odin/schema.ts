// ORNL ODIN upstream shape (OpenDataSoft explore v2.1): the export endpoint answers a JSON array of records, the
// paged `/records` endpoint wraps the same records in {total_count, results}; both are read.
import { z } from 'zod';
import { parseUpstream } from '../parse.ts';

export const recordSchema = z
  .object({
    communitydescriptor: z.string().nullable().optional(),
    county: z.string().nullable().optional(),
    state: z.string().nullable().optional(),
    /** the utility's EIA-861 utility number for almost every utility (see README.md) */
    utility_id: z.union([z.string(), z.number()]).nullable().optional(),
    /** "NAME,UTILITY_ID" */
    name: z.string().nullable().optional(),
    metersaffected: z.number().nullable().optional(),
    estimatedrestorationtime: z.string().nullable().optional(),
  })
  .loose();

export const pageSchema = z.object({ total_count: z.number(), results: z.array(recordSchema) }).loose();
export const exportSchema = z.array(recordSchema);
export type OdinRecord = z.infer<typeof recordSchema>;

/** The records of an export array or of a records page; anything else is a `schema` poll failure. */
export function odinRecords(raw: unknown): OdinRecord[] {
  if (Array.isArray(raw)) return parseUpstream(exportSchema, raw, 'ODIN export');
  return parseUpstream(pageSchema, raw, 'ODIN records page').results;
}

/** Canonical form of a utility number, so "0240", 240 and "240" compare equal; null when there is none. */
export function utilityKey(v: unknown): string | null {
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
  if (/^\d+$/.test(s)) return String(Number(s));
  return s === '' ? null : s;
}

/** A record's utility number: `utility_id`, else the `,ID` ending of `name`. */
export function recordUtility(r: OdinRecord): string | null {
  return utilityKey(r.utility_id) ?? utilityKey(/,\s*(\d+)\s*$/.exec(r.name ?? '')?.[1]);
}
