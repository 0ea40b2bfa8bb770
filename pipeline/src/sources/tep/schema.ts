// TEP OutageApp mapfeed answer (Tucson Electric Power and its sister UNS divisions in one feed): headline strings per
// division and outages tagged by division; checked in place for only what normalize reads, plus the division option.
import { SourceError } from '../../errors.ts';
import { arrayAt, fail, isObj, misfit, objectAt, optNumOrText, optObj, optText, type Obj } from '../checks.ts';

type Text = string | null | undefined;
type NumText = number | string | null | undefined;

/** One outage; other fields pass through unread. Counts and coordinates are text in both samples. */
export interface TepOutage {
  /** `TEP`, `USE` (UNS Electric) or `UEE`; the peer counts an outage without one as TEP's */
  division?: Text;
  customersOut?: NumText;
  /** the outage's own point, when it has one (read before the box's centre) */
  coordLat?: NumText;
  coordLng?: NumText;
  /** the area's centre: `{coordLatCenter, coordLngCenter}`, or `{}` when the outage has no point */
  bounds?: { coordLatCenter?: NumText; coordLngCenter?: NumText } | null;
  /** Phoenix wall clock without a year, e.g. `Jun 24, 8:17 PM` */
  formattedEstimatedRestoration?: Text;
  updatedCause?: Text;
  /** `Active` or `Unplanned` in the samples; read only to leave planned work out */
  event?: Text;
}

/** What fetch returns: the answer and its HTTP Date, the only clock that dates the year-less times. */
export interface TepRaw {
  captured_at: string | null;
  answer: unknown;
}

/** The division the feed tags the host utility's own outages with, and the peer's default. */
export const HOST_DIVISION = 'TEP';

/**
 * options.division: the feed's division code, or a list of them for a utility the feed splits in several (each
 * counted, its headlines summed); upper-cased (the feed's tags and headline suffixes are upper case); TEP when absent.
 */
export function divisionsOf(options: Record<string, unknown>): string[] {
  const v = options.division ?? HOST_DIVISION;
  const list = Array.isArray(v) ? v : [v];
  if (list.length === 0 || !list.every((d) => typeof d === 'string' && /^[A-Za-z]{2,8}$/.test(d.trim()))) {
    throw new SourceError(
      'config',
      `options.division must be the feed's division code, or a list of them, e.g. "TEP" (Tucson Electric Power) or ["USE"] (UNS Electric); got ${JSON.stringify(v)}`,
    );
  }
  return [...new Set(list.map((d) => (d as string).trim().toUpperCase()))];
}

export const WHAT = 'TEP mapfeed answer';

function checkOutage(v: unknown, at: string, i: number): void {
  const o = objectAt(WHAT, v, at, i);
  if (!optText(o.division)) misfit(WHAT, at, i, 'division', 'string', o.division);
  if (!optNumOrText(o.customersOut)) misfit(WHAT, at, i, 'customersOut', 'number or string', o.customersOut);
  const etr = o.formattedEstimatedRestoration;
  if (!optText(etr)) misfit(WHAT, at, i, 'formattedEstimatedRestoration', 'string', etr);
  if (!optText(o.updatedCause)) misfit(WHAT, at, i, 'updatedCause', 'string', o.updatedCause);
  if (!optText(o.event)) misfit(WHAT, at, i, 'event', 'string', o.event);
  if (!optNumOrText(o.coordLat)) misfit(WHAT, at, i, 'coordLat', 'number or string', o.coordLat);
  if (!optNumOrText(o.coordLng)) misfit(WHAT, at, i, 'coordLng', 'number or string', o.coordLng);
  if (!optObj(o.bounds)) misfit(WHAT, at, i, 'bounds', 'object', o.bounds);
  if (!isObj(o.bounds)) return;
  const b = o.bounds;
  const where = `${at}.${i}.bounds`;
  if (!optNumOrText(b.coordLatCenter)) fail(WHAT, `${where}.coordLatCenter`, 'number or string', b.coordLatCenter);
  if (!optNumOrText(b.coordLngCenter)) fail(WHAT, `${where}.coordLngCenter`, 'number or string', b.coordLngCenter);
}

export interface TepAnswer {
  /** the `AffectedCustomers{division}` headline of each division read, as sent ("1,267") */
  headlines: Map<string, NumText>;
  outages: TepOutage[];
}

/**
 * The answer, checked in place (no copy). The outage list is `data.outages` in one sample and a top-level `outages`
 * in the other (the peer reads both): `data`, when present, is where it is.
 */
export function readAnswer(raw: unknown, divisions: string[]): TepAnswer {
  const root: Obj = objectAt(WHAT, raw, '');
  const at = root.data === undefined ? 'outages' : 'data.outages';
  const list = arrayAt(WHAT, at === 'outages' ? root.outages : objectAt(WHAT, root.data, 'data').outages, at);
  for (let i = 0; i < list.length; i++) checkOutage(list[i], at, i);
  const headlines = new Map<string, NumText>();
  for (const d of divisions) {
    const key = `AffectedCustomers${d}`;
    if (!optNumOrText(root[key])) fail(WHAT, key, 'number or string', root[key]);
    headlines.set(d, root[key] as NumText);
  }
  return { headlines, outages: list as TepOutage[] };
}

/** fetch's `{captured_at, answer}`, or a bare answer (saved from the browser: no date, so no times). */
export function readRaw(raw: unknown): TepRaw {
  if (!isObj(raw) || !('answer' in raw) || !('captured_at' in raw)) return { captured_at: null, answer: raw };
  if (!optText(raw.captured_at)) fail(WHAT, 'captured_at', 'string', raw.captured_at);
  return { captured_at: (raw.captured_at as Text) ?? null, answer: raw.answer };
}
