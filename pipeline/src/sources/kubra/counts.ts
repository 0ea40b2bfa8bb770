// Kubra counts and their masking: `cust_a.masked: true`, the sentinel 999999, or (cluster tiles) a `val` under
// `cust_a.mask` means "fewer than the floor"; such a count shows `<floor` and counts as its lower bound.
import { headlineCount, tallyRead, unreadableNote } from '../unreadable.ts';
import type { KubraCountValue } from './schema.ts';

export const MASK_SENTINEL = 999999;

export interface KubraCount {
  out: number;
  masked: boolean;
  display: string;
  upper: number | null;
}

/** An area's count (option `mask_floor`, default 5, is the N of `<N`); null when the area has none. */
export function readCount(v: KubraCountValue | undefined, floor: number): KubraCount | null {
  if (v === undefined || v === null) return null;
  const val = typeof v === 'number' ? v : v.val;
  const masked = (typeof v === 'object' && v.masked === true) || val === MASK_SENTINEL;
  if (masked) return { out: 1, masked: true, display: `<${floor}`, upper: floor - 1 };
  if (typeof val !== 'number' || !Number.isFinite(val) || val < 0) return null;
  return { out: Math.round(val), masked: false, display: String(Math.round(val)), upper: Math.round(val) };
}

/** The field and value a note or failure names: `cust_a.val` inside a `{val}` count, else the field itself. */
const named = (v: unknown, field: string): [string, unknown] =>
  typeof v === 'object' && v !== null ? [`${field}.val`, (v as { val?: unknown }).val] : [field, v];

/**
 * A record's count (readCount), or null, noted in `notes` naming the record and the field, when it is missing or
 * cannot be read: the caller makes no county or area of it (unknown is never zero).
 */
export function notedCount(
  v: KubraCountValue | undefined,
  floor: number,
  field: string,
  record: string,
  notes: string[],
): KubraCount | null {
  const c = readCount(v, floor);
  tallyRead(notes, field, c === null ? unreadableNote(record, ...named(v, field)) : null);
  return c;
}

/** A headline total (summary or report totals): null when absent; present, it must be readable, else the poll fails. */
export function headlineOut(v: KubraCountValue | undefined, floor: number, field: string, what: string): number | null {
  if (v === undefined || v === null) return null;
  const c = readCount(v, floor);
  if (c) return c.out;
  const [f, value] = named(v, field);
  return headlineCount(value, f, what); // throws: readCount found no count in it
}

/**
 * A cluster-tile record's customers out. Tiles publish a count under `cust_a.mask` as `mask − 1` (DTE: every
 * `{val: 4, mask: 5}`, never 1–3): like any masked count it counts as its lower bound, one customer per outage
 * (`n_out`). A cluster's own count is the true sum of its outages' (25 and a masked one make 26), kept as is.
 */
export function recordOut(
  cust: { val?: number | null; masked?: boolean; mask?: number | null } | null | undefined,
  nOut: number | null | undefined,
): number | null {
  const val = cust?.val;
  const mask = cust?.mask;
  const masked =
    cust?.masked === true ||
    val === MASK_SENTINEL ||
    (typeof mask === 'number' && typeof val === 'number' && val < mask);
  if (masked) return Math.max(1, typeof nOut === 'number' && Number.isFinite(nOut) ? Math.round(nOut) : 1);
  // Not masked and no count: unknown, never a guess (the caller notes it).
  return typeof val === 'number' && Number.isFinite(val) && val >= 0 ? Math.round(val) : null;
}
