// PPL "OMAP" Tabular shape (PPL Electric, RI Energy): headline strings, then counties with their municipalities.
// Checked in place by hand rather than with zod, which copies every row of a loose object: that doubled the cost of
// parse + normalise on a storm-sized table (thousands of municipalities). Only the fields normalize reads are checked.
import { SourceError } from '../../errors.ts';

/** Counts arrive as numbers in the rows and as strings in the headline ("5"); both are read with toCount. */
export type OmapCount = number | string | null | undefined;

export interface OmapMunicipality {
  nm: string;
  nc?: OmapCount;
  tc?: OmapCount;
}
export interface OmapCounty {
  /** county name */
  nm: string;
  /** customers out */
  nc?: OmapCount;
  /** customers served */
  tc?: OmapCount;
  mun?: OmapMunicipality[] | null;
}
export interface OmapTabular {
  /** customers out, utility-wide */
  nc?: OmapCount;
  /** outages (not read) */
  oc?: OmapCount;
  data: OmapCounty[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown) => v === undefined || v === null || typeof v === 'number' || typeof v === 'string';

/** The field path and problem of the first misfit in a row (`nm` name, `nc`/`tc` counts), or null. */
function misfit(row: unknown): [string, string] | null {
  if (!isObject(row)) return ['', 'expected an object'];
  if (typeof row.nm !== 'string') return ['nm', 'expected a string'];
  if (!isCount(row.nc)) return ['nc', 'expected a number or a string'];
  if (!isCount(row.tc)) return ['tc', 'expected a number or a string'];
  return null;
}

export function parseTabular(raw: unknown, what: string): OmapTabular {
  const fail = (at: string, message: string): never => {
    throw new SourceError('schema', `${what} has an unexpected shape: ${at}: ${message}`);
  };
  if (!isObject(raw)) return fail('(root)', 'expected an object');
  if (!isCount(raw.nc)) fail('nc', 'expected a number or a string');
  if (!Array.isArray(raw.data)) return fail('data', 'expected an array');
  raw.data.forEach((row: unknown, i: number) => {
    const bad = misfit(row);
    if (bad) fail(`data.${i}${bad[0] && `.${bad[0]}`}`, bad[1]);
    const mun = (row as OmapCounty).mun;
    if (mun === undefined || mun === null) return;
    if (!Array.isArray(mun)) fail(`data.${i}.mun`, 'expected an array');
    mun.forEach((m: unknown, j: number) => {
      const badMun = misfit(m);
      if (badMun) fail(`data.${i}.mun.${j}${badMun[0] && `.${badMun[0]}`}`, badMun[1]);
    });
  });
  return raw as unknown as OmapTabular;
}
