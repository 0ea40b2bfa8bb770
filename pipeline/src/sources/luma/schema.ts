// LUMA regionsWithoutService answer: `totals{totalClientsWithoutService, totalClients}` and `regions[]` with the same
// counts plus `name`; checked in place for only what normalize reads.
import { arrayAt, fail, misfit, objectAt, optNumOrText } from '../checks.ts';

type NumText = number | string | null | undefined;

/** Customers out and served, as LUMA names them (numbers in the sample; text accepted too). */
export interface LumaCounts {
  totalClientsWithoutService?: NumText;
  totalClients?: NumText;
}

/** One of LUMA's operating regions (Arecibo, Bayamón, …): several municipios each, not a county. */
export interface LumaRegion extends LumaCounts {
  name: string;
}

export interface LumaAnswer {
  totals: LumaCounts;
  regions: LumaRegion[];
}

export const WHAT = 'LUMA regionsWithoutService answer';
const KEYS = ['totalClientsWithoutService', 'totalClients'] as const;

/** The answer, checked in place (no copy): a hand check, as in the sibling connectors. */
export function readRaw(raw: unknown): LumaAnswer {
  const root = objectAt(WHAT, raw, '');
  const totals = objectAt(WHAT, root.totals, 'totals');
  for (const k of KEYS) if (!optNumOrText(totals[k])) fail(WHAT, `totals.${k}`, 'number or string', totals[k]);
  const regions = arrayAt(WHAT, root.regions, 'regions');
  for (let i = 0; i < regions.length; i++) {
    const r = objectAt(WHAT, regions[i], 'regions', i);
    // The name is the area's identity (its path): a region without one is no region.
    if (typeof r.name !== 'string') misfit(WHAT, 'regions', i, 'name', 'string', r.name);
    for (const k of KEYS) if (!optNumOrText(r[k])) misfit(WHAT, 'regions', i, k, 'number or string', r[k]);
  }
  return raw as unknown as LumaAnswer;
}
