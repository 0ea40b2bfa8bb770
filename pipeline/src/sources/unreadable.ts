// Unknown is never zero (conventions 17; issue 36 part 1). A record whose count cannot be read (missing, null, empty,
// "unknown", negative, not finite) is never read as 0: the normaliser leaves it out of every sum and notes it in the
// snapshot's `unreadable`, and the figures stand on the records it could read (the feed's own headline, where it has
// one, stands as published). Where nothing we would publish can be read (the headline itself, or every record of a
// count field: a renamed field, a feed that sends "unknown" everywhere), the poll fails with reason `schema` naming
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
export const unreadableNote = (record: string, field: string, v: unknown): string => `${record}: ${field} ${quoted(v)}`;

/** What one poll read of each count field: how many records it could read, and the first it could not. */
interface FieldTally {
  readable: number;
  unreadable: number;
  first: string;
}
/** By the snapshot's note list (one per poll), so every connector's reads are tallied without passing a tally. */
const tallies = new WeakMap<string[], Map<string, FieldTally>>();

function tally(notes: string[], field: string): FieldTally {
  let byField = tallies.get(notes);
  if (!byField) tallies.set(notes, (byField = new Map()));
  let t = byField.get(field);
  if (!t) byField.set(field, (t = { readable: 0, unreadable: 0, first: '' }));
  return t;
}

/**
 * A record's count: `countOf(v)`, or null with a note in `notes` (the snapshot's `unreadable`) naming the record and
 * the field when it cannot be read. The caller leaves a null out of every sum (and out of its lists: an incident
 * without a count is no incident we can publish). requireReadable fails the poll when no record of a field could be
 * read.
 */
export function recordCount(v: unknown, field: string, record: string, notes: string[]): number | null {
  const n = countOf(v);
  tallyRead(notes, field, n === null ? unreadableNote(record, field, v) : null);
  return n;
}

/**
 * One record's read of `field`, tallied into the poll's notes: `note` when it could not be read (pushed), null when
 * it could. For connectors with their own count readers (masked counts, value objects); recordCount calls it.
 */
export function tallyRead(notes: string[], field: string, note: string | null): void {
  const t = tally(notes, field);
  if (note === null) t.readable += 1;
  else {
    if (t.unreadable++ === 0) t.first = note;
    notes.push(note);
  }
}

/** Notes kept apart while a connector read (`from`) added to the poll's (`into`), with their tallies. */
export function addNotes(into: string[], from: string[], first = false): void {
  if (into === from) return;
  if (first) into.unshift(...from);
  else into.push(...from);
  for (const [field, t] of tallies.get(from) ?? []) {
    const u = tally(into, field);
    u.readable += t.readable;
    if (u.unreadable === 0) u.first = t.first;
    u.unreadable += t.unreadable;
  }
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

/** The failure for a count field none of whose records could be read. */
function unreadableField(what: string, field: string, t: FieldTally): SourceError {
  const more = t.unreadable > 1 ? ` (and ${t.unreadable - 1} more)` : '';
  return new SourceError(
    'schema',
    `${what}: no record's ${field} can be read as a count (${t.unreadable} record(s), e.g. ${t.first}${more}); the field may have been renamed or emptied, so nothing is published from this answer`,
  );
}

/**
 * The rule every poll passes, after its connector (poll, probe, parse and the test kit call it): some records
 * unreadable are noted beside figures that stand on the rest; a count field none of whose records could be read
 * fails the poll naming it, as does an answer that notes unreadable records and gives no total at all.
 */
export function requireReadable(snap: Snapshot): Snapshot {
  if (snap.unreadable.length === 0) return snap;
  for (const [field, t] of tallies.get(snap.unreadable) ?? [])
    if (t.unreadable > 0 && t.readable === 0) throw unreadableField(snap.utility, field, t);
  if (snap.customers_out === null)
    throw unreadableField(snap.utility, 'count', {
      readable: 0,
      unreadable: snap.unreadable.length,
      first: snap.unreadable[0],
    });
  return snap;
}

/** The connector's snapshot of `raw`, held to requireReadable: what every path that normalises an answer calls. */
export function normalizeReadable(connector: Pick<Connector, 'normalize'>, raw: unknown, source: SourceDef): Snapshot {
  return requireReadable(connector.normalize(raw, source));
}
