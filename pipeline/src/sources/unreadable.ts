// Unknown is never zero (conventions 17; issue 36 part 1). A record whose count cannot be read (missing, null, empty,
// "unknown", negative, not finite) is never read as 0: the normaliser leaves it out of every sum and notes it in the
// snapshot's `unreadable`. The feed's own headline then stands beside the note; where nothing we would publish can be
// read (the headline itself, or a total that is only the records' sum), the poll fails with reason `schema` naming
// the field, so the last good value goes stale under the stale rule and no outage closes.
import { SourceError } from '../errors.ts';
import { countOf } from './checks.ts';
import type { Connector } from './connector.ts';
import type { Snapshot } from './snapshot.ts';
import type { SourceDef } from './source-def.ts';

/** The value as the note quotes it: short, one line (the note is published as clean text after quarantine). */
function quoted(v: unknown): string {
  if (v === undefined) return 'missing';
  const text = typeof v === 'string' ? JSON.stringify(v.length > 24 ? `${v.slice(0, 24)}…` : v) : String(v);
  return text;
}

/** One note: `<record>: <field> <value>`, e.g. `outage 1234: customersOut "unknown"`. */
export const unreadableNote = (record: string, field: string, v: unknown): string =>
  `${record}: ${field} ${quoted(v)}`;

/**
 * A record's count: `countOf(v)`, or null with a note in `notes` naming the record and the field when it cannot be
 * read. The caller leaves a null out of every sum (and out of its lists: an incident without a count is no incident
 * we can publish).
 */
export function recordCount(v: unknown, field: string, record: string, notes: string[]): number | null {
  const n = countOf(v);
  if (n === null) notes.push(unreadableNote(record, field, v));
  return n;
}

/** A feed's headline total, which must be readable: else the poll fails naming the field. */
export function headlineCount(v: unknown, field: string, what: string): number {
  const n = countOf(v);
  if (n === null)
    throw new SourceError('schema', `${what}: the headline total ${field} cannot be read as a count, got ${quoted(v)}`);
  return n;
}

/** A headline total the feed may leave out (absent or null): null then, else it must be readable. */
export function optHeadlineCount(v: unknown, field: string, what: string): number | null {
  return v === undefined || v === null ? null : headlineCount(v, field, what);
}

/**
 * The failure for a total that is only its records' sum when some record cannot be read: a sum that leaves a record
 * out would publish a figure the utility never showed.
 */
export function unreadableSum(what: string, notes: readonly string[]): SourceError {
  const more = notes.length > 1 ? ` (and ${notes.length - 1} more)` : '';
  return new SourceError(
    'schema',
    `${what}: ${notes.length} record(s) have no readable count and the feed gives no headline total to stand: ${notes[0]}${more}`,
  );
}

/**
 * The rule every poll passes, after its connector (poll, probe, parse and the test kit call it): unreadable records
 * are tolerated only beside a headline the feed published. Connectors that derive a total from their records throw
 * `unreadableSum` themselves before deriving it; this is the net under the ones that leave the total unset.
 */
export function requireReadable(snap: Snapshot): Snapshot {
  if (snap.unreadable.length > 0 && snap.customers_out === null) throw unreadableSum(snap.utility, snap.unreadable);
  return snap;
}

/** The connector's snapshot of `raw`, held to requireReadable: what every path that normalises an answer calls. */
export function normalizeReadable(connector: Pick<Connector, 'normalize'>, raw: unknown, source: SourceDef): Snapshot {
  return requireReadable(connector.normalize(raw, source));
}
