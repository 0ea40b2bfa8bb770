import { describe, expect, it } from 'vitest';
import { parseLocal, zoneFor } from './local-time.ts';
import { SourceError } from '../errors.ts';

const ref = Date.UTC(2026, 5, 29, 12); // 2026-06-29, a Monday

describe('outageentry local times', () => {
  it('reads estimated_restore_time in the utility zone, summer and winter', () => {
    expect(parseLocal('Jun 29 2026 01:37 pm', 'America/New_York', ref)).toBe('2026-06-29T17:37:00.000Z');
    expect(parseLocal('Jan 15 2026 08:00 am', 'America/Los_Angeles', ref)).toBe('2026-01-15T16:00:00.000Z');
    expect(parseLocal('Aug 27 2026 12:05 am', 'America/Los_Angeles', ref)).toBe('2026-08-27T07:05:00.000Z');
  });
  it('pins the missing year of formatted_ert by its weekday', () => {
    expect(parseLocal('Mon, Jun 29, 01:37 pm', 'America/New_York', ref)).toBe('2026-06-29T17:37:00.000Z');
    // 29 June is a Tuesday only in 2027 of 2025–2027
    expect(parseLocal('Tue, Jun 29, 01:37 pm', 'America/New_York', ref)).toBe('2027-06-29T17:37:00.000Z');
    expect(parseLocal('Fri, Jun 29, 01:37 pm', 'America/New_York', ref)).toBeNull();
  });
  it('puts a year-less start_date in the year nearest the poll (across New Year)', () => {
    const jan2 = Date.UTC(2027, 0, 2, 12);
    expect(parseLocal('12/31 11:00 pm', 'America/Chicago', jan2)).toBe('2027-01-01T05:00:00.000Z');
    expect(parseLocal('01/02 04:00 am', 'America/Chicago', jan2)).toBe('2027-01-02T10:00:00.000Z');
  });
  it('reads MySQL-style text and refuses blanks, zero dates and impossible dates', () => {
    expect(parseLocal('2026-09-27 16:30:00', 'America/New_York', ref)).toBe('2026-09-27T20:30:00.000Z');
    for (const bad of [null, '', '0000-00-00 00:00:00', 'Feb 30 2026 01:00 pm', 'soon'])
      expect(parseLocal(bad, 'America/New_York', ref)).toBeNull();
  });
  it('reads the Milsoft mobile service’s seconds and Chugach’s 24-hour clock; an hour past 23 is no time', () => {
    expect(parseLocal('6/29/2026 10:23:00 AM', 'America/New_York', ref)).toBe('2026-06-29T14:23:00.000Z');
    expect(parseLocal('06/24/2026 15:00', 'America/Anchorage', ref)).toBe('2026-06-24T23:00:00.000Z');
    expect(parseLocal('01/05/2026 00:30', 'America/Anchorage', ref)).toBe('2026-01-05T09:30:00.000Z');
    expect(parseLocal('06/24/2026 25:00', 'America/Anchorage', ref)).toBeNull();
  });
  it('takes the zone from options.time_zone, else the first state, and rejects unknown zones', () => {
    expect(zoneFor(['MS'], undefined)).toBe('America/Chicago');
    expect(zoneFor(['TN'], 'America/New_York')).toBe('America/New_York');
    expect(() => zoneFor(['GA'], 'Mars/Olympus')).toThrow(SourceError);
  });
});
