// The strict date parser (issue 37): calendar dates, zones, the year window, and the bounded day list.
import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.ts';
import { dayOrError, daysThrough, FIRST_YEAR, parseDay, parseInstant } from './dates.ts';

const NOW = new Date('2026-12-01T00:00:00Z');
const problem = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return (e as ApiError).body;
  }
  throw new Error('expected a 400');
};

describe('parseInstant', () => {
  it('reads RFC 3339 times with their zone, and a date alone as midnight UTC', () => {
    const iso = (raw: string) => parseInstant('at', raw, NOW).toISOString();
    expect(iso('2026-09-01T10:15:00Z')).toBe('2026-09-01T10:15:00.000Z');
    expect(iso('2026-09-01t10:15z')).toBe('2026-09-01T10:15:00.000Z');
    expect(iso('2026-09-01T10:15:00.25-04:00')).toBe('2026-09-01T14:15:00.250Z');
    expect(iso('2026-09-01T10:15:00+0530')).toBe('2026-09-01T04:45:00.000Z');
    expect(iso('2024-02-29')).toBe('2024-02-29T00:00:00.000Z');
    expect(iso(`${FIRST_YEAR}-01-01T00:00:00Z`)).toBe('2014-01-01T00:00:00.000Z');
    expect(iso('2027-12-31T23:59:59Z')).toBe('2027-12-31T23:59:59.000Z'); // the current year + 1
  });

  it('refuses impossible dates and times, missing zones and years outside the window, naming the parameter', () => {
    const cases: Array<[string, RegExp]> = [
      ['2026-02-30T00:00:00Z', /not a calendar date \(February 2026 has 28 days\)/],
      ['2025-02-29', /February 2025 has 28 days/],
      ['2026-04-31T00:00:00Z', /April 2026 has 30 days/],
      ['2026-13-01T00:00:00Z', /month 13 does not exist/],
      ['2026-09-01T24:00:00Z', /not a time of day/],
      ['2026-09-01T10:60:00Z', /not a time of day/],
      ['2026-09-01T10:00:00+24:00', /not a time of day/],
      ['2026-09-01T10:15', /with its zone/],
      ['2026-09-01 10:15:00Z', /with its zone/],
      ['9999-12-31T00:00:00Z', /years run from 2014 to 2027; got 9999/],
      ['2013-12-31T23:59:59Z', /got 2013/],
      ['+010000-01-01T00:00:00Z', /ISO-8601/],
      ['yesterday', /ISO-8601/],
      ['x'.repeat(5000), /…`\.$/], // echoed shortened
    ];
    for (const [raw, message] of cases)
      expect(
        problem(() => parseInstant('to', raw, NOW)),
        raw.slice(0, 40),
      ).toMatchObject({
        status: 400,
        code: 'invalid_parameter',
        param: 'to',
        message: expect.stringMatching(message),
      });
  });
});

describe('parseDay and dayOrError', () => {
  it('accept a calendar day in the window and nothing else', () => {
    expect(parseDay('date', '2026-09-01', NOW)).toBe('2026-09-01');
    for (const raw of ['2026-02-30', '2026-9-1', '..', '%2f', '2026-09-01\0', '9999-12-31', '2026-09-01T00:00:00Z'])
      expect(dayOrError('date', raw, NOW), raw).toBeInstanceOf(ApiError);
  });
});

describe('daysThrough', () => {
  it('lists the days of a range, across month and year ends, never more than its maximum', () => {
    expect(daysThrough('2026-12-30', '2027-01-02', 10)).toEqual([
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
    ]);
    expect(daysThrough('2024-02-28', '2024-03-01', 10)).toEqual(['2024-02-28', '2024-02-29', '2024-03-01']);
    expect(daysThrough('2026-01-01', '2026-12-31', 3)).toHaveLength(3);
    expect(daysThrough('2026-01-02', '2026-01-01', 3)).toEqual([]);
    expect(daysThrough('2026-01-01', '', 3)).toEqual([]);
  });
});
