// Vendors print times as local wall-clock text without a zone (some without a year): read them in the utility's zone.
import { SourceError } from '../errors.ts';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** The zone most of each state's customers live in; split states (TN, KY, TX, …) need `options.time_zone`. */
const ZONE_STATES: Record<string, string> = {
  'America/New_York': 'CT DE DC FL GA IN KY ME MD MA MI NH NJ NY NC OH PA RI SC VT VA WV',
  'America/Chicago': 'AL AR IL IA KS LA MN MS MO NE ND OK SD TN TX WI',
  'America/Denver': 'CO ID MT NM UT WY',
  'America/Phoenix': 'AZ',
  'America/Los_Angeles': 'CA NV OR WA',
  'America/Anchorage': 'AK',
  'Pacific/Honolulu': 'HI',
  'America/Puerto_Rico': 'PR VI',
  'Pacific/Guam': 'GU MP',
  'Pacific/Pago_Pago': 'AS',
};
const ZONE_OF = new Map(
  Object.entries(ZONE_STATES).flatMap(([zone, codes]) => codes.split(' ').map((c) => [c, zone] as const)),
);

/** `options.time_zone` (IANA name) when set, else the zone of the source's first state. */
/** zones already checked: building an Intl.DateTimeFormat costs 150–400 µs, more than a whole small normalise */
const validZones = new Set<string>();

export function zoneFor(states: string[], option: unknown): string {
  const zone = typeof option === 'string' && option ? option : ZONE_OF.get(states[0] ?? '');
  if (!zone)
    throw new SourceError(
      'config',
      `No time zone for state ${states[0]}; set options.time_zone to an IANA name such as "America/Chicago"`,
    );
  if (validZones.has(zone)) return zone;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    validZones.add(zone);
  } catch {
    throw new SourceError(
      'config',
      `options.time_zone \`${zone}\` is not an IANA time zone; use e.g. "America/Chicago"`,
    );
  }
  return zone;
}

interface Wall {
  year: number | null;
  month: number;
  day: number;
  minutes: number;
  weekday: number | null;
}

const h12 = (h: string, ap: string) => (Number(h) % 12) + (/p/i.test(ap) ? 12 : 0);
const month = (name: string) => MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;

/** The shapes seen on OutageEntry, Milsoft mobile and Chugach maps; every other text is "not parseable" (null). */
const SHAPES: Array<[RegExp, (m: RegExpExecArray) => Wall]> = [
  // "Jun 29 2026 01:37 pm" (estimated_restore_time)
  [
    /^([a-z]{3})[a-z]*\.? (\d{1,2}),? (\d{4}),? (\d{1,2}):(\d{2}) ?([ap]m)$/i,
    (m) => ({ year: +m[3], month: month(m[1]), day: +m[2], minutes: h12(m[4], m[6]) * 60 + +m[5], weekday: null }),
  ],
  // "Mon, Jun 29, 01:37 pm" (formatted_ert: no year, the weekday pins it)
  [
    /^([a-z]{3})[a-z]*,? ([a-z]{3})[a-z]*\.? (\d{1,2}),? (\d{1,2}):(\d{2}) ?([ap]m)$/i,
    (m) => ({
      year: null,
      month: month(m[2]),
      day: +m[3],
      minutes: h12(m[4], m[6]) * 60 + +m[5],
      weekday: DAYS.indexOf(m[1].toLowerCase()),
    }),
  ],
  // "2026-09-27 16:30:00" (MySQL style)
  [
    /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::\d{2})?$/,
    (m) => ({ year: +m[1], month: +m[2], day: +m[3], minutes: +m[4] * 60 + +m[5], weekday: null }),
  ],
  // "08/26 09:32 pm" (start_date: no year); "6/29/2026 10:23:00 AM" (Milsoft's mobile service, with seconds)
  [
    /^(\d{1,2})\/(\d{1,2})(?:\/(\d{4}))? (\d{1,2}):(\d{2})(?::\d{2})? ?([ap]m)$/i,
    (m) => ({
      year: m[3] ? +m[3] : null,
      month: +m[1],
      day: +m[2],
      minutes: h12(m[4], m[6]) * 60 + +m[5],
      weekday: null,
    }),
  ],
  // "06/24/2026 15:00" (Chugach: a 24-hour clock, the year given)
  [
    /^(\d{1,2})\/(\d{1,2})\/(\d{4}) (\d{1,2}):(\d{2})(?::\d{2})?$/,
    (m) => ({ year: +m[3], month: +m[1], day: +m[2], minutes: +m[4] * 60 + +m[5], weekday: null }),
  ],
];

/** Wall-clock ms (as if UTC) of a date, or null when the date does not exist (Feb 30, month 0). */
function wallMs(year: number, w: Wall): number | null {
  const t = Date.UTC(year, w.month - 1, w.day, 0, w.minutes);
  const d = new Date(t);
  return d.getUTCMonth() === w.month - 1 && d.getUTCDate() === w.day ? t : null;
}

/**
 * ISO UTC for a local time text in `zone`, or null when it is blank or not one of the known shapes. A missing year
 * is the one within a year of `refMs` that fits the weekday (when printed) and lies closest to `refMs`.
 */
export function parseLocal(text: string | null | undefined, zone: string, refMs: number): string | null {
  const s = text?.trim();
  if (!s || s.startsWith('0000')) return null;
  for (const [re, read] of SHAPES) {
    const m = re.exec(s);
    if (!m) continue;
    const w = read(m);
    const ref = new Date(refMs).getUTCFullYear();
    const years = w.year !== null ? [w.year] : [ref - 1, ref, ref + 1];
    const fits = years
      .map((y) => wallMs(y, w))
      .filter((t): t is number => t !== null && (w.weekday === null || new Date(t).getUTCDay() === w.weekday));
    if (!fits.length) return null;
    const best = fits.reduce((a, b) => (Math.abs(b - refMs) < Math.abs(a - refMs) ? b : a));
    return new Date(zonedToUtc(best, zone)).toISOString();
  }
  return null;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** Offsets by zone and UTC hour: US offsets change only on whole UTC hours, and Intl costs ~25 µs a call. */
const offsets = new Map<string, number>();

/** How far `zone`'s wall clock is ahead of UTC at instant `utcMs`. */
function offsetMs(zone: string, utcMs: number): number {
  const key = `${zone}|${Math.floor(utcMs / 3_600_000)}`;
  const known = offsets.get(key);
  if (known !== undefined) return known;
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(zone, f);
  }
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(utcMs)) p[part.type] = Number(part.value);
  const offset = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) - Math.floor(utcMs / 60_000) * 60_000;
  if (offsets.size >= 50_000) offsets.clear();
  offsets.set(key, offset);
  return offset;
}

/** The instant whose wall clock in `zone` reads `wall` (second pass settles DST changes). */
function zonedToUtc(wall: number, zone: string): number {
  const first = wall - offsetMs(zone, wall);
  return wall - offsetMs(zone, first);
}
