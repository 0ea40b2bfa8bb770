// Kubra summary file (`{IGD}/public/summary-1/data.json`): the utility's headline, customers out of customers served,
// as the map's banner shows it; checked by hand for what normalize reads, plus the page_mode notices.
import { arrayAt, fail, isObj, objectAt, optBoolean, optNumber, optText } from '../checks.ts';
import type { KubraCountValue } from './schema.ts';

export interface KubraSummary {
  summaryFileData: {
    totals: Array<{ total_cust_a?: KubraCountValue; total_cust_s?: number | null; total_outages?: number | null }>;
    page_mode?: { mode?: string | null; redirectURL?: string | null; pausePublish?: boolean | null } | null;
  };
}

const COUNT = 'a number or {val: number, masked: boolean}';
const isCount = (v: unknown): boolean =>
  v === null || v === undefined || typeof v === 'number' || (isObj(v) && optNumber(v.val));

/** The summary file, checked in place: its first totals row (the utility's) and page_mode. */
export function readSummary(raw: unknown, what: string): KubraSummary {
  const data = objectAt(what, objectAt(what, raw, '').summaryFileData, 'summaryFileData');
  const totals = arrayAt(what, data.totals, 'summaryFileData.totals');
  if (totals.length === 0) fail(what, 'summaryFileData.totals', 'at least one totals row', totals);
  const t = objectAt(what, totals[0], 'summaryFileData.totals', 0);
  if (!isCount(t.total_cust_a)) fail(what, 'summaryFileData.totals.0.total_cust_a', COUNT, t.total_cust_a);
  if (!optNumber(t.total_cust_s)) fail(what, 'summaryFileData.totals.0.total_cust_s', 'number', t.total_cust_s);
  if (!optNumber(t.total_outages)) fail(what, 'summaryFileData.totals.0.total_outages', 'number', t.total_outages);
  const mode = data.page_mode;
  if (mode === null || mode === undefined) return raw as KubraSummary;
  const m = objectAt(what, mode, 'summaryFileData.page_mode');
  if (!optText(m.redirectURL)) fail(what, 'summaryFileData.page_mode.redirectURL', 'string', m.redirectURL);
  if (!optBoolean(m.pausePublish)) fail(what, 'summaryFileData.page_mode.pausePublish', 'boolean', m.pausePublish);
  return raw as KubraSummary;
}

/** A paused or redirected map publishes nothing new: say so, so a flat line is not read as "nothing changed". */
export function summaryNotice(s: KubraSummary): string | null {
  const mode = s.summaryFileData.page_mode;
  if (mode?.pausePublish)
    return 'The utility has paused publishing (summary-1 page_mode.pausePublish): these are the last figures it published.';
  if (mode?.redirectURL)
    return `The utility's outage map redirects to ${mode.redirectURL}: these files may not be current.`;
  return null;
}
