// Spreadsheet reading for the federal files that ship as .xls (BIFF8) and .xlsx: SheetJS parses them, this module
// turns cells into the values the importers need (numbers with "Unknown"/"N/A" as null, Excel serial dates).
import fs from 'node:fs';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import { UsageError } from '../errors.ts';

export type Cell = string | number | boolean | null;
export interface Sheet {
  name: string;
  rows: Cell[][];
}

export function readWorkbook(file: string): Sheet[] {
  if (!fs.existsSync(file)) throw new UsageError(`No such file: ${file}`);
  let wb: XLSX.WorkBook;
  try {
    wb = XLSX.read(fs.readFileSync(file), { cellDates: false, dense: true });
  } catch (err) {
    throw new UsageError(
      `${path.basename(file)} is not a readable spreadsheet (.xls or .xlsx): ${(err as Error).message}. Nothing was imported.`,
    );
  }
  return wb.SheetNames.map((name) => ({
    name,
    rows: XLSX.utils.sheet_to_json<Cell[]>(wb.Sheets[name], { header: 1, raw: true, defval: null, blankrows: true }),
  }));
}

/** Trimmed text of a cell, null when blank. */
export function text(c: Cell | undefined): string | null {
  if (c === null || c === undefined) return null;
  const s = String(c).replace(/\s+/g, ' ').trim();
  return s === '' ? null : s;
}

/** Header text normalised for matching: lower case, single spaces, footnote markers ("Affected 1[1]") dropped. */
export const headerKey = (c: Cell | undefined): string =>
  (text(c) ?? '')
    .toLowerCase()
    .replace(/\[\d+\]|\s+\d+$/g, '')
    .trim();

/** Values federal spreadsheets use for "no number". */
const MISSING = /^(unknown|unk|n\/?a|na|none|ongoing|tbd|-+|\.|\?)$/i;

/**
 * A number from a messy cell: plain numbers, "1,204", "over 340,000" (its stated bound), "500-600" (the lower end).
 * Null for blanks and the missing markers above; `undefined` for text that is not a number at all.
 */
export function numberFrom(c: Cell | undefined): number | null | undefined {
  if (c === null || c === undefined) return null;
  if (typeof c === 'number') return Number.isFinite(c) ? c : undefined;
  const s = String(c).trim();
  if (s === '' || MISSING.test(s)) return null;
  const m =
    /^(?:over|approx\.?|approximately|about|up to|more than|~|>|<)?\s*(\d[\d,]*(?:\.\d+)?)\s*(?:\+|mw|customers)?(?:\s*[-–]\s*\d[\d,]*(?:\.\d+)?)?\s*$/i.exec(
      s,
    );
  return m ? Number(m[1].replace(/,/g, '')) : undefined;
}

export interface LocalTime {
  y: number;
  m: number;
  d: number;
  hh: number;
  mi: number;
}

/** An Excel serial day number (1900 system) as a calendar date and time of day. */
export function fromSerial(serial: number): LocalTime | null {
  const p = XLSX.SSF.parse_date_code(serial);
  if (!p || p.y < 1900) return null;
  return { y: p.y, m: p.m, d: p.d, hh: p.H, mi: p.M };
}

export const isoLocal = (t: LocalTime): string =>
  `${t.y}-${String(t.m).padStart(2, '0')}-${String(t.d).padStart(2, '0')} ${String(t.hh).padStart(2, '0')}:${String(t.mi).padStart(2, '0')}:00`;

/** A date cell: a serial number, "01/05/2019", "1/26/03" or "2019-01-05". */
export function dateFrom(c: Cell | undefined): LocalTime | null {
  if (typeof c === 'number') return c > 0 ? fromSerial(Math.floor(c)) : null;
  const s = text(c)?.replace(/\/+/g, '/'); // "7/01//05"
  if (!s) return null;
  let m = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(s);
  if (m) {
    const y = m[3].length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
    return valid({ y, m: Number(m[1]), d: Number(m[2]), hh: 0, mi: 0 });
  }
  m = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  return m ? valid({ y: Number(m[1]), m: Number(m[2]), d: Number(m[3]), hh: 0, mi: 0 }) : null;
}

function valid(t: LocalTime): LocalTime | null {
  const d = new Date(Date.UTC(t.y, t.m - 1, t.d));
  return d.getUTCMonth() === t.m - 1 && d.getUTCDate() === t.d && t.hh < 24 && t.mi < 60 ? t : null;
}

/** A time-of-day cell: a day fraction (0.7083), "2:00 p.m.", "14:30", "Midnight", "Noon". Null when not a time. */
export function timeFrom(c: Cell | undefined): { hh: number; mi: number } | null {
  if (typeof c === 'number') {
    if (c < 0 || c >= 1) return null;
    const minutes = Math.round(c * 1440) % 1440;
    return { hh: Math.floor(minutes / 60), mi: minutes % 60 };
  }
  const s = (text(c) ?? '').toLowerCase();
  if (s === 'midnight') return { hh: 0, mi: 0 };
  if (s === 'noon') return { hh: 12, mi: 0 };
  const m = /^(\d{1,2})(?::(\d{2}))?(?::\d{2})?\s*([ap])?\.?\s*m?\.?$/.exec(s);
  if (!m) return null;
  let hh = Number(m[1]);
  const mi = Number(m[2] ?? 0);
  if (m[3] === 'p' && hh < 12) hh += 12;
  if (m[3] === 'a' && hh === 12) hh = 0;
  return hh < 24 && mi < 60 ? { hh, mi } : null;
}

export const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
