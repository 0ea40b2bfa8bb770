// Idaho Power GetCurrentOutageInformation answer: `{object: {totalCustomersAffected, outages[]}}`, one point per
// outage; checked in place for only what normalize reads.
import { arrayAt, fail, misfit, objectAt, optArray, optBoolean, optNumOrText, optText } from '../checks.ts';

type Text = string | null | undefined;
type NumText = number | string | null | undefined;

/** outageZip and outageCounty lists, omsFeederName's siblings and the *Message display texts pass through unread. */
export interface IdahoOutage {
  omsCustomerCount?: NumText;
  outageCity?: Array<{ outageCityName?: Text }> | null;
  omsFeederName?: Text;
  /** wall clock without a zone in the sample, e.g. `2026-06-24T17:30:00` */
  omsEstimatedOutageRestorationDate?: Text;
  /** numbers in the sample */
  latitude?: NumText;
  longitude?: NumText;
  /** Not in the sample: named by other public clients of this API (see README), read only when present. */
  omsOutageId?: NumText;
  isPlannedOutage?: boolean | null;
  probableCause?: Text;
  omsStatusDescription?: Text;
}

export interface IdahoAnswer {
  object: { totalCustomersAffected?: NumText; outages: IdahoOutage[] };
}

const WHAT = 'Idaho Power GetCurrentOutageInformation answer';
const AT = 'object.outages';

function checkCities(list: unknown, at: string): void {
  const cities = arrayAt(WHAT, list, at);
  for (let j = 0; j < cities.length; j++) {
    const c = objectAt(WHAT, cities[j], at, j);
    if (!optText(c.outageCityName)) misfit(WHAT, at, j, 'outageCityName', 'string', c.outageCityName);
  }
}

function checkOutage(v: unknown, i: number): void {
  const o = objectAt(WHAT, v, AT, i);
  if (!optNumOrText(o.omsCustomerCount))
    misfit(WHAT, AT, i, 'omsCustomerCount', 'number or string', o.omsCustomerCount);
  if (!optNumOrText(o.latitude)) misfit(WHAT, AT, i, 'latitude', 'number or string', o.latitude);
  if (!optNumOrText(o.longitude)) misfit(WHAT, AT, i, 'longitude', 'number or string', o.longitude);
  if (!optText(o.omsFeederName)) misfit(WHAT, AT, i, 'omsFeederName', 'string', o.omsFeederName);
  const etr = o.omsEstimatedOutageRestorationDate;
  if (!optText(etr)) misfit(WHAT, AT, i, 'omsEstimatedOutageRestorationDate', 'string', etr);
  if (!optNumOrText(o.omsOutageId)) misfit(WHAT, AT, i, 'omsOutageId', 'number or string', o.omsOutageId);
  if (!optBoolean(o.isPlannedOutage)) misfit(WHAT, AT, i, 'isPlannedOutage', 'boolean', o.isPlannedOutage);
  if (!optText(o.probableCause)) misfit(WHAT, AT, i, 'probableCause', 'string', o.probableCause);
  if (!optText(o.omsStatusDescription)) misfit(WHAT, AT, i, 'omsStatusDescription', 'string', o.omsStatusDescription);
  if (!optArray(o.outageCity)) misfit(WHAT, AT, i, 'outageCity', 'array', o.outageCity);
  if (Array.isArray(o.outageCity)) checkCities(o.outageCity, `${AT}.${i}.outageCity`);
}

/** The answer, checked in place (no copy): a hand check, as zod copied every outage with its unread lists. */
export function readRaw(raw: unknown): IdahoAnswer {
  const root = objectAt(WHAT, objectAt(WHAT, raw, '').object, 'object');
  if (!optNumOrText(root.totalCustomersAffected))
    fail(WHAT, 'object.totalCustomersAffected', 'number or string', root.totalCustomersAffected);
  const outages = arrayAt(WHAT, root.outages, AT);
  for (let i = 0; i < outages.length; i++) checkOutage(outages[i], i);
  return raw as IdahoAnswer;
}
