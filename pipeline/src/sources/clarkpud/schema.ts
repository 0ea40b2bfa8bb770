// Clark PUD data.js payload (the JSONP argument): {totalAffectedCustomerCount, openOutages[]{key,
// affectedCustomerCount, estimatedRestoration, lat, lng}}, checked in place for only what normalize reads.
import { arrayAt, fail, misfit, numOrText, objectAt, optNumOrText, optNumber } from '../checks.ts';

type NumText = number | string | null | undefined;

/** One open outage; other fields pass through unread. */
export interface ClarkOutage {
  key: number | string;
  affectedCustomerCount?: NumText;
  /** ISO text with an offset in the peer's sample ("2026-06-24T22:00:00-07:00") */
  estimatedRestoration?: NumText;
  lat?: number | null;
  lng?: number | null;
}

export interface ClarkData {
  totalAffectedCustomerCount?: NumText;
  openOutages: ClarkOutage[];
}

const WHAT = 'Clark PUD outage data';

/** The payload, checked in place (no copy): a hand check, as in the sibling connectors. */
export function readRaw(raw: unknown): ClarkData {
  const root = objectAt(WHAT, raw, '');
  if (!optNumOrText(root.totalAffectedCustomerCount))
    fail(WHAT, 'totalAffectedCustomerCount', 'number or string', root.totalAffectedCustomerCount);
  const list = arrayAt(WHAT, root.openOutages, 'openOutages');
  for (let i = 0; i < list.length; i++) {
    const o = objectAt(WHAT, list[i], 'openOutages', i);
    // The key is the incident's identity across polls: an outage without one is no outage.
    if (!numOrText(o.key)) misfit(WHAT, 'openOutages', i, 'key', 'number or string', o.key);
    if (!optNumOrText(o.affectedCustomerCount))
      misfit(WHAT, 'openOutages', i, 'affectedCustomerCount', 'number or string', o.affectedCustomerCount);
    if (!optNumOrText(o.estimatedRestoration))
      misfit(WHAT, 'openOutages', i, 'estimatedRestoration', 'number or string', o.estimatedRestoration);
    if (!optNumber(o.lat)) misfit(WHAT, 'openOutages', i, 'lat', 'number', o.lat);
    if (!optNumber(o.lng)) misfit(WHAT, 'openOutages', i, 'lng', 'number', o.lng);
  }
  return raw as unknown as ClarkData;
}
