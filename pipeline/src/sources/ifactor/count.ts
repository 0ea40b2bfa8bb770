// iFactor counts: numbers, comma strings, and masked small counts ("Less than 5", "<5", or {val, masked: true}).
import { countOf } from '../checks.ts';
import { headlineCount, tallyRead, unreadableNote } from '../unreadable.ts';
import type { IfactorCount } from './schema.ts';

export interface ReadCount {
  /** the count used in sums: a masked count is its lower bound, 1 */
  out: number;
  masked: boolean;
  /** as the utility shows it: "12", or "<5" */
  display: string;
  upper: number | null;
}

const MASKED_TEXT = /^(?:<|less than)\s*(\d+)$/i;

const masked = (floor: number): ReadCount => ({ out: 1, masked: true, display: `<${floor}`, upper: floor - 1 });

/** A published count, or null when there is none or it is unreadable (the caller reports that, never guesses). */
export function readCount(v: IfactorCount | undefined, floor: number): ReadCount | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'object') return v.masked === true ? masked(floor) : readCount(v.val ?? null, floor);
  const n = countOf(v);
  if (n !== null) return { out: n, masked: false, display: String(n), upper: n };
  const m = typeof v === 'string' ? MASKED_TEXT.exec(v.trim()) : null;
  return m ? masked(Number(m[1])) : null;
}

/** What a headline-less total sums: its name and the notes of its records that cannot be read. */
export interface Summed {
  what: string;
  notes: string[];
}

/** The field and value a note or failure names: `cust_a.val` inside a `{val}` count, else the field itself. */
const named = (v: IfactorCount | undefined, field: string): [string, unknown] =>
  typeof v === 'object' && v !== null ? [`${field}.val`, v.val] : [field, v];

/**
 * A record's count (readCount), or null, noted in `notes` naming the record and the field, when it is missing or
 * cannot be read: the caller makes no county or area of it (unknown is never zero).
 */
export function recordReadCount(
  v: IfactorCount | undefined,
  floor: number,
  field: string,
  record: string,
  notes: string[],
): ReadCount | null {
  const c = readCount(v, floor);
  tallyRead(notes, field, c === null ? unreadableNote(record, ...named(v, field)) : null);
  return c;
}

/** data.json's headline: null when absent; present, it must be readable, else the poll fails naming the field. */
export function readHeadline(v: IfactorCount | undefined, floor: number, what: string): ReadCount | null {
  if (v === undefined || v === null) return null;
  const c = readCount(v, floor);
  if (c) return c;
  // headlineCount throws here: readCount already found no count in the value.
  const [field, value] = named(v, 'total_cust_a');
  const n = headlineCount(value, field, what);
  return { out: n, masked: false, display: String(n), upper: n };
}

/** Customers served: a number or a comma string; null when absent or unreadable. */
export const readServed = (v: number | string | null | undefined): number | null =>
  v === undefined ? null : countOf(v);
