// GridVu getAllOutages answer: `outageLst[]`, one point per outage with its customers, ETR, substation/feeder and
// planned flag, checked in place for only what normalize reads.
import { isObj, misfit, nullish, objectAt, arrayAt, optBoolean, optNumOrText, optText } from '../checks.ts';

type Text = string | null | undefined;
type NumText = number | string | null | undefined;

/** One outage as far as normalize reads it; unread keys pass through. */
export interface GridVuOutage {
  /** the outage's own id (`i-1` in the sample) */
  idf?: NumText;
  /** substation and feeder names: the id's fallback */
  subst?: Text;
  fd?: Text;
  custAffected?: NumText;
  lat?: NumText;
  lon?: NumText;
  /** Lansing wall clock without an offset, `2026-06-29T12:00:00` */
  etr?: Text;
  /** true (or "true") for planned work: counted, and flagged */
  planned?: boolean | string | null;
}

const WHAT = 'GridVu getAllOutages answer';
const AT = 'outageLst';
const optFlag = (v: unknown): boolean => optBoolean(v) || typeof v === 'string';

function checkOutage(v: unknown, i: number): void {
  if (!isObj(v)) misfit(WHAT, AT, i, '', 'object', v);
  if (!optNumOrText(v.idf)) misfit(WHAT, AT, i, 'idf', 'number or string', v.idf);
  if (!optText(v.subst)) misfit(WHAT, AT, i, 'subst', 'string', v.subst);
  if (!optText(v.fd)) misfit(WHAT, AT, i, 'fd', 'string', v.fd);
  if (!optNumOrText(v.custAffected)) misfit(WHAT, AT, i, 'custAffected', 'number or string', v.custAffected);
  if (!optNumOrText(v.lat)) misfit(WHAT, AT, i, 'lat', 'number or string', v.lat);
  if (!optNumOrText(v.lon)) misfit(WHAT, AT, i, 'lon', 'number or string', v.lon);
  if (!optText(v.etr)) misfit(WHAT, AT, i, 'etr', 'string', v.etr);
  if (!optFlag(v.planned)) misfit(WHAT, AT, i, 'planned', 'boolean or string', v.planned);
}

/** The answer, checked in place (no copy). A missing or null outage list is no outages (a quiet day may omit it). */
export function readRaw(raw: unknown): GridVuOutage[] {
  const root = objectAt(WHAT, raw, '');
  const outages = nullish(root.outageLst) ? [] : arrayAt(WHAT, root.outageLst, AT);
  for (let i = 0; i < outages.length; i++) checkOutage(outages[i], i);
  return outages as GridVuOutage[];
}
