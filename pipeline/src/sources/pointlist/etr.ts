// Restoration times as point-list feeds print them, read in the utility's zone: ISO 8601 (an offset makes it an
// instant, none makes it wall clock), US `6/24/2026 7:00:00 PM`, and `Today at 03:30 PM HST` (needs the answer's date).
// Epoch milliseconds are instants. Anything else is no time (null): its zone or date would be a guess.
import { toIso } from '../snapshot.ts';
import { parseLocal } from '../local-time.ts';
import { remembered } from '../checks.ts';
import type { EtrFormat } from './options.ts';

/** `YYYY-MM-DD[T ]hh:mm[:ss[.fff]]`, optionally with `Z` or an offset. */
const ISO = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;
/** `M/D/YYYY h:mm[:ss] AM` */
const MDY = /^(\d{1,2})\/(\d{1,2})\/(\d{4}),? (\d{1,2}):(\d{2})(?::(\d{2}))? ?([AP])\.?M\.?$/i;
/** `Today at 03:30 PM HST`, `Tomorrow 7:00 AM` (a trailing zone abbreviation is the utility's own, and ignored) */
const DAY_AT = /^(today|tomorrow)(?: at)? (\d{1,2}):(\d{2}) ?([AP])\.?M\.?(?: [A-Z]{2,5})?$/i;

const pad = (n: number) => String(n).padStart(2, '0');

/** Wall clock `date hh:mm` plus seconds in `zone` as ISO UTC; placeholder years (0001, 9999) are none. */
function wall(date: string, h: number, m: number, s: number, zone: string): string | null {
  if (h > 23 || m > 59 || s > 59) return null;
  const minute = parseLocal(`${date} ${pad(h)}:${pad(m)}`, zone, 0);
  return minute === null ? null : toIso(Date.parse(minute) + s * 1000);
}

function readIso(text: string, zone: string): string | null {
  const m = ISO.exec(text);
  if (!m) return null;
  if (m[5]) {
    if (+m[2] > 23 || +m[3] > 59 || +(m[4] ?? 0) > 59) return null;
    // An offset without its colon (-0400) is written with one: Date.parse reads only the ISO form.
    return toIso(text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  }
  return wall(m[1], +m[2], +m[3], +(m[4] ?? 0), zone);
}

const h24 = (h: string, ap: string) => (Number(h) % 12) + (/p/i.test(ap) ? 12 : 0);

function readMdy(text: string, zone: string): string | null {
  const m = MDY.exec(text);
  if (!m || +m[4] < 1 || +m[4] > 12) return null;
  return wall(`${m[3]}-${pad(+m[1])}-${pad(+m[2])}`, h24(m[4], m[7]), +m[5], +(m[6] ?? 0), zone);
}

/** Date formatters by zone: building one costs more than a whole small normalise. */
const dates = new Map<string, Intl.DateTimeFormat>();

/** The calendar date in `zone` at instant `t`, `YYYY-MM-DD`. */
function dateIn(zone: string, t: number): string {
  let f = dates.get(zone);
  if (!f)
    dates.set(
      zone,
      (f = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' })),
    );
  return f.format(t);
}

function readDayAt(text: string, zone: string, refMs: number): string | null {
  const m = DAY_AT.exec(text);
  if (!m || Number.isNaN(refMs) || +m[2] < 1 || +m[2] > 12) return null;
  // Noon of the answer's own date in the zone, plus a day for "tomorrow": no DST change moves noon across a date.
  const today = dateIn(zone, refMs);
  const noon = Date.parse(parseLocal(`${today} 12:00`, zone, 0) ?? '');
  const date = /^tomorrow/i.test(m[1]) ? dateIn(zone, noon + 86_400_000) : today;
  return wall(date, h24(m[2], m[4]), +m[3], 0, zone);
}

/** Readers by format and zone, each remembering its texts across polls (the same outages come back poll after poll). */
const readers = new Map<string, (text: string) => string | null>();

/**
 * The ETR `v` (text, or epoch ms) as ISO UTC, or null. `refMs` is the answer's own time (its HTTP Date): only
 * `day_at` texts need it, and without it they are none. ISO texts with an offset are read in every format.
 */
export function readEtr(v: number | string | null | undefined, format: EtrFormat, zone: string, refMs = Number.NaN) {
  if (typeof v === 'number') return toIso(v);
  const text = v?.trim();
  if (!text) return null;
  if (format === 'day_at') return readDayAt(text, zone, refMs) ?? (ISO.test(text) ? readIso(text, zone) : null);
  const key = `${format}|${zone}`;
  let r = readers.get(key);
  if (!r) {
    const one = format === 'mdy' ? readMdy : readIso;
    readers.set(key, (r = remembered((t: string) => one(t, zone) ?? (format === 'mdy' ? readIso(t, zone) : null))));
  }
  return r(text);
}
