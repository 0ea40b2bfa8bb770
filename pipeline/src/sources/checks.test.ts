import { describe, expect, it } from 'vitest';
import {
  CountyTally,
  DisplayTimes,
  arrayAt,
  countOf,
  decimalOf,
  misfit,
  objectAt,
  pathOf,
  placedCounties,
  remembered,
  remembered3,
  servedSum,
  sortedCounties,
} from './checks.ts';
import { addCounty, toCount, type CountyCount } from './snapshot.ts';
import { SourceError } from '../errors.ts';

describe('hand checks', () => {
  it('name the field path and what was found in a schema failure', () => {
    expect(pathOf('', -1)).toBe('(root)');
    expect(pathOf('', 3)).toBe('3');
    expect(pathOf('events', 2, 'Slices')).toBe('events.2.Slices');
    expect(pathOf('', -1, 'totalServed')).toBe('totalServed');
    const err = (() => {
      try {
        misfit('NISC summary.json', 'outages', 4, 'nbrOut', 'number', {});
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(SourceError);
    expect(err).toMatchObject({
      reason: 'schema',
      message: 'NISC summary.json has an unexpected shape: outages.4.nbrOut: expected number, got object',
    });
    expect(() => objectAt('X', [], 'data', 0)).toThrow('X has an unexpected shape: data.0: expected object, got array');
    expect(() => arrayAt('X', null, 'events')).toThrow('X has an unexpected shape: events: expected array, got null');
    const o = { a: 1 };
    expect(objectAt('X', o, '')).toBe(o); // in place, no copy
  });
});

describe('countOf', () => {
  it('reads every count exactly as toCount does', () => {
    const cases: unknown[] = ['0', '007', '5', '1,267', '1,2,6,7', ',5', '5,', ',', '', ' 5', '5 ', '1.5', '2.5'];
    cases.push('123456789012345', '1234567890123456', '12345678901234567890123', '-5', 'n/a', '1e3', '１２');
    cases.push(null, undefined, {}, [], true, 3.7, -1, 0, Number.NaN, Number.POSITIVE_INFINITY);
    for (let n = 1; n < 2e9; n = n * 7 + 3) cases.push(String(n), n.toLocaleString('en-US'));
    expect(cases.length).toBeGreaterThan(40);
    for (const v of cases) expect([v, countOf(v)]).toEqual([v, toCount(v)]);
  });
});

describe('decimalOf', () => {
  it('reads every text exactly as Number does', () => {
    const texts = [
      '0',
      '-0',
      '38.494',
      '-78.623',
      '.5',
      '5.',
      '-.5',
      '-',
      '.',
      '',
      ' 5',
      '5 ',
      '1e3',
      '0x1f',
      '+5',
      '1.2.3',
    ];
    texts.push('007.50', '123456789012345', '1234567890123456', '0.000000000000001', '99999999999999.9', 'Infinity');
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let k = 0; k < 20_000; k++)
      texts.push(((next() - 0.5) * 10 ** Math.floor(next() * 12)).toFixed(Math.floor(next() * 9)));
    for (const t of texts)
      expect([
        t,
        Object.is(decimalOf(t), Number(t)) || (Number.isNaN(decimalOf(t)) && Number.isNaN(Number(t))),
      ]).toEqual([t, true]);
  });
});

describe('CountyTally', () => {
  it('sums rows of one county as addCounty does and lists counties in FIPS order', () => {
    const rows: Array<[string, number, number | null]> = [
      ['51003', 4, 100],
      ['37001', 2, null],
      ['51003', 1, null],
      ['37001', 5, null],
      ['01001', 0, 7],
      ['51003', 3, 20],
    ];
    const tally = new CountyTally();
    const map = new Map<string, CountyCount>();
    for (const [fips, out, served] of rows) {
      tally.add(fips, out, served);
      addCounty(map, fips, out, served);
    }
    const expected = [
      { fips: '01001', customers_out: 0, customers_served: 7 },
      { fips: '37001', customers_out: 7, customers_served: null },
      { fips: '51003', customers_out: 8, customers_served: 120 },
    ];
    expect(tally.sorted()).toEqual(expected);
    expect(sortedCounties(map)).toEqual(expected);
    expect(servedSum(expected)).toBeNull();
    expect(servedSum([expected[0], expected[2]])).toBe(127);
    expect(servedSum([])).toBeNull();
    expect(new CountyTally().sorted()).toEqual([]);
  });

  it('orders any list as plain comparison of the FIPS text does, long or odd ones included', () => {
    const codes = Array.from({ length: 500 }, (_, i) => String(1001 + ((i * 7919) % 77_000)).padStart(5, '0'));
    for (const list of [codes, [...codes.slice(0, 20), '1234', 'x9999'], ['56045', '01001']]) {
      const map = new Map(list.map((fips, i) => [fips, { fips, customers_out: i, customers_served: null }]));
      const plain = [...map.values()].sort((a, b) => (a.fips < b.fips ? -1 : a.fips > b.fips ? 1 : 0));
      expect(sortedCounties(map)).toEqual(plain);
      const tally = new CountyTally();
      for (const fips of list) tally.add(fips, 1, null);
      expect(tally.sorted().map((c) => c.fips)).toEqual(plain.map((c) => c.fips));
    }
  });
});

describe('remembered readings', () => {
  it('read each key once, and start over past their bound', () => {
    const seen: unknown[] = [];
    const double = remembered((n: number) => {
      seen.push(n);
      return n * 2;
    }, 2);
    expect([double(1), double(1), double(2), double(1)]).toEqual([2, 2, 4, 2]);
    expect(seen).toEqual([1, 2]);
    double(3); // the bound: cleared, then 3 is read
    double(1);
    expect(seen).toEqual([1, 2, 3, 1]);
    const nulls = remembered((s: string) => {
      seen.push(s);
      return null;
    });
    expect([nulls('a'), nulls('a')]).toEqual([null, null]);
    expect(seen.filter((s) => s === 'a')).toHaveLength(1);

    const parts: unknown[] = [];
    const id = remembered3((lat: number, lon: number, t: string) => {
      parts.push(t);
      return `${lat},${lon}@${t}`;
    }, 2);
    expect(id(1.5, -2, 'x')).toBe('1.5,-2@x');
    expect(id(1.5, -2, 'x')).toBe('1.5,-2@x');
    expect(id(1.5, -3, 'x')).toBe('1.5,-3@x');
    expect(parts).toEqual(['x', 'x']);
  });
});

describe('DisplayTimes', () => {
  it('reads a text once per week of answer dates, checks the 60-day window every time, and never re-reads a no-time', () => {
    const DAY = 86_400_000;
    const t0 = Date.parse('2026-07-27T21:13:00Z');
    const reads: string[] = [];
    // a stand-in reader: "D<n>" is n days after t0, within 60 days of the answer's date; anything else is no time
    const reader = (ref: number) => (text: string) => {
      reads.push(text);
      const t = /^D(\d+)$/.test(text) ? t0 + Number(text.slice(1)) * DAY : Number.NaN;
      return Number.isNaN(t) || Math.abs(t - ref) > 60 * DAY ? null : new Date(t).toISOString();
    };
    const times = new DisplayTimes(60 * DAY);
    const first = times.of('America/Chicago', t0, reader(t0));
    expect(first.at('D1')).toBe(new Date(t0 + DAY).toISOString());
    expect(first.at('D1')).toBe(new Date(t0 + DAY).toISOString());
    expect([first.at('Not yet determined'), first.at('Not yet determined'), first.at(null), first.at('')]).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(reads).toEqual(['D1', 'Not yet determined']);
    // six days on: remembered; a time 59 days ahead, then seen three days earlier (62 days off): null, unread
    expect(times.of('America/Chicago', t0 + 6 * DAY, reader(t0 + 6 * DAY)).at('D1')).toBe(
      new Date(t0 + DAY).toISOString(),
    );
    expect(first.at('D59')).toBe(new Date(t0 + 59 * DAY).toISOString());
    expect(times.of('America/Chicago', t0 - 3 * DAY, reader(t0 - 3 * DAY)).at('D59')).toBeNull();
    expect(reads).toEqual(['D1', 'Not yet determined', 'D59']);
    // eight days on: read again against the new date; another zone is read on its own
    times.of('America/Chicago', t0 + 8 * DAY, reader(t0 + 8 * DAY)).at('D1');
    times.of('America/Denver', t0, reader(t0)).at('D1');
    expect(reads).toEqual(['D1', 'Not yet determined', 'D59', 'D1', 'D1']);
  });
});

describe('placedCounties', () => {
  it('sums placed incidents per county and reports the unplaced ones with customers out in one line', () => {
    const unmatched: string[] = ['earlier line'];
    const counties = placedCounties(
      [
        { fips: '53033', customers_out: 10 },
        { fips: '53011', customers_out: 4 },
        { fips: '53033', customers_out: 5 },
        { fips: null, customers_out: 20 },
        { fips: null, customers_out: 3 },
        { fips: null, customers_out: 0 },
        { fips: '53061', customers_out: 0 },
      ],
      unmatched,
      'point',
    );
    expect(counties).toEqual([
      { fips: '53011', customers_out: 4, customers_served: null },
      { fips: '53033', customers_out: 15, customers_served: null },
    ]);
    expect(unmatched).toEqual(['earlier line', '2 point(s) not placed in a county (23 customers out)']);
  });

  it('adds no line when every incident with customers out is placed', () => {
    const unmatched: string[] = [];
    expect(placedCounties([{ fips: null, customers_out: 0 }], unmatched, 'point')).toEqual([]);
    expect(unmatched).toEqual([]);
  });
});
