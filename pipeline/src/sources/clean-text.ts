// Clean text at the boundary (issue 24 part 2): the characters and lengths upstream text may keep once quarantined.
// Control characters (C0, DEL, C1) broke every RSS/Atom reader and reach terminals; bidirectional overrides and
// isolates reorder what a reader sees; non-characters and lone surrogates are not text; a 100 KB name was stored and
// republished everywhere. Each field is cleaned once here, so every writer (JSON, CSV, feeds, pages) gets clean text.
import { createHash } from 'node:crypto';

/** Caps in UTF-16 code units, far above anything a real feed publishes (documented in docs/data-notice.md). */
export const TEXT_CAPS = {
  /** utility, area and municipality names, each segment of an area path, city, crew status */
  name: 200,
  /** incident ids: longer ones keep a prefix and a hash of the whole id (`prefix~hash`), so they stay unique */
  id: 100,
  /** causes (some feeds put an operator's comment there) */
  cause: 500,
  /** the feed's notice to customers */
  notice: 2_000,
  /** entries of the poll log's unmatched list (a name and why it was not placed) */
  unmatched: 300,
  /** out_display ("<5"), times (ISO text) */
  short: 64,
} as const;
/** Segments of an area path kept (real trees are 2 to 5 deep). */
export const PATH_DEPTH_CAP = 12;

/** What cleaning changed in one snapshot: counted for the poll log, never done silently. */
export interface TextCleaning {
  /** control characters removed (or, for tab and line breaks in a one-line field, made a space) */
  controls: number;
  /** bidirectional overrides and isolates removed (U+202A–U+202E, U+2066–U+2069) */
  bidi: number;
  /** Unicode non-characters removed (U+FDD0–U+FDEF, U+xFFFE, U+xFFFF) */
  noncharacters: number;
  /** lone surrogates replaced by U+FFFD */
  surrogates: number;
  /** fields cut to their cap (an area path beyond PATH_DEPTH_CAP segments counts once) */
  capped: number;
  /** the longest field that was cut, in characters */
  longest: number;
}

export const noCleaning = (): TextCleaning => ({
  controls: 0,
  bidi: 0,
  noncharacters: 0,
  surrogates: 0,
  capped: 0,
  longest: 0,
});

/** A field's rule: its cap, and whether it may keep tab and line breaks (a notice or a comment may; a name may not). */
export interface TextRule {
  cap: number;
  multiline: boolean;
}

/** Anything the slow path must look at (surrogates too: a valid pair may be a supplementary non-character). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const SUSPECT = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufdd0-\ufdef\ufffe\uffff\ud800-\udfff]/;

type Removed = 'controls' | 'bidi' | 'noncharacters' | 'surrogates';

/** What kind of unwanted character `cp` is, or null (tab and line breaks are decided per field, by cleanChar). */
function unwanted(cp: number): Removed | null {
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return 'controls';
  if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) return 'bidi';
  if (cp >= 0xd800 && cp <= 0xdfff) return 'surrogates';
  if ((cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) === 0xfffe) return 'noncharacters';
  return null;
}

/** One character as cleaned: itself, a replacement, or '' (removed), counting what changed. */
function cleanChar(ch: string, multiline: boolean, t: TextCleaning): string {
  const cp = ch.codePointAt(0)!;
  if (cp === 0x09 || cp === 0x0a || cp === 0x0d) {
    if (multiline && cp !== 0x0d) return ch;
    t.controls += 1;
    return multiline ? '\n' : ' ';
  }
  const kind = unwanted(cp);
  if (!kind) return ch;
  t[kind] += 1;
  return kind === 'surrogates' ? '\ufffd' : '';
}

/** The characters of `s` as cleaned (iterating by code point: a pair stays a pair, a lone half is caught). */
function cleanChars(s: string, multiline: boolean, t: TextCleaning): string {
  if (!SUSPECT.test(s)) return s;
  // CRLF is one line break, not two.
  const crlf = multiline ? s.split('\r\n') : [s];
  t.controls += crlf.length - 1;
  const text = crlf.join('\n');
  let out = '';
  for (const ch of text) out += cleanChar(ch, multiline, t);
  return out;
}

/** `s` cut to `cap` code units with an ellipsis, never between the halves of a pair. */
function cut(s: string, cap: number, t: TextCleaning): string {
  if (s.length <= cap) return s;
  t.capped += 1;
  t.longest = Math.max(t.longest, s.length);
  let end = cap - 1;
  if (/[\ud800-\udbff]/.test(s[end - 1] ?? '')) end -= 1;
  return `${s.slice(0, end)}…`;
}

export function cleanText(s: string, rule: TextRule, t: TextCleaning): string {
  return cut(cleanChars(s, rule.multiline, t), rule.cap, t);
}

export const cleanOrNull = (s: string | null, rule: TextRule, t: TextCleaning): string | null =>
  typeof s === 'string' ? cleanText(s, rule, t) : s;

/**
 * An id as cleaned: unchanged when it was clean and short; otherwise a prefix of its clean form, `~` and 12 hex digits
 * of the SHA-256 of the id as received, within TEXT_CAPS.id: two different ids never become one (removing a control
 * character could otherwise make `a\u0000` equal `a`), and the same upstream id gets the same key every poll.
 */
export function cleanId(id: string, t: TextCleaning): string {
  const clean = cleanChars(id, false, t);
  if (clean === id && id.length <= TEXT_CAPS.id) return id;
  if (id.length > TEXT_CAPS.id) {
    t.capped += 1;
    t.longest = Math.max(t.longest, id.length);
  }
  const hash = createHash('sha256').update(id).digest('hex').slice(0, 12);
  const head = clean.slice(0, TEXT_CAPS.id - hash.length - 1).replace(/[\ud800-\udbff]$/, '');
  return `${head}~${hash}`;
}
