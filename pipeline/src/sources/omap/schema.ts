// PPL "OMAP" Tabular shape (PPL Electric, RI Energy): headline strings, then counties with their municipalities.
// Checked in place by hand rather than with zod, which copies every row of a loose object: that doubled the cost of
// parse + normalise on a storm-sized table (thousands of municipalities). Only the fields normalize reads are checked.
import { arrayAt, fail, isObj, misfit, objectAt, optNumOrText } from '../checks.ts';

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

/** Row `i` of the list at `at` (a county, or a municipality): `nm` its name, `nc`/`tc` counts. */
function checkRow(what: string, row: unknown, at: string, i: number): OmapCounty {
  if (!isObj(row)) misfit(what, at, i, '', 'object', row);
  if (typeof row.nm !== 'string') misfit(what, at, i, 'nm', 'string', row.nm);
  if (!optNumOrText(row.nc)) misfit(what, at, i, 'nc', 'number or string', row.nc);
  if (!optNumOrText(row.tc)) misfit(what, at, i, 'tc', 'number or string', row.tc);
  return row as unknown as OmapCounty;
}

export function parseTabular(raw: unknown, what: string): OmapTabular {
  const root = objectAt(what, raw, '');
  if (!optNumOrText(root.nc)) fail(what, 'nc', 'number or string', root.nc);
  const rows = arrayAt(what, root.data, 'data');
  for (let i = 0; i < rows.length; i++) {
    const mun = checkRow(what, rows[i], 'data', i).mun;
    if (mun === undefined || mun === null) continue;
    if (!Array.isArray(mun)) misfit(what, 'data', i, 'mun', 'array', mun);
    for (let j = 0; j < mun.length; j++) checkRow(what, mun[j], `data.${i}.mun`, j);
  }
  return raw as unknown as OmapTabular;
}
