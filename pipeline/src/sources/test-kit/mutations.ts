// Connector test kit: unknown is never zero (issue 36 part 1). Every poll the kit makes also replays its raw answer
// with each count the connector reads made unreadable (missing, null, empty, "unknown", "many", "N/A", negative, not
// finite): the connector must either keep the feed's unmutated headline (the record noted in `unreadable`, no new 0
// anywhere) or fail the poll with reason `schema` naming the field. A count is found, not declared: a whole-number
// leaf of the answer is one when adding 1 to it raises a published count, so a new connector gets the check for free.
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
    leaves.push({ holder, key, path: `${path}@${m[1]}`, at: { start, end: start + m[2].length, names } });
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
  const queue: Array<{ v: unknown; path: string }> = [{ v: raw, path: '' }];
  while (queue.length && leaves.length < MAX_LEAVES) {
    const { v, path } = queue.shift() as { v: unknown; path: string };
    if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v)) continue;
    const keys: Array<string | number> = Array.isArray(v)
      ? [...new Set([0, 1, 2, v.length - 1])].filter((i) => i >= 0 && i < v.length)
      : Object.keys(v);
    for (const key of keys) {
      const child = (v as Record<string | number, unknown>)[key];
      const at = path ? `${path}.${key}` : String(key);
      if (wholeCount(child) !== null) leaves.push({ holder: v as Holder, key, path: at });
      else if (typeof child === 'string' && child.length > 20) leaves.push(...textLeaves(v as Holder, key, at, child));
      else queue.push({ v: child, path: at });
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

/** The outcome with the leaf set to `v` (DELETE removes it), the answer put back after. */
function withLeaf(run: () => Snapshot, leaf: Leaf, v: unknown): Outcome {
  const h = leaf.holder as Record<string | number, unknown>;
  const had = Object.hasOwn(h, leaf.key);
  const was = h[leaf.key];
  if (leaf.at) {
    const text = was as string;
    h[leaf.key] = text.slice(0, leaf.at.start) + asText(v) + text.slice(leaf.at.end);
  } else if (v === DELETE && !Array.isArray(h)) delete h[leaf.key];
  else h[leaf.key] = v === DELETE ? undefined : v;
  try {
    return { snap: run() };
  } catch (error) {
    return { error };
  } finally {
    if (had) h[leaf.key] = was;
    else delete h[leaf.key];
  }
}

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
  if (base.customers_out === null) return `published ${fingerprint(s)} with no headline to stand`;
  if (s.customers_out !== base.customers_out) return `headline ${base.customers_out} became ${s.customers_out}`;
  if (s.unreadable.length <= base.unreadable.length) return 'the record is not noted in unreadable';
  if (zeros(s) > zeros(base)) return 'a count of 0 was published for it';
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
    }
  expect(wrong, `${source.connector}: an unreadable count is never read as 0`).toEqual([]);
  return leaves.map((l) => l.path);
}
