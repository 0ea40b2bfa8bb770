// snapshotHash: equal snapshots hash equal however their lists are chunked; any change to a count, an area or an
// incident, or a record moved from one list to another, changes it.
import { describe, expect, it } from 'vitest';
import { emptySnapshot, type Snapshot } from '../sources/snapshot.ts';
import { snapshotHash } from './store.ts';

function storm(n: number): Snapshot {
  const s = emptySnapshot('Test Power');
  s.customers_out = n;
  s.counties = [{ fips: '37183', customers_out: n, customers_served: 500_000 }];
  s.incidents = Array.from({ length: n }, (_, i) => ({
    id: `inc-${i}`,
    fips: '37183',
    customers_out: 1 + (i % 40),
    etr: null,
    crew_status: i % 2 ? 'Assigned' : null,
    cause: null,
    started_at: '2026-09-01T08:00:00Z',
    lat: 35.7 + i / 1e5,
    lon: -78.6,
    city: 'Raleigh',
    planned: false,
  }));
  return s;
}

describe('snapshotHash', () => {
  it('is the same for equal snapshots of thousands of incidents (several chunks)', () => {
    expect(snapshotHash(storm(1_234))).toBe(snapshotHash(storm(1_234)));
  });

  it('changes with one incident, a count, or one incident more', () => {
    const base = snapshotHash(storm(1_234));
    const one = storm(1_234);
    one.incidents[1_000].customers_out += 1;
    const total = storm(1_234);
    total.customers_served = 1;
    expect(new Set([base, snapshotHash(one), snapshotHash(total), snapshotHash(storm(1_235))]).size).toBe(4);
  });

  it('tells a record in one list from the same record in another', () => {
    const a = emptySnapshot('U');
    const b = emptySnapshot('U');
    const c = { fips: '01001', customers_out: 1, customers_served: null };
    a.counties = [c];
    (b.areas as unknown[]) = [c];
    expect(snapshotHash(a)).not.toBe(snapshotHash(b));
  });
});
