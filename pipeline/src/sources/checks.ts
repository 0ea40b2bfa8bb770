// Hand checks of upstream answers, for every connector's schema.ts: only the fields a normaliser reads, checked in
// place (no copy), a misfit thrown as a `schema` poll failure naming the field path. zod copied every record with
// all its unread keys and cost more than JSON.parse of the answer itself (issue 12). The checks are written out
// field by field with the small predicates below: a table-driven check (a list of fields and tests) reads the fields
// by computed key through shared call sites and measured 30–40× slower per record than these inlined ones.
// Below them, what the normalisers share to stay within their budget: readings remembered across polls (counts,
// texts, yearless display times) and the county tally.
import { SourceError } from '../errors.ts';
import { addCounty, toCount, type CountyCount, type Incident } from './snapshot.ts';

export type Obj = Record<string, unknown>;

export const kind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const nullish = (v: unknown): v is null | undefined => v === null || v === undefined;

/** What a read field may hold; `opt*` also accepts absent and null. Named for the failure's `expected …`. */
export const optText = (v: unknown): boolean => v === null || v === undefined || typeof v === 'string';
export const optNumber = (v: unknown): boolean => v === null || v === undefined || typeof v === 'number';
export const optBoolean = (v: unknown): boolean => v === null || v === undefined || typeof v === 'boolean';
/** An id or a count sent as a number or as text. */
export const numOrText = (v: unknown): boolean => typeof v === 'number' || typeof v === 'string';
export const optNumOrText = (v: unknown): boolean => v === null || v === undefined || numOrText(v);
export const optObj = (v: unknown): boolean => v === null || v === undefined || isObj(v);
export const optArray = (v: unknown): boolean => v === null || v === undefined || Array.isArray(v);

/** Where a field is: `path` ('' for the root), then index `i` when ≥ 0, then `key` when given. */
export function pathOf(path: string, i = -1, key?: string): string {
  const at = i < 0 ? path : path ? `${path}.${i}` : String(i);
  return key === undefined ? at || '(root)' : at ? `${at}.${key}` : key;
}

/** Throws the `schema` failure: `<what> has an unexpected shape: <path>: expected <want>, got <kind>`. */
export function fail(what: string, path: string, want: string, v: unknown): never {
  throw new SourceError('schema', `${what} has an unexpected shape: ${path}: expected ${want}, got ${kind(v)}`);
}

/** The same for field `key` of record `i` of the list at `path` (`key` '' for the record itself). */
export function misfit(what: string, path: string, i: number, key: string, want: string, v: unknown): never {
  return fail(what, pathOf(path, i, key || undefined), want, v);
}

/** `v` (at `path`, index `i` when ≥ 0) as an object, else the failure. */
export function objectAt(what: string, v: unknown, path: string, i = -1): Obj {
  if (!isObj(v)) fail(what, pathOf(path, i), 'object', v);
  return v;
}

/** `v` (at `path`) as an array, else the failure. */
export function arrayAt(what: string, v: unknown, path: string): unknown[] {
  if (!Array.isArray(v)) fail(what, pathOf(path), 'array', v);
  return v;
}

/**
 * toCount (a count published as a number or as text, "1,267" included), with a fast path for the text most feeds
 * send, digits with or without thousands commas ("5", "1,267"): toCount's regexes cost more per record than
 * JSON.parse of the record. Anything else (decimals, blanks, junk) goes to toCount itself.
 */
export function countOf(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? Math.round(v) : null;
  if (typeof v !== 'string' || v.length > 20) return toCount(v);
  let n = 0;
  let digits = 0;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c === 44) continue; // ','
    const d = c - 48;
    if (d < 0 || d > 9) return toCount(v);
    n = n * 10 + d;
    digits += 1;
  }
  return digits > 0 && digits <= 15 ? n : toCount(v);
}

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * Number(text) for a number sent as text ("38.494", "-78.623"), a third of its cost on the plain decimals feeds send:
 * up to 15 digits with an optional sign and point are read as an integer divided by a power of ten, both exact in a
 * double, so the one rounding of the division gives the correctly rounded value Number gives. Anything else
 * (exponents, spaces, blanks, longer numbers) is Number's.
 */
export function decimalOf(text: string): number {
  const n = text.length;
  if (n === 0 || n > 17) return Number(text);
  let i = text.charCodeAt(0) === 45 ? 1 : 0; // '-'
  let m = 0;
  let digits = 0;
  let scale = -1;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 46 && scale < 0) {
      scale = 0; // '.'
      continue;
    }
    const d = c - 48;
    if (d < 0 || d > 9) return Number(text);
    m = m * 10 + d;
    digits += 1;
    if (scale >= 0) scale += 1;
  }
  if (digits === 0 || digits > 15) return Number(text);
  const v = scale > 0 ? m / POW10[scale] : m;
  return text.charCodeAt(0) === 45 ? -v : v;
}

/**
 * A reading (a time text → ISO, a name → FIPS) remembered across polls: feeds send the same texts poll after poll
 * and record after record, and reading one (regexes, Date, zones) costs more than its share of JSON.parse. Cleared
 * when it grows large, so a feed of ever-new texts cannot grow it without bound.
 */
export function remembered<K, V>(read: (k: K) => V, max = 20_000): (k: K) => V {
  const known = new Map<K, V>();
  return (k) => {
    let v = known.get(k);
    if (v === undefined && !known.has(k)) {
      if (known.size >= max) known.clear();
      v = read(k);
      known.set(k, v);
    }
    return v as V;
  };
}

/**
 * `remembered` for a reading of three parts (a point's lat and lon and a time text, say), keyed by the parts
 * themselves through nested maps: a key text built from them would cost what the memo saves.
 */
export function remembered3<A, B, C, V>(read: (a: A, b: B, c: C) => V, max = 50_000): (a: A, b: B, c: C) => V {
  const known = new Map<A, Map<B, Map<C, V>>>();
  let size = 0;
  return (a, b, c) => {
    let byB = known.get(a);
    if (!byB) known.set(a, (byB = new Map()));
    let byC = byB.get(b);
    if (!byC) byB.set(b, (byC = new Map()));
    let v = byC.get(c);
    if (v === undefined && !byC.has(c)) {
      if (size >= max) {
        known.clear();
        size = 0;
      }
      v = read(a, b, c);
      byC.set(c, v);
      size += 1;
    }
    return v as V;
  };
}

/** A display time as read against an answer's date: its ISO text (null: the text is no time), and the instant. */
interface Instant {
  iso: string | null;
  t: number;
  ref: number;
}
const WEEK_MS = 7 * 86_400_000;
const DIGIT = /\d/;

/**
 * Times a feed prints as local text without a year ("Jul 27, 11:48 a.m.", "12:24 PM on 03/02"), read against the
 * answer's date and remembered across polls by zone and text: a storm's outages come back poll after poll with the
 * same texts, and reading one (regex, zone, year) costs about a microsecond. An entry is reused while the answer's
 * date is within a week of the one it was read against (the year choice cannot change there); the reader's window
 * (a time further than `windowMs` from the answer's date is none) is checked against the current date every time. A
 * text without a digit ("Assessing", "Not yet determined") is never a time, whatever the date. One per connector.
 */
export class DisplayTimes {
  private readonly byZone = new Map<string, Map<string, Instant>>();
  private size = 0;

  constructor(readonly windowMs: number) {}

  /** The times of one answer in `zone`, dated `refMs` (NaN: undated), read with `read` when not remembered. */
  of(zone: string, refMs: number, read: (text: string) => string | null): AnswerTimes {
    let byText = this.byZone.get(zone);
    if (!byText) this.byZone.set(zone, (byText = new Map()));
    return new AnswerTimes(this, byText, refMs, read);
  }

  /** Counts a new entry; past the bound every zone's entries are dropped. */
  added(): void {
    if (++this.size < 50_000) return;
    for (const m of this.byZone.values()) m.clear();
    this.size = 0;
  }
}

export class AnswerTimes {
  constructor(
    private readonly all: DisplayTimes,
    private readonly byText: Map<string, Instant>,
    private readonly refMs: number,
    private readonly read: (text: string) => string | null,
  ) {}

  /** ISO UTC for a display text, or null when it is none (or outside the reader's window). */
  at(text: string | null | undefined): string | null {
    if (!text) return null;
    const known = this.byText.get(text);
    if (known?.iso === null) return null;
    if (known && Math.abs(known.ref - this.refMs) < WEEK_MS)
      return Math.abs(known.t - this.refMs) <= this.all.windowMs ? known.iso : null;
    const iso = this.read(text);
    if (iso !== null || !DIGIT.test(text)) {
      this.all.added();
      this.byText.set(text, { iso, t: iso === null ? Number.NaN : Date.parse(iso), ref: this.refMs });
    }
    return iso;
  }
}

const byFips = (a: { fips: string }, b: { fips: string }): number => (a.fips < b.fips ? -1 : a.fips > b.fips ? 1 : 0);

/** A FIPS code's five digits as a number, or -1 when it is not five digits. */
function fipsCode(f: string): number {
  if (f.length !== 5) return -1;
  let code = 0;
  for (let k = 0; k < 5; k++) {
    const d = f.charCodeAt(k) - 48;
    if (d < 0 || d > 9) return -1;
    code = code * 10 + d;
  }
  return code;
}

/**
 * `list` in FIPS order, rows of one county in their order (a new array unless it was in order already). Feeds mostly
 * list counties in order, which one pass confirms. Otherwise each row is packed into one 32-bit key (its five-digit
 * FIPS × 2^15 + its position), which a typed array sorts natively: a comparator, called n·log n times from the sort,
 * cost 5× as much on a 114-county report. (Plain comparison of FIPS orders them as localeCompare does.)
 */
function inFipsOrder<T extends { fips: string }>(list: T[]): T[] {
  let inOrder = true;
  for (let i = 1; i < list.length && inOrder; i++) inOrder = list[i - 1].fips <= list[i].fips;
  if (inOrder) return list;
  const keys = new Uint32Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const code = fipsCode(list[i].fips);
    if (code < 0 || list.length > 32_768) return list.slice().sort(byFips);
    keys[i] = code * 32_768 + i;
  }
  keys.sort();
  const out = new Array<T>(list.length);
  for (let j = 0; j < keys.length; j++) out[j] = list[keys[j] & 32_767];
  return out;
}

/** A snapshot's counties (addCounty's map) in FIPS order. */
export function sortedCounties<T extends { fips: string }>(counties: Map<string, T>): T[] {
  return inFipsOrder(Array.from(counties.values()));
}

/** The sum of the counties' customers served, or null when any county's is unknown (or there are none). */
/**
 * A point feed's counties: the customers out of every placed incident summed per county (served unknown). Incidents
 * with customers out and no county make one `unmatched` line, `N <noun>(s) not placed in a county (M customers out)`.
 */
export function placedCounties(
  incidents: ReadonlyArray<Pick<Incident, 'fips' | 'customers_out'>>,
  unmatched: string[],
  noun: string,
): CountyCount[] {
  const counties = new Map<string, CountyCount>();
  let lost = 0;
  let lostOut = 0;
  for (const i of incidents) {
    if (i.customers_out <= 0) continue;
    if (i.fips) addCounty(counties, i.fips, i.customers_out, null);
    else {
      lost += 1;
      lostOut += i.customers_out;
    }
  }
  if (lost) unmatched.push(`${lost} ${noun}(s) not placed in a county (${lostOut} customers out)`);
  return sortedCounties(counties);
}

export function servedSum(counties: ReadonlyArray<{ customers_served: number | null }>): number | null {
  if (counties.length === 0) return null;
  let sum = 0;
  for (const c of counties) {
    if (c.customers_served === null) return null;
    sum += c.customers_served;
  }
  return sum;
}

/**
 * Counties summed as a normaliser meets them (as addCounty sums them: served is null only when every row's is), kept
 * as a list and merged once, in FIPS order, at the end. For feeds that list each county about once (county tables,
 * area trees) a Map's get and set per row cost more than JSON.parse of the row; where many rows (incidents) fall in
 * few counties, addCounty's Map stays the cheaper.
 */
export class CountyTally {
  private readonly rows: CountyCount[] = [];

  add(fips: string, out: number, served: number | null): void {
    this.rows.push({ fips, customers_out: out, customers_served: served });
  }

  /** The counties in FIPS order, one row each. */
  sorted(): CountyCount[] {
    return merged(inFipsOrder(this.rows));
  }
}

/** Rows in FIPS order with the rows of one county summed into its first. */
function merged(rows: CountyCount[]): CountyCount[] {
  let n = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const prev = n > 0 ? rows[n - 1] : null;
    if (prev?.fips !== r.fips) {
      rows[n++] = r;
      continue;
    }
    prev.customers_out += r.customers_out;
    prev.customers_served =
      prev.customers_served === null && r.customers_served === null
        ? null
        : (prev.customers_served ?? 0) + (r.customers_served ?? 0);
  }
  rows.length = n;
  return rows;
}

/**
 * An incident as a class instance, built from the literal a normaliser writes. V8 pretenures an object literal's
 * allocation site once most of its objects survive a young-generation collection, as a poll's incidents do when one
 * falls mid-normalise; pretenured, every incident is allocated old, each store of the answer's (young) strings into
 * it is recorded, and those strings live on until a full collection. WEC's and PacifiCorp's normalise ran 1.4× as
 * long in the processes that took that turn (4 of 6 and 2 of 5); objects a constructor builds are not pretenured
 * (16 of 16 fast). The fields are declared in the literal's order, so the JSON is the same.
 */
class IncidentRow implements Incident {
  id: string;
  fips: string | null;
  customers_out: number;
  etr: string | null;
  crew_status: string | null;
  cause: string | null;
  started_at: string | null;
  lat: number | null;
  lon: number | null;
  city: string | null;
  planned: boolean;

  constructor(i: NewIncident) {
    this.id = i.id;
    this.fips = i.fips;
    this.customers_out = i.customers_out;
    this.etr = i.etr;
    this.crew_status = i.crew_status;
    this.cause = i.cause;
    this.started_at = i.started_at;
    this.lat = i.lat;
    this.lon = i.lon;
    this.city = i.city;
    this.planned = i.planned ?? false;
  }
}

/** An incident as a normaliser writes it: `planned` only where the feed flags planned work. */
export type NewIncident = Omit<Incident, 'planned'> & { planned?: boolean };

/** The incident `i` as a normaliser returns it (see IncidentRow). */
export const newIncident = (i: NewIncident): Incident => new IncidentRow(i);
