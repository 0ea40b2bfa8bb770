// iFactor counts: numbers, comma strings, and masked small counts ("Less than 5", "<5", or {val, masked: true}).
import { countOf } from '../checks.ts';
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

/** Customers served: a number or a comma string; null when absent or unreadable. */
export const readServed = (v: number | string | null | undefined): number | null =>
  v === undefined ? null : countOf(v);
