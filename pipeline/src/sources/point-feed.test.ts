import { describe, expect, it } from 'vitest';
import { sourceDef } from '../../test/shared-data.ts';
import { newIncident } from './checks.ts';
import { OutageIds } from './outage-ids.ts';
import { PointFeed, pointAt } from './point-feed.ts';

const incident = (id: string, fips: string | null, out: number) =>
  newIncident({
    id,
    fips,
    customers_out: out,
    etr: null,
    crew_status: null,
    cause: null,
    started_at: null,
    lat: null,
    lon: null,
    city: null,
  });

describe('point feed', () => {
  it('takes a point on the globe, not a missing, out-of-range, non-number or 0,0 one', () => {
    expect(pointAt(42.7, -84.5)).toEqual({ lat: 42.7, lon: -84.5 });
    expect(pointAt(0, 12)).toEqual({ lat: 0, lon: 12 });
    for (const [lat, lon] of [
      [null, -84.5],
      [42.7, undefined],
      [91, 0.5],
      [42.7, -181],
      [Number.NaN, 1],
      [Number.POSITIVE_INFINITY, 1],
      [0, 0],
    ])
      expect(pointAt(lat, lon), `${lat},${lon}`).toBeNull();
  });

  it('numbers a made-up id met again within the poll: two outages at one point are two', () => {
    const ids = new OutageIds();
    expect(['a', 'a', 'b', 'a'].map((b) => ids.made(b))).toEqual(['a', 'a#2', 'b', 'a#3']);
  });

  it('counts an outage its own id names once, however often the answer lists it, with its largest count', () => {
    const feed = new PointFeed(sourceDef({ utility: 'U' }));
    const listed: Array<[unknown, string, number]> = [
      [17, '12086', 40],
      [' 17 ', '12086', 55], // the same outage, listed again (trimmed, as a string)
      [null, '12086', 3], // no own id: made up from its point
      ['', '12086', 3], // none either: a second outage at that point
      [18, '12011', 9],
      [17, '12086', 10],
    ];
    for (const [own, fips, out] of listed) feed.add(incident(feed.idOf(own, '25.7,-80.2'), fips, out));
    const snap = feed.finish('point');
    // computed here: outage 17 once at its largest count, the two id-less ones both, outage 18
    expect(snap.incidents.map((i) => [i.id, i.customers_out])).toEqual([
      ['17', 55],
      ['25.7,-80.2', 3],
      ['25.7,-80.2#2', 3],
      ['18', 9],
    ]);
    expect(snap.customers_out).toBe(55 + 3 + 3 + 9);
    expect(snap.counties.map((c) => [c.fips, c.customers_out])).toEqual([
      ['12011', 9],
      ['12086', 61],
    ]);
  });

  it('places a point only in a county of the row’s states', () => {
    const feed = new PointFeed(sourceDef({ states: ['MI'] }));
    expect(feed.county(pointAt(42.7325, -84.5555))).toBe('26065'); // Lansing: Ingham County
    expect(feed.county(pointAt(39.9612, -82.9988))).toBeNull(); // Columbus, Ohio
    expect(feed.county(null)).toBeNull();
    expect(feed.inStates('26065')).toBe(true);
  });

  it('sums the placed incidents per county, the headline over the sum, and says when none is placed', () => {
    const feed = new PointFeed(sourceDef({ utility: 'U' }));
    for (const i of [incident('a', '12086', 3), incident('b', '12011', 2), incident('c', '12086', 4)]) feed.add(i);
    feed.add(incident('d', null, 5));
    const snap = feed.finish('point');
    expect(snap.counties.map((c) => [c.fips, c.customers_out, c.customers_served])).toEqual([
      ['12011', 2, null],
      ['12086', 7, null],
    ]);
    expect(snap.unmatched).toEqual(['1 point(s) not placed in a county (5 customers out)']);
    expect([snap.utility, snap.customers_out, snap.basis]).toEqual(['U', 14, 'county']);

    const unplaced = new PointFeed(sourceDef());
    unplaced.add(incident('a', null, 2));
    expect(unplaced.finish('point', 40, 'utility_total')).toMatchObject({ customers_out: 40, basis: 'utility_total' });
    expect(new PointFeed(sourceDef()).finish('point')).toMatchObject({ customers_out: 0, basis: 'county' });
  });
});
