// NiSource GetPowerOutages answer: {outageList[], downResponse}, one point per outage. Checked by hand in place for
// only the fields normalize reads (see checks.ts: zod copied every record and cost more than JSON.parse).
import { arrayAt, fail, misfit, objectAt, optBoolean, optNumOrText, optNumber, optObj, optText } from '../checks.ts';

type Text = string | null | undefined;

/** One outage as far as normalize reads it; zip, maxAffected and stormMode pass through unread. */
export interface NisourceOutage {
  affected?: number | string | null;
  lat?: number | null;
  lng?: number | null;
  /** local wall clock without a zone, `2026-06-30T12:22:00`; `0001-01-01T00:00:00` when unknown */
  reported?: Text;
  /** local wall clock printed with a `Z` (see README: Times), `2026-06-30T16:00:00Z` */
  restore?: Text;
  status?: Text;
  cause?: Text;
  comment?: Text;
  city?: Text;
  [k: string]: unknown;
}

export interface NisourceDown {
  Down?: boolean | null;
  Text?: Text;
  [k: string]: unknown;
}

export interface NisourceAnswer {
  outageList: NisourceOutage[];
  downResponse?: NisourceDown | null;
}

const WHAT = 'NiSource GetPowerOutages answer';

function checkOutage(o: unknown, i: number): void {
  const at = 'outageList';
  const r = objectAt(WHAT, o, at, i);
  if (!optNumOrText(r.affected)) misfit(WHAT, at, i, 'affected', 'number or string', r.affected);
  if (!optNumber(r.lat)) misfit(WHAT, at, i, 'lat', 'number', r.lat);
  if (!optNumber(r.lng)) misfit(WHAT, at, i, 'lng', 'number', r.lng);
  if (!optText(r.reported)) misfit(WHAT, at, i, 'reported', 'string', r.reported);
  if (!optText(r.restore)) misfit(WHAT, at, i, 'restore', 'string', r.restore);
  if (!optText(r.status)) misfit(WHAT, at, i, 'status', 'string', r.status);
  if (!optText(r.cause)) misfit(WHAT, at, i, 'cause', 'string', r.cause);
  if (!optText(r.comment)) misfit(WHAT, at, i, 'comment', 'string', r.comment);
  if (!optText(r.city)) misfit(WHAT, at, i, 'city', 'string', r.city);
}

/** The answer, checked in place (no copy): only the fields normalize reads, each of the type it reads. */
export function readRaw(raw: unknown): NisourceAnswer {
  const root = objectAt(WHAT, raw, '');
  const list = arrayAt(WHAT, root.outageList, 'outageList');
  for (let i = 0; i < list.length; i++) checkOutage(list[i], i);
  const down = root.downResponse;
  if (!optObj(down)) fail(WHAT, 'downResponse', 'object', down);
  if (down) {
    const d = down as Record<string, unknown>;
    if (!optBoolean(d.Down)) fail(WHAT, 'downResponse.Down', 'boolean', d.Down);
    if (!optText(d.Text)) fail(WHAT, 'downResponse.Text', 'string', d.Text);
  }
  return raw as unknown as NisourceAnswer;
}
