// Unknown is never zero: the notes and tallies behind requireReadable, and its two failures.
import { describe, expect, it } from 'vitest';
import { emptySnapshot } from './snapshot.ts';
import { addNotes, headlineCount, recordCount, requireReadable } from './unreadable.ts';

const UNREADABLE = [undefined, null, '', 'unknown', 'many', 'N/A', -5, '-5', Number.POSITIVE_INFINITY, Number.NaN];

describe('unreadable counts', () => {
  it('reads what is a count, and notes everything else by record and field, never as 0', () => {
    const snap = emptySnapshot('U');
    expect([recordCount('1,267', 'n', 'a', snap.unreadable), recordCount(3, 'n', 'b', snap.unreadable)]).toEqual([
      1267, 3,
    ]);
    for (const v of UNREADABLE) expect(recordCount(v, 'n', 'r', snap.unreadable), String(v)).toBeNull();
    expect(snap.unreadable).toHaveLength(UNREADABLE.length);
    expect(snap.unreadable.slice(0, 4)).toEqual(['r: n missing', 'r: n null', 'r: n ""', 'r: n "unknown"']);
  });

  it('lets figures stand on the readable records, and fails a field none of whose records can be read', () => {
    const some = emptySnapshot('U');
    some.customers_out = 4;
    recordCount(4, 'out', 'a', some.unreadable);
    recordCount('unknown', 'out', 'b', some.unreadable);
    expect(requireReadable(some)).toBe(some);
    const none = emptySnapshot('U');
    none.customers_out = 0;
    recordCount('unknown', 'out', 'a', none.unreadable);
    recordCount(null, 'out', 'b', none.unreadable);
    expect(() => requireReadable(none)).toThrow(
      expect.objectContaining({
        reason: 'schema',
        message: expect.stringMatching(/no record's out can be read .*a: out "unknown"/),
      }),
    );
    // A note with no total at all fails too.
    const bare = emptySnapshot('U');
    recordCount(2, 'out', 'a', bare.unreadable);
    recordCount('x', 'out', 'b', bare.unreadable);
    expect(() => requireReadable(bare)).toThrow(expect.objectContaining({ reason: 'schema' }));
  });

  it('keeps the tallies of notes read apart when they are added to the poll (and adds a list to itself once)', () => {
    const snap = emptySnapshot('U');
    snap.customers_out = 0;
    const apart: string[] = [];
    recordCount('unknown', 'out', 'a', apart);
    addNotes(snap.unreadable, apart);
    addNotes(snap.unreadable, snap.unreadable);
    expect(snap.unreadable).toEqual(['a: out "unknown"']);
    expect(() => requireReadable(snap)).toThrow(/no record's out can be read/);
  });

  it('fails a headline that is there but cannot be read, naming it', () => {
    expect(headlineCount('12', 'total', 'Feed')).toBe(12);
    for (const v of UNREADABLE)
      expect(() => headlineCount(v, 'total', 'Feed'), String(v)).toThrow(
        expect.objectContaining({ reason: 'schema', message: expect.stringMatching(/Feed: the headline total total/) }),
      );
  });
});
