// Connector test kit: unknown is never zero (issue 36 part 1). Every poll the kit makes also replays its raw answer
// with each count the connector reads made unreadable (missing, null, empty, "unknown", "many", "N/A", negative, not
// finite), first in one record, then in every record of its list (a renamed or emptied field). One record: the poll
// fails with reason `schema` naming the field, or the record is noted in `unreadable` and left out (the headline
// never raised), with no new 0 anywhere. Every record: the poll fails naming the field, or the figures still stand
// on other records; never a sum that had customers out published as none. A count is found, not declared: a whole-number leaf of the answer is one when adding 1 to it raises a
// published count and lowers none, so a new connector gets the check for free.
import { expect } from 'vitest';
import { SourceError } from '../../errors.ts';
import type { SourceDef } from '../source-def.ts';
import type { Snapshot } from '../snapshot.ts';
import { normalizeReadable } from '../unreadable.ts';
import type { ConnectorUnderTest } from './connector-kit.ts';

type Holder = Record<string, unknown> | unknown[];
/**
 * A count the answer may hold: a whole-number value at `holder[key]`, or (an XML, HTML or CSV answer kept as text)
 * the digits at `at` of the text there, named by the word before them (an attribute, a tag, a label).
 */
interface Leaf {
  holder: Holder;
  key: string | number;
  path: string;
  at?: { start: number; end: number; names: string[] };
  /** the same field in every record of the nearest list the leaf's record is in (itself included) */
  siblings: Holder[];
}

/** Where a value sits below the nearest list: the list, and the keys from its item down to the value. */
interface InList {
  list: unknown[];
  keys: Array<string | number>;
}

/** The holders at `keys` below each item of the list: the same place in every record. */
function siblingsOf(inList: InList | undefined): Holder[] {
  if (!inList) return [];
  const out: Holder[] = [];
  for (const item of inList.list) {
    let v: unknown = item;
    for (const k of inList.keys)
      v = typeof v === 'object' && v !== null ? (v as Record<string | number, unknown>)[k] : undefined;
    if (typeof v === 'object' && v !== null) out.push(v as Holder);
  }
  return out;
}

const DELETE = Symbol('delete');
/** What a feed has been seen to send where a count should be. */
export const UNREADABLE_VALUES: ReadonlyArray<unknown> = [DELETE, null, '', 'unknown', 'many', 'N/A', -5, Infinity];

/** Leaves the walk visits at most (records are alike: the first few of each list and the last stand for it). */
const MAX_LEAVES = 120;
const MAX_COUNT_LEAVES = 6;
const DIGITS = /^\d{1,9}(,\d{3})*$/;
/** Digits in text, after the name that labels them (`numOut="12"`, `<CUSTOUT>12<`, `Customers: 12`). */
const TEXT_COUNT = /([A-Za-z_][\w.:-]*)["'\s]*[=:>,]\s*["']?(\d{1,9})(?![\d.])/g;
const MAX_TEXT_LEAVES = 40;

/** The labelled whole numbers of a text value, as leaves (the first few). */
function textLeaves(holder: Holder, key: string | number, path: string, text: string): Leaf[] {
  const leaves: Leaf[] = [];
  for (const m of text.matchAll(TEXT_COUNT)) {
    const start = (m.index ?? 0) + m[0].length - m[2].length;
    // The words just before name it (`<Data name="EstCustomersOut"><value>50`): a failure may name any of them.
    const names = text.slice(Math.max(0, start - 100), start).match(/[A-Za-z_][\w.:-]+/g) ?? [m[1]];
    leaves.push({ holder, key, path: `${path}@${m[1]}`, at: { start, end: start + m[2].length, names }, siblings: [] });
    if (leaves.length >= MAX_TEXT_LEAVES) break;
  }
  return leaves;
}

const wholeCount = (v: unknown): number | null =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 1e9
    ? v
    : typeof v === 'string' && DIGITS.test(v)
      ? Number(v.replace(/,/g, ''))
      : null;

/** Each array's first three items and its last, breadth first: headlines before records. */
function leavesOf(raw: unknown): Leaf[] {
  const leaves: Leaf[] = [];
  type Step = { v: unknown; path: string; inList?: InList };
  const queue: Step[] = [{ v: raw, path: '' }];
  while (queue.length && leaves.length < MAX_LEAVES) {
    const { v, path, inList } = queue.shift() as Step;
    if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v)) continue;
    const keys: Array<string | number> = Array.isArray(v)
      ? [...new Set([0, 1, 2, v.length - 1])].filter((i) => i >= 0 && i < v.length)
      : Object.keys(v);
    for (const key of keys) {
      const child = (v as Record<string | number, unknown>)[key];
      const at = path ? `${path}.${key}` : String(key);
      if (wholeCount(child) !== null)
        leaves.push({ holder: v as Holder, key, path: at, siblings: Array.isArray(v) ? [] : siblingsOf(inList) });
      else if (typeof child === 'string' && child.length > 20) leaves.push(...textLeaves(v as Holder, key, at, child));
      else {
        const below = Array.isArray(v)
          ? { list: v, keys: [] }
          : inList && { list: inList.list, keys: [...inList.keys, key] };
        queue.push({ v: child, path: at, inList: below });
      }
    }
  }
  return leaves;
}

const sum = (xs: ReadonlyArray<{ customers_out: number }>): number => xs.reduce((s, x) => s + x.customers_out, 0);
/** The published sums: the headline, and customers out over the counties, areas and incidents. */
const sums = (s: Snapshot): number[] => [s.customers_out ?? 0, sum(s.counties), sum(s.areas), sum(s.incidents)];
const fingerprint = (s: Snapshot): string => [s.customers_out, ...sums(s).slice(1), s.incidents.length].join('|');
/** One more at the leaf raised a published sum and lowered none: a count (an id or a FIPS moved elsewhere). */
function raised(base: Snapshot, more: Snapshot): boolean {
  const a = sums(base);
  const b = sums(more);
  return b.some((n, k) => n > a[k]) && b.every((n, k) => n >= a[k]);
}
const zeros = (s: Snapshot): number =>
  [...s.counties, ...s.areas, ...s.incidents].filter((x) => x.customers_out === 0).length;

type Outcome = { snap: Snapshot } | { error: unknown };

/** The value as it would stand in text (DELETE leaves nothing). */
const asText = (v: unknown): string => (v === DELETE ? '' : String(v));

/** The value `v` would leave at `h[key]` (DELETE: none), a text leaf's digits replaced in its text. */
function mutated(h: Record<string | number, unknown>, leaf: Leaf, v: unknown): unknown {
  if (!leaf.at) return v === DELETE ? undefined : v;
  const text = h[leaf.key] as string;
  return text.slice(0, leaf.at.start) + asText(v) + text.slice(leaf.at.end);
}

/** The outcome with `v` set at `leaf.key` of each holder (DELETE removes it), the answer put back after. */
function withValue(run: () => Snapshot, holders: Holder[], leaf: Leaf, v: unknown): Outcome {
  const each = holders as Array<Record<string | number, unknown>>;
  const was = each.map((h) => [Object.hasOwn(h, leaf.key), h[leaf.key]] as const);
  for (const h of each) {
    const value = mutated(h, leaf, v);
    if (value === undefined && !Array.isArray(h)) delete h[leaf.key];
    else h[leaf.key] = value;
  }
  try {
    return { snap: run() };
  } catch (error) {
    return { error };
  } finally {
    each.forEach((h, k) => {
      if (was[k][0]) h[leaf.key] = was[k][1];
      else delete h[leaf.key];
    });
  }
}

/** The outcome with the leaf set to `v`. */
const withLeaf = (run: () => Snapshot, leaf: Leaf, v: unknown): Outcome => withValue(run, [leaf.holder], leaf, v);

/** The outcome with the field set to `v` in every record of the leaf's list that has it. */
const withEvery = (run: () => Snapshot, leaf: Leaf, v: unknown): Outcome =>
  withValue(
    run,
    leaf.siblings.filter((h) => Object.hasOwn(h, leaf.key)),
    leaf,
    v,
  );

/** The leaves whose value the connector counts: one more there raises a published count. */
function countLeaves(run: () => Snapshot, base: Snapshot, raw: unknown): Leaf[] {
  const found: Leaf[] = [];
  for (const leaf of leavesOf(raw)) {
    const v = (leaf.holder as Record<string | number, unknown>)[leaf.key];
    const n = leaf.at ? Number((v as string).slice(leaf.at.start, leaf.at.end)) : (wholeCount(v) as number);
    const o = withLeaf(run, leaf, typeof v === 'number' ? n + 1 : String(n + 1));
    if ('snap' in o && raised(base, o.snap)) found.push(leaf);
    if (found.length >= MAX_COUNT_LEAVES) break;
  }
  return found;
}

const shown = (v: unknown): string =>
  v === DELETE ? 'missing' : typeof v === 'string' ? JSON.stringify(v) : String(v);

/** What is wrong with one mutation's outcome, or null when it is one of the two allowed. */
function wrongOutcome(o: Outcome, base: Snapshot, leaf: Leaf): string | null {
  const names = leaf.at?.names ?? [String(leaf.key)];
  const field = names.at(-1) as string;
  if ('error' in o) {
    const e = o.error;
    if (e instanceof SourceError && e.reason === 'schema' && names.some((n) => e.message.includes(n))) return null;
    return `failed without naming ${field} as a schema failure: ${e instanceof Error ? e.message : String(e)}`;
  }
  const s = o.snap;
  // Nothing published moved (a fallback the feed allows gave the same figures): nothing wrong was said.
  if (fingerprint(s) === fingerprint(base) && zeros(s) === zeros(base)) return null;
  if (s.unreadable.length <= base.unreadable.length) return 'the record is not noted in unreadable';
  if (zeros(s) > zeros(base)) return 'a count of 0 was published for it';
  // The headline stands, or the figures stand on the other records: the record left out, never read as more.
  if ((s.customers_out ?? 0) > (base.customers_out ?? 0))
    return `headline ${base.customers_out} became ${s.customers_out}`;
  return null;
}

/**
 * What is wrong when the field is unreadable in every record of the list: a `schema` failure naming it, or figures
 * that still stand on other records (a list that is not the whole count, a fallback the feed allows). Never a
 * published sum that had customers out and now has none: that reads as "every outage restored".
 */
function wrongEverywhere(o: Outcome, base: Snapshot, leaf: Leaf): string | null {
  if ('error' in o) return wrongOutcome(o, base, leaf);
  const was = sums(base);
  const now = sums(o.snap);
  if (was.some((n, k) => n > 0 && now[k] === 0))
    return `every record's ${String(leaf.key)} unreadable, yet the poll published ${fingerprint(o.snap)}`;
  if ((o.snap.customers_out ?? 0) > (base.customers_out ?? 0))
    return `headline ${base.customers_out} became ${o.snap.customers_out}`;
  return null;
}

/**
 * Replays `raw` through the connector with each count it reads made unreadable, each value of UNREADABLE_VALUES in
 * turn; every outcome must be the unmutated headline (the record noted) or a `schema` failure naming the field.
 * Returns the count leaves found (their paths), for a test to see what was exercised.
 */
export function expectUnreadableNeverZero<R>(
  connector: ConnectorUnderTest<R>,
  raw: unknown,
  source: SourceDef,
): string[] {
  // Boxed, so an answer that is one text (XML, HTML, CSV) is mutated in place like any other.
  const box = { raw };
  const run = () => normalizeReadable(connector, box.raw, source);
  const base = run();
  const leaves = countLeaves(run, base, box);
  const wrong: string[] = [];
  for (const leaf of leaves)
    for (const v of UNREADABLE_VALUES) {
      const problem = wrongOutcome(withLeaf(run, leaf, v), base, leaf);
      if (problem) wrong.push(`${leaf.path} = ${shown(v)}: ${problem}`);
      if (leaf.siblings.length < 2) continue;
      const everywhere = wrongEverywhere(withEvery(run, leaf, v), base, leaf);
      if (everywhere) wrong.push(`every ${leaf.path} = ${shown(v)}: ${everywhere}`);
    }
  expect(wrong, `${source.connector}: an unreadable count is never read as 0`).toEqual([]);
  return leaves.map((l) => l.path);
}
