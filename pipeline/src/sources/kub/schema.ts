// KUB electric-outages answer: `electricOutage[]` (one point per outage) and `electricOutageInfo[0]` (the system's
// customers served and out), checked in place for only what normalize reads.
import { arrayAt, isObj, misfit, nullish, objectAt, optBoolean, optNumOrText, optNumber, optText } from '../checks.ts';

type Text = string | null | undefined;
type NumText = number | string | null | undefined;

/** One outage as far as normalize reads it; unread keys pass through. */
export interface KubOutage {
  id?: NumText;
  /** customers out, sent as text ("35") */
  customerCount?: NumText;
  /** longitude */
  x?: number | null;
  /** latitude */
  y?: number | null;
  /** the ETR counts only when this is true (true or "true") */
  ertProvided?: boolean | string | null;
  /** Knoxville wall clock without an offset, `2026-06-24T21:00:00` */
  estimatedRestoreTime?: Text;
}

/** The system summary: KUB's own totals. */
export interface KubInfo {
  totalElectricCustomers?: NumText;
  electricCustomersWithoutPower?: NumText;
}

export interface KubAnswer {
  outages: KubOutage[];
  info: KubInfo | null;
}

const WHAT = 'KUB electric-outages answer';
const optFlag = (v: unknown): boolean => optBoolean(v) || typeof v === 'string';

function checkOutage(v: unknown, i: number): void {
  const at = 'electricOutage';
  if (!isObj(v)) misfit(WHAT, at, i, '', 'object', v);
  if (!optNumOrText(v.id)) misfit(WHAT, at, i, 'id', 'number or string', v.id);
  if (!optNumOrText(v.customerCount)) misfit(WHAT, at, i, 'customerCount', 'number or string', v.customerCount);
  if (!optNumber(v.x)) misfit(WHAT, at, i, 'x', 'number', v.x);
  if (!optNumber(v.y)) misfit(WHAT, at, i, 'y', 'number', v.y);
  if (!optFlag(v.ertProvided)) misfit(WHAT, at, i, 'ertProvided', 'boolean or string', v.ertProvided);
  if (!optText(v.estimatedRestoreTime)) misfit(WHAT, at, i, 'estimatedRestoreTime', 'string', v.estimatedRestoreTime);
}

function checkInfo(list: unknown): KubInfo | null {
  if (nullish(list)) return null;
  const first = arrayAt(WHAT, list, 'electricOutageInfo')[0];
  if (first === undefined) return null;
  const info = objectAt(WHAT, first, 'electricOutageInfo', 0);
  const at = 'electricOutageInfo';
  if (!optNumOrText(info.totalElectricCustomers))
    misfit(WHAT, at, 0, 'totalElectricCustomers', 'number or string', info.totalElectricCustomers);
  if (!optNumOrText(info.electricCustomersWithoutPower))
    misfit(WHAT, at, 0, 'electricCustomersWithoutPower', 'number or string', info.electricCustomersWithoutPower);
  return info as KubInfo;
}

/** The answer, checked in place (no copy). A missing or null outage list is no outages (a quiet day may omit it). */
export function readRaw(raw: unknown): KubAnswer {
  const root = objectAt(WHAT, raw, '');
  const outages = nullish(root.electricOutage) ? [] : arrayAt(WHAT, root.electricOutage, 'electricOutage');
  for (let i = 0; i < outages.length; i++) checkOutage(outages[i], i);
  return { outages: outages as KubOutage[], info: checkInfo(root.electricOutageInfo) };
}
