// Dates and times a request names (query strings and paths), parsed strictly (issue 37): a real calendar date
// (`2026-02-30` is refused, never read as March 2), every time with its zone, and a year inside the documented window,
// so no range a request names can make a loop run past the data (`to=9999-12-31` stepped to `+010000-01-01`, which
// sorts below it, forever). One parser for the function layer's `at`, `from`, `to`, `since` and the `{date}` paths.
import { badParam, type ApiError } from './errors.ts';

/** The first year any data covers (EAGLE-I's first; the reports start there too). */
export const FIRST_YEAR = 2014;
/** How far past the current UTC year a query may reach (a range ending next New Year). */
export const YEARS_AHEAD = 1;
export const lastYear = (now: Date): number => now.getUTCFullYear() + YEARS_AHEAD;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
// RFC 3339 date-time (T and Z in either case, seconds and fraction optional), or a date alone (midnight UTC).
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?([Zz]|[+-]\d{2}:?\d{2}))?$/;

const daysInMonth = (y: number, m: number): number => new Date(Date.UTC(y, m, 0)).getUTCDate();
const MONTHS = 'January February March April May June July August September October November December'.split(' ');
const shown = (raw: string) => (raw.length > 60 ? `${raw.slice(0, 60)}…` : raw);

/** Why year-month-day is not a day a request may name, or null. */
function calendarProblem(param: string, y: number, m: number, d: number, now: Date): ApiError | null {
  if (m < 1 || m > 12) return badParam(param, `\`${param}\`: month ${m} does not exist; months run 01 to 12.`);
  const days = daysInMonth(y, m);
  if (d < 1 || d > days)
    return badParam(
      param,
      `\`${param}\`: ${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')} is not a calendar date (${MONTHS[m - 1]} ${y} has ${days} days).`,
    );
  if (y < FIRST_YEAR || y > lastYear(now))
    return badParam(param, `\`${param}\`: years run from ${FIRST_YEAR} to ${lastYear(now)}; got ${y}.`);
  return null;
}

/** A `YYYY-MM-DD` path or query value: the day itself, or the 400 that says what is wrong with it. */
export function dayOrError(param: string, raw: string, now = new Date()): string | ApiError {
  const m = DAY.exec(raw);
  if (!m) return badParam(param, `Expected \`${param}\` to be a date such as 2026-09-01, got \`${shown(raw)}\`.`);
  return calendarProblem(param, +m[1], +m[2], +m[3], now) ?? raw;
}

/** A strict `YYYY-MM-DD` (see dayOrError); throws its 400. */
export function parseDay(param: string, raw: string, now = new Date()): string {
  const day = dayOrError(param, raw, now);
  if (typeof day !== 'string') throw day;
  return day;
}

/**
 * An ISO-8601 (RFC 3339) instant with its zone, or a date alone (midnight UTC), inside the year window; throws a 400
 * naming `param` and what is wrong.
 */
export function parseInstant(param: string, raw: string, now = new Date()): Date {
  const m = INSTANT.exec(raw);
  if (!m)
    throw badParam(
      param,
      `Expected \`${param}\` to be an ISO-8601 time with its zone such as 2026-09-01T10:15:00Z (or a date, 2026-09-01), got \`${shown(raw)}\`.`,
    );
  const problem = calendarProblem(param, +m[1], +m[2], +m[3], now) ?? clockProblem(param, m);
  if (problem) throw problem;
  return new Date(Date.parse(m[4] === undefined ? `${raw}T00:00:00Z` : raw));
}

/** Why the time of day or the zone offset is out of range (24:00, 10:60, +25:00), or null. */
function clockProblem(param: string, m: RegExpExecArray): ApiError | null {
  if (m[4] === undefined) return null;
  const zone = /^[+-](\d{2}):?(\d{2})$/.exec(m[8]);
  const bad = +m[4] > 23 || +m[5] > 59 || +(m[6] ?? 0) > 59 || (zone !== null && (+zone[1] > 23 || +zone[2] > 59));
  return bad ? badParam(param, `\`${param}\`: \`${shown(m[0])}\` is not a time of day with a valid zone.`) : null;
}

/** The days from `first` to `last` (both `YYYY-MM-DD`, inclusive), at most `max` of them: a loop bounded before it starts. */
export function daysThrough(first: string, last: string, max: number): string[] {
  const t0 = Date.parse(`${first}T00:00:00Z`);
  const count = Math.min(max, Math.floor((Date.parse(`${last}T00:00:00Z`) - t0) / 86_400_000) + 1);
  return Array.from({ length: Math.max(0, count) }, (_, i) => new Date(t0 + i * 86_400_000).toISOString().slice(0, 10));
}
