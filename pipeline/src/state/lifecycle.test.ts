import { describe, expect, it } from 'vitest';
import { freshnessEvent, openingThreshold, step, type Observation, type OutageState } from './lifecycle.ts';

const T = new Date('2026-09-01T08:00:00Z');
let n = 0;
const id = () => `o${++n}`;
const obs = (customers_out: number, over: Partial<Observation> = {}): Observation => ({
  scope: 'county',
  key: '12086',
  fips: '12086',
  state: 'FL',
  utility: null,
  area: null,
  source_id: null,
  customers_out,
  customers: 1_000_000,
  pct_out: customers_out / 10_000,
  etr: null,
  polled: true,
  stale: false,
  ...over,
});

/** Runs a series of observations through step, returning the kinds emitted per poll and the final state. */
function run(values: Array<number | (Partial<Observation> & { v: number })>, start: OutageState | null = null) {
  let s = start;
  const kinds: string[][] = [];
  for (const v of values) {
    const o = typeof v === 'number' ? obs(v) : obs(v.v, v);
    const r = step(s, o, T, id);
    s = r.next;
    kinds.push(r.events.map((e) => e.kind));
  }
  return { s, kinds };
}

describe('opening thresholds', () => {
  it('county: 1 % of customers, at least 50, at most 500', () => {
    expect(openingThreshold('county', 1_000)).toBe(50);
    expect(openingThreshold('county', 20_000)).toBe(200);
    expect(openingThreshold('county', 1_000_000)).toBe(500);
    expect(openingThreshold('utility', 2_000_000)).toBe(20_000);
    expect(openingThreshold('municipality', null)).toBe(50);
  });
});

describe('outage lifecycle', () => {
  it('opens at the threshold and records it', () => {
    const r = run([499, 500]);
    expect(r.kinds).toEqual([[], ['outage_began']]);
    expect(r.s?.threshold).toBe(500);
  });

  it('closes on the second consecutive poll below half the opening threshold — not at exactly half', () => {
    const r = run([600, 250, 250, 249, 249]);
    expect(r.kinds).toEqual([['outage_began'], ['outage_improving'], [], [], ['outage_restored']]);
    expect(r.s).toBeNull();
  });

  it('a poll back at or above half resets the count', () => {
    expect(run([600, 249, 250, 249, 249]).kinds).toEqual([
      ['outage_began'],
      [],
      ['outage_improving'],
      [],
      ['outage_restored'],
    ]);
    expect(run([600, 249, 300, 249]).s).not.toBeNull();
  });

  it('never closes while a covering feed is stale, and closes after it recovers', () => {
    const r = run([600, { v: 10, stale: true }, { v: 10, stale: true }, { v: 10, stale: true }]);
    expect(r.s).not.toBeNull();
    expect(r.kinds.flat()).toEqual(['outage_began', 'outage_improving']);
    const after = run([10, 10], r.s);
    expect(after.kinds).toEqual([[], ['outage_restored']]);
  });

  it('a cycle without a successful poll changes nothing', () => {
    const r = run([600, { v: 0, polled: false }, { v: 0, polled: false }]);
    expect(r.s?.below_polls).toBe(0);
  });

  it('emits grew at 1.5× and at least one threshold more, then improving at half the peak', () => {
    const r = run([600, 800, 1100, 5000, 4000, 2600, 2400, 1100]);
    expect(r.kinds).toEqual([
      ['outage_began'],
      [],
      ['outage_grew'],
      ['outage_grew'],
      [],
      [],
      ['outage_improving'],
      ['outage_improving'],
    ]);
  });

  it('does not flap on a noisy feed', () => {
    const r = run([600, 560, 640, 590, 650, 600, 580, 620]);
    expect(r.kinds.flat()).toEqual(['outage_began']);
  });

  it('emits etr_changed when the ETR moves an hour or more', () => {
    const r = run([
      { v: 600, etr: '2026-09-01T12:00:00Z' },
      { v: 600, etr: '2026-09-01T12:30:00Z' },
      { v: 600, etr: '2026-09-01T13:00:00Z' },
      { v: 600, etr: null },
    ]);
    expect(r.kinds).toEqual([['outage_began'], [], ['etr_changed'], []]);
  });

  it('major_event for a utility at 10 %, re-armed below 8 %', () => {
    const u = (v: number) => ({ v, scope: 'utility' as const, key: 'U', customers: 100_000, pct_out: v / 1_000 });
    const r = run([u(5_000), u(10_000), u(12_000), u(7_900), u(10_500)]);
    expect(r.kinds.map((k) => k.filter((x) => x === 'major_event').length)).toEqual([0, 1, 0, 0, 1]);
  });
});

describe('freshness events', () => {
  const base = {
    scope: 'utility' as const,
    key: 'U',
    fips: null,
    state: 'FL',
    utility: 'U',
    area: null,
    source_id: 's',
    customers_out: 0,
    customers: null,
    pct_out: null,
    etr: null,
  };
  it('fires on transitions only', () => {
    expect(freshnessEvent('fresh', 'stale', base)?.kind).toBe('feed_stale');
    expect(freshnessEvent('stale', 'fresh', base)?.kind).toBe('feed_recovered');
    expect(freshnessEvent('stale', 'stale', base)).toBeNull();
    expect(freshnessEvent(null, 'fresh', base)).toBeNull();
  });
});
