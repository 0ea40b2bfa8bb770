// El Paso Electric GetOutages answer (once decrypted): `{totalCustAffected, totalActiveCustomers, totalOutageCount,
// customersAffectedPerZipcode[]{zipcode, customersAffected}, outages[]{outageNo, zipcode, latitude, longitude, etr}}`.
// Counts are per ZIP code; an outage point carries no count. Checked in place for only what normalize reads.
import { arrayAt, fail, misfit, nullish, objectAt, optNumOrText, optNumber, optText } from '../checks.ts';

type NumText = number | string | null | undefined;

export interface ElPasoZip {
  zipcode?: NumText;
  customersAffected?: NumText;
}

export interface ElPasoOutage {
  outageNo?: NumText;
  zipcode?: NumText;
  latitude?: number | null;
  longitude?: number | null;
  /** Mountain wall clock, US order: `6/24/2026 7:00:00 PM` */
  etr?: string | null;
}

export interface ElPasoAnswer {
  totalCustAffected?: NumText;
  totalActiveCustomers?: NumText;
  zips: ElPasoZip[];
  outages: ElPasoOutage[];
}

/** The encrypted envelope the API sends: hex ciphertext with the GCM tag in its last 16 bytes, and a hex IV. */
export interface Envelope {
  data: string;
  iv: string;
}

export const WHAT = 'El Paso Electric GetOutages answer';

export const isEnvelope = (v: unknown): v is Envelope =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as Envelope).data === 'string' &&
  typeof (v as Envelope).iv === 'string' &&
  !('outages' in v);

function list(root: Record<string, unknown>, key: string): unknown[] {
  return nullish(root[key]) ? [] : arrayAt(WHAT, root[key], key);
}

/** The answer, checked in place (no copy). Missing lists are none (a quiet day). */
export function readRaw(raw: unknown): ElPasoAnswer {
  const root = objectAt(WHAT, raw, '');
  for (const key of ['totalCustAffected', 'totalActiveCustomers'] as const)
    if (!optNumOrText(root[key])) fail(WHAT, key, 'number or string', root[key]);
  const zips = list(root, 'customersAffectedPerZipcode');
  for (let i = 0; i < zips.length; i++) {
    const z = objectAt(WHAT, zips[i], 'customersAffectedPerZipcode', i);
    if (!optNumOrText(z.zipcode))
      misfit(WHAT, 'customersAffectedPerZipcode', i, 'zipcode', 'number or string', z.zipcode);
    if (!optNumOrText(z.customersAffected))
      misfit(WHAT, 'customersAffectedPerZipcode', i, 'customersAffected', 'number or string', z.customersAffected);
  }
  const outages = list(root, 'outages');
  for (let i = 0; i < outages.length; i++) {
    const o = objectAt(WHAT, outages[i], 'outages', i);
    if (!optNumOrText(o.outageNo)) misfit(WHAT, 'outages', i, 'outageNo', 'number or string', o.outageNo);
    if (!optNumOrText(o.zipcode)) misfit(WHAT, 'outages', i, 'zipcode', 'number or string', o.zipcode);
    if (!optNumber(o.latitude)) misfit(WHAT, 'outages', i, 'latitude', 'number', o.latitude);
    if (!optNumber(o.longitude)) misfit(WHAT, 'outages', i, 'longitude', 'number', o.longitude);
    if (!optText(o.etr)) misfit(WHAT, 'outages', i, 'etr', 'string', o.etr);
  }
  return {
    totalCustAffected: root.totalCustAffected as NumText,
    totalActiveCustomers: root.totalActiveCustomers as NumText,
    zips: zips as ElPasoZip[],
    outages: outages as ElPasoOutage[],
  };
}
