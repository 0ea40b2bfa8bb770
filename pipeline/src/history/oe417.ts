// DOE OE-417 electric emergency and disturbance reports: the yearly Annual_Summary spreadsheets (.xls) and the
// multi-year DOE events workbook (.xlsx, one sheet a year). Their layouts change over the years — one "Date" and
// "Time" column (2002–2010) or began/restoration dates and times (2011–), a "Month" column (2015–), an "Event Year"
// column (2023), header rows one to three lines below a title, month separator rows, Excel serial dates or text
// dates — so columns are found by their header text, never by position. Values such as "Unknown", "N/A", "Ongoing",
// "over 340,000" or "500-600" are read as documented in `numberFrom` and restoration below.
import path from 'node:path';
import { STATES } from '../geo/states.ts';
import {
  MONTHS,
  dateFrom,
  headerKey,
  isoLocal,
  numberFrom,
  readWorkbook,
  text,
  timeFrom,
  type Cell,
  type LocalTime,
  type Sheet,
} from './spreadsheet.ts';
import { causeOf } from './causes.ts';

export interface Oe417Event {
  year: number;
  /** local time as reported (OE-417 gives no zone); 00:00 when only the date is known */
  began_at: string;
  restored_at: string | null;
  /** restored (restored_at set), ongoing (reported as ongoing), unknown (blank, "Unknown", unparseable) */
  restoration: 'restored' | 'ongoing' | 'unknown';
  area: string | null;
  /** USPS codes of the states named in Area Affected, comma-separated ('' when none is named) */
  states: string;
  nerc: string | null;
  alert_criteria: string | null;
  event_type: string | null;
  cause: string;
  demand_loss_mw: number | null;
  customers_affected: number | null;
}

export interface ParsedRow<T> {
  /** order in the file, for listing rejects */
  ord: number;
  /** where it is: "<sheet> row <n>" (spreadsheet rows are 1-based, as a spreadsheet program shows them) */
  line: string;
  reason: string | null;
  row: T | null;
}

const STATE_NAMES = [...STATES].sort((a, b) => b.name.length - a.name.length);

/** States named in an Area Affected text ("Maine: Connecticut: …", "Snohomish County, Washington", "D.C."). */
export function statesIn(area: string | null): string[] {
  if (!area) return [];
  let rest = ` ${area} `;
  const found = new Set<string>();
  if (/\bD\.\s?C\.|\bDistrict of Columbia\b/i.test(rest)) found.add('DC');
  rest = rest.replace(/Washington,?\s*D\.\s?C\./gi, ' ').replace(/District of Columbia/gi, ' ');
  for (const s of STATE_NAMES) {
    const re = new RegExp(`\\b${s.name.replace(/\./g, '\\.')}\\b`, 'gi');
    if (re.test(rest)) {
      found.add(s.code);
      rest = rest.replace(re, ' '); // "West Virginia" must not also count as Virginia
    }
  }
  return [...found].sort();
}

type Column =
  | 'date'
  | 'time'
  | 'rdate'
  | 'rtime'
  | 'restoration'
  | 'area'
  | 'nerc'
  | 'alert'
  | 'type'
  | 'mw'
  | 'customers';
const COLUMNS: Array<[Column, RegExp]> = [
  ['date', /^date event began$|^date$|^date\/time event began$/],
  ['time', /^time event began$|^time$/],
  ['rdate', /^date of restoration$|^date\/time of restoration$/],
  ['rtime', /^time of restoration$/],
  ['restoration', /^restoration( time)?$/],
  ['area', /^area( affected)?$/],
  ['nerc', /^nerc region$/],
  ['alert', /^alert criteria$/],
  ['type', /^event type$|^type of disturbance$/],
  ['mw', /^demand loss|^loss \(megawatts\)/],
  ['customers', /^number of customers affected/],
];

function headerOf(rows: Cell[][]): { at: number; cols: Partial<Record<Column, number>> } | null {
  for (let i = 0; i < Math.min(rows.length, 12); i++) {
    const cols: Partial<Record<Column, number>> = {};
    rows[i].forEach((c, j) => {
      const k = headerKey(c);
      const hit = COLUMNS.find(([, re]) => re.test(k));
      if (hit && cols[hit[0]] === undefined) cols[hit[0]] = j;
    });
    if (cols.date !== undefined && cols.area !== undefined) return { at: i, cols };
  }
  return null;
}

function yearOf(sheet: Sheet, file: string): number | null {
  if (/^\d{4}$/.test(sheet.name)) return Number(sheet.name);
  for (const row of sheet.rows.slice(0, 3))
    for (const c of row) {
      const m = /(?:19|20)\d{2}/.exec(text(c) ?? '');
      if (m) return Number(m[0]);
    }
  const m = /(?:19|20)\d{2}/.exec(path.basename(file));
  return m ? Number(m[0]) : null;
}

const at = (d: LocalTime, t: { hh: number; mi: number } | null): LocalTime => ({
  ...d,
  hh: t?.hh ?? 0,
  mi: t?.mi ?? 0,
});

/** A combined restoration cell: a serial date-time, "1/26/03, 2:00 a.m.", "5:30 p.m. January 16", "Ongoing". */
function restorationFrom(c: Cell, began: LocalTime): { when: LocalTime | null; status: Oe417Event['restoration'] } {
  if (typeof c === 'number') {
    const d = dateFrom(c);
    return d ? { when: at(d, timeFrom(c - Math.floor(c))), status: 'restored' } : { when: null, status: 'unknown' };
  }
  const s = text(c);
  if (!s) return { when: null, status: 'unknown' };
  if (/ongoing|continuing/i.test(s)) return { when: null, status: 'ongoing' };
  let m = /^(\d{1,2}\/\d{1,2}\/\d{2,4}),?\s*(.*)$/.exec(s);
  if (m) {
    const d = dateFrom(m[1]);
    return d ? { when: at(d, timeFrom(m[2])), status: 'restored' } : { when: null, status: 'unknown' };
  }
  m = /^(.+?)\s+([A-Za-z]+)\.?\s+(\d{1,2})(?:,\s*(\d{4}))?$/.exec(s);
  const month = m ? MONTHS.findIndex((x) => x.startsWith(m![2].toLowerCase().slice(0, 3))) : -1;
  if (m && month >= 0) {
    let y = m[4] ? Number(m[4]) : began.y;
    if (!m[4] && month + 1 < began.m) y += 1; // "January 02" after a December start
    return { when: at({ y, m: month + 1, d: Number(m[3]), hh: 0, mi: 0 }, timeFrom(m[1])), status: 'restored' };
  }
  return { when: null, status: 'unknown' };
}

const isMonthLabel = (c: Cell) => MONTHS.includes((text(c) ?? '').toLowerCase());

/** Every event row of an OE-417 spreadsheet (Annual_Summary .xls or the DOE multi-year .xlsx). */
export function parseOe417(file: string): { rows: ParsedRow<Oe417Event>[]; sheets: number } {
  const out: ParsedRow<Oe417Event>[] = [];
  let sheets = 0;
  for (const sheet of readWorkbook(file)) {
    const header = headerOf(sheet.rows);
    const year = yearOf(sheet, file);
    if (!header || !year) continue;
    sheets += 1;
    const { cols } = header;
    const get = (r: Cell[], k: Column) => (cols[k] === undefined ? null : (r[cols[k]!] ?? null));
    for (let i = header.at + 1; i < sheet.rows.length; i++) {
      const r = sheet.rows[i];
      const line = `${sheet.name} row ${i + 1}`;
      const cells = r.filter((c) => text(c) !== null);
      if (cells.length === 0) continue;
      // Month separators ("January", once with a stray count), the header repeated at page breaks, a second header
      // line ("Date/Time").
      if (isMonthLabel(r[0]) && !dateFrom(get(r, 'date'))) continue;
      if (
        r.filter((c) => COLUMNS.some(([, re]) => re.test(headerKey(c)))).length >= 3 ||
        cells.every((c) => /^date\/time$/i.test(String(c).trim()))
      )
        continue;
      const area = text(get(r, 'area'));
      const type = text(get(r, 'type'));
      const date = dateFrom(get(r, 'date'));
      // Footnotes and source lines: text in the first cell, no area and no event type.
      if (!date && !area && !type) continue;
      const ord = out.length;
      const prev = out.at(-1)?.row;
      // The printed tables of 2002–2010 wrap long cells onto extra rows with no date, time or region.
      if (
        !date &&
        text(get(r, 'time')) === null &&
        text(get(r, 'nerc')) === null &&
        prev &&
        out.at(-1)!.line.startsWith(`${sheet.name} `)
      ) {
        if (area) prev.area = `${prev.area ?? ''} ${area}`.trim();
        if (type) prev.event_type = `${prev.event_type ?? ''} ${type}`.trim();
        prev.states = statesIn(prev.area).join(',');
        prev.cause = causeOf(prev.event_type, prev.alert_criteria);
        continue;
      }
      if (!date) {
        out.push({ ord, line, reason: 'Date Event Began is not a date', row: null });
        continue;
      }
      if (Math.abs(date.y - year) > 1) {
        out.push({ ord, line, reason: `Date Event Began (${date.y}) is not in the sheet's year ${year}`, row: null });
        continue;
      }
      const began = at(date, timeFrom(get(r, 'time')));
      let restoration: { when: LocalTime | null; status: Oe417Event['restoration'] };
      if (cols.rdate !== undefined) {
        const rd = get(r, 'rdate');
        const d = dateFrom(rd);
        restoration = d
          ? { when: at(d, timeFrom(get(r, 'rtime'))), status: 'restored' }
          : /ongoing|continuing/i.test(`${text(rd) ?? ''} ${text(get(r, 'rtime')) ?? ''}`)
            ? { when: null, status: 'ongoing' }
            : { when: null, status: 'unknown' };
      } else {
        restoration = restorationFrom(get(r, 'restoration'), began);
      }
      const beganIso = isoLocal(began);
      let restoredIso = restoration.when ? isoLocal(restoration.when) : null;
      if (restoredIso !== null && restoredIso < beganIso) {
        restoredIso = null; // a restoration before the start is a typo in the source: kept as unknown
        restoration.status = 'unknown';
      }
      const mw = numberFrom(get(r, 'mw'));
      const customers = numberFrom(get(r, 'customers'));
      const alert = text(get(r, 'alert'));
      out.push({
        ord,
        line,
        reason: null,
        row: {
          year: began.y,
          began_at: beganIso,
          restored_at: restoredIso,
          restoration: restoration.status,
          area,
          states: statesIn(area).join(','),
          nerc: text(get(r, 'nerc')),
          alert_criteria: alert,
          event_type: type,
          cause: causeOf(type, alert),
          demand_loss_mw: mw ?? null,
          customers_affected: customers === null || customers === undefined ? null : Math.round(customers),
        },
      });
    }
  }
  return { rows: out, sheets };
}
