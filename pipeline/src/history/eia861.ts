// EIA-861 annual electric power industry report, three of its files (original .xlsx layout: a grouping row above
// the header, "." for a blank, States and Territories sheets):
//  - Reliability_<year>: SAIDI/SAIFI/CAIDI with and without major event days, under the IEEE 1366 standard and under
//    the utility's other standard — one row per utility × state × standard that reports any value;
//  - Service_Territory_<year>: utility → state and county *name*, joined here to a 5-digit FIPS code;
//  - Sales_Ult_Cust_<year>: customers per utility × state × part (A bundled, B energy-only, C delivery-only, D …).
import { loadAtlas } from '../geo/counties.ts';
import { findState } from '../geo/states.ts';
import { headerKey, numberFrom, readWorkbook, text, type Cell, type Sheet } from './spreadsheet.ts';
import type { ParsedRow } from './oe417.ts';

export interface ReliabilityRow {
  year: number;
  utility_number: number;
  utility_name: string;
  state: string;
  ownership: string | null;
  /** 'ieee' (IEEE 1366) or 'other' (the utility's own method) */
  standard: 'ieee' | 'other';
  saidi_with_med: number | null;
  saifi_with_med: number | null;
  caidi_with_med: number | null;
  saidi_without_med: number | null;
  saifi_without_med: number | null;
  caidi_without_med: number | null;
  customers: number | null;
}
export interface TerritoryRow {
  year: number;
  utility_number: number;
  utility_name: string;
  state: string;
  county: string;
  fips: string;
}
export interface CustomersRow {
  year: number;
  utility_number: number;
  utility_name: string;
  part: string | null;
  service_type: string | null;
  state: string;
  ownership: string | null;
  customers: number;
}

export type Eia861Kind = 'reliability' | 'territory' | 'customers';

/** The header row: the first row holding "Data Year" and "Utility Number". */
function headerAt(rows: Cell[][]): number {
  return rows
    .slice(0, 8)
    .findIndex((r) => r.some((c) => headerKey(c) === 'data year') && r.some((c) => headerKey(c) === 'utility number'));
}

/** Which of the three files a workbook is, from its sheets' headers. */
export function eia861KindOf(sheets: Sheet[]): Eia861Kind | null {
  for (const s of sheets) {
    const h = headerAt(s.rows);
    if (h < 0) continue;
    const keys = s.rows[h].map(headerKey);
    const above = s.rows.slice(0, h).flat().map(headerKey);
    if (keys.some((k) => k.startsWith('saidi'))) return 'reliability';
    if (keys.includes('county')) return 'territory';
    if (above.includes('total') || keys.includes('service type')) return 'customers';
  }
  return null;
}

interface Base {
  year: number;
  utility_number: number;
  utility_name: string;
  state: string;
}

/** The columns every EIA-861 row starts with; a reason when the row is not a utility row. */
function baseOf(r: Cell[], col: (name: string) => number): Base | string {
  const year = numberFrom(r[col('data year')]);
  const number = numberFrom(r[col('utility number')]);
  const name = text(r[col('utility name')]);
  const state = text(r[col('state')])?.toUpperCase();
  if (typeof year !== 'number' || year < 1990 || year > 2100) return 'Data Year is not a year';
  if (typeof number !== 'number') return 'Utility Number is not a number';
  if (!name) return 'Utility Name is blank';
  if (!state || !/^[A-Z]{2}$/.test(state)) return 'State is not a two-letter code';
  return { year, utility_number: number, utility_name: name, state };
}

function rowsOf<T>(
  sheets: Sheet[],
  each: (sheet: Sheet, h: number, r: Cell[], col: (name: string, from?: number) => number) => T | string | null,
): ParsedRow<T>[] {
  const out: ParsedRow<T>[] = [];
  for (const sheet of sheets) {
    const h = headerAt(sheet.rows);
    if (h < 0) continue;
    const keys = sheet.rows[h].map(headerKey);
    const col = (name: string, from = 0) => keys.indexOf(name, from);
    for (let i = h + 1; i < sheet.rows.length; i++) {
      const r = sheet.rows[i];
      if (r.every((c) => text(c) === null)) continue;
      // Notes under the table: text in the first cell and no utility number.
      if (typeof r[col('data year')] === 'string' && text(r[col('utility number')]) === null) continue;
      const got = each(sheet, h, r, col);
      if (got === null) continue;
      out.push({
        ord: out.length,
        line: `${sheet.name} row ${i + 1}`,
        reason: typeof got === 'string' ? got : null,
        row: typeof got === 'string' ? null : got,
      });
    }
  }
  return out;
}

const num = (c: Cell) => {
  const v = numberFrom(c);
  return typeof v === 'number' ? v : null;
};

export function parseReliability(sheets: Sheet[]): ParsedRow<ReliabilityRow>[] {
  return rowsOf<ReliabilityRow[]>(sheets, (sheet, h, r, col) => {
    const base = baseOf(r, col);
    if (typeof base === 'string') return base;
    // The grouping row names where "IEEE Standard" and "Other Standard" start.
    const groups = sheet.rows[h - 1]?.map(headerKey) ?? [];
    const out: ReliabilityRow[] = [];
    for (const [standard, label] of [
      ['ieee', 'ieee standard'],
      ['other', 'other standard'],
    ] as const) {
      const from = groups.indexOf(label);
      if (from < 0) continue;
      const at = (name: string) => col(name, from);
      const v = {
        saidi_with_med: num(r[at('saidi with med')]),
        saifi_with_med: num(r[at('saifi with med')]),
        caidi_with_med: num(r[at('caidi with med')]),
        saidi_without_med: num(r[at('saidi without med')]),
        saifi_without_med: num(r[at('saifi without med')]),
        caidi_without_med: num(r[at('caidi without med')]),
      };
      if (Object.values(v).every((x) => x === null)) continue;
      const customers = num(r[at('number of customers')]);
      out.push({
        ...base,
        ownership: text(r[col('ownership')]),
        standard,
        ...v,
        customers: customers === null ? null : Math.round(customers),
      });
    }
    return out;
  })
    .flatMap((p): ParsedRow<ReliabilityRow>[] => (p.row ? p.row.map((row) => ({ ...p, row })) : [{ ...p, row: null }]))
    .map((p, ord) => ({ ...p, ord }));
}

/** County names as EIA writes them ("St Louis City", "Prince Georges", "De Kalb") → a comparable key. */
export function countyKey(name: string): string {
  const city = /\bcity$/i.test(name.trim()) && !/^carson city$/i.test(name.trim());
  const base = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\b(county|parish|borough|census area|city and borough|municipality|municipio)\b/g, ' ')
    .replace(/\bcity$/, ' ')
    .replace(/\bsaint\b/g, 'st')
    .replace(/\bsainte\b/g, 'ste')
    .replace(/[^a-z0-9]/g, '');
  return city ? `${base}#city` : base;
}

/** Counties renamed since (the atlas has the new name); split census areas stay unmatched. */
const RENAMED: Record<string, string> = { 'SD|shannon': '46102', 'AK|wadehampton': '02158' };

let countyIndex: Map<string, string> | undefined;
/** state code + county key → FIPS, from the county atlas (independent cities have county codes ≥ 500). */
function countyFips(state: string, county: string): string | undefined {
  if (!countyIndex) {
    countyIndex = new Map();
    for (const c of loadAtlas().counties) {
      const isCity = Number(c.fips.slice(2)) >= 500 && !/^carson city$/i.test(c.name);
      countyIndex.set(
        `${c.state}|${countyKey(c.name)}${isCity && !/#city$/.test(countyKey(c.name)) ? '#city' : ''}`,
        c.fips,
      );
    }
  }
  const renamed = RENAMED[`${state}|${countyKey(county)}`];
  if (renamed) return renamed;
  return (
    countyIndex.get(`${state}|${countyKey(county)}`) ??
    // "Bedford City" merged into Bedford County (2013); a name without "City" may be the independent city only
    countyIndex.get(`${state}|${countyKey(county).replace('#city', '')}`) ??
    countyIndex.get(`${state}|${countyKey(county)}#city`)
  );
}

export function parseTerritory(sheets: Sheet[]): ParsedRow<TerritoryRow>[] {
  return rowsOf<TerritoryRow>(sheets, (_s, _h, r, col) => {
    const base = baseOf(r, col);
    if (typeof base === 'string') return base;
    const county = text(r[col('county')]);
    if (!county) return 'County is blank';
    const fips = countyFips(base.state, county);
    if (!fips)
      return `county "${county}" is not a county of ${findState(base.state)?.name ?? base.state} in the county atlas`;
    return { ...base, county, fips };
  });
}

export function parseCustomers(sheets: Sheet[]): ParsedRow<CustomersRow>[] {
  // The sheets with a TOTAL group (States, Territories); "Decoupled" is about rate design.
  const withTotals = sheets.filter((s) => s.rows.slice(0, 4).some((r) => r.some((c) => headerKey(c) === 'total')));
  return rowsOf<CustomersRow>(withTotals, (sheet, h, r, col) => {
    const base = baseOf(r, col);
    if (typeof base === 'string') return base;
    // "TOTAL" in the grouping row, then "Customers" in the row below it (the header row says "Count").
    const groups = sheet.rows.slice(0, h).map((row) => row.map(headerKey));
    const total = groups.map((g) => g.indexOf('total')).find((i) => i >= 0) ?? -1;
    const sub = groups.find((g) => g.includes('customers'));
    const at = total < 0 ? -1 : sub ? sub.indexOf('customers', total) : col('count', total);
    if (at < 0) return 'no TOTAL customers column';
    const customers = numberFrom(r[at]);
    if (customers === undefined) return 'TOTAL customers is not a number';
    return {
      ...base,
      part: text(r[col('part')]),
      service_type: text(r[col('service type')]),
      ownership: text(r[col('ownership')]),
      customers: Math.round(customers ?? 0),
    };
  });
}

export function parseEia861(
  file: string,
): { kind: Eia861Kind; rows: ParsedRow<ReliabilityRow | TerritoryRow | CustomersRow>[] } | null {
  const sheets = readWorkbook(file);
  const kind = eia861KindOf(sheets);
  if (!kind) return null;
  const rows =
    kind === 'reliability'
      ? parseReliability(sheets)
      : kind === 'territory'
        ? parseTerritory(sheets)
        : parseCustomers(sheets);
  return { kind, rows };
}
