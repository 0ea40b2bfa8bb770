import { describe, expect, it } from 'vitest';
import { normalize } from './normalize.ts';
import { displayTime } from './times.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

interface Slice {
  AffectedCusts: number;
  County: string;
  CountyCusts: number;
  City: string;
}
interface Ev {
  Latitude: number;
  Longitude: number;
  OffTime: string;
  ETR: string;
  Cause: string;
  Slices: Slice[];
}
// Real We Energies answer during a storm, wrapped by the scraper as {captured_at, events}: the shape fetch returns.
const storm = () =>
  sharedJson('payloads/wec/we-energies-latest-2026-07-27T2113Z.json') as { captured_at: string; events: Ev[] };
const we = sourceDef({ connector: 'wec' as never, utility: 'We Energies', states: ['WI', 'MI'] });
const FIPS: Record<string, string> = {
  alger: '26003',
  calumet: '55015',
  dodge: '55027',
  florence: '55037',
  'fond du lac': '55039',
  gogebic: '26053',
  jefferson: '55055',
  kenosha: '55059',
  milwaukee: '55079',
  ontonagon: '26131',
  outagamie: '55087',
  ozaukee: '55089',
  racine: '55101',
  shawano: '55115',
  vilas: '55125',
  walworth: '55127',
  washington: '55131',
  waukesha: '55133',
  waupaca: '55135',
  winnebago: '55139',
};
const slices = (events: Ev[]) => events.flatMap((e) => e.Slices);

describe('wec normalize', () => {
  it.skipIf(!hasSharedData)(
    'attributes the real storm slice by slice to each slice county, with served as published per county',
    () => {
      const raw = storm();
      expect(raw.events.length).toBeGreaterThan(0);
      const out: Record<string, number> = {};
      const served: Record<string, number> = {};
      for (const s of slices(raw.events)) {
        out[FIPS[s.County]] = (out[FIPS[s.County]] ?? 0) + s.AffectedCusts;
        served[FIPS[s.County]] = s.CountyCusts;
      }
      const snap = normalize(raw, we);
      expect(snap.customers_out).toBe(slices(raw.events).reduce((s, x) => s + x.AffectedCusts, 0));
      expect(snap.counties).toEqual(
        Object.keys(out)
          .sort()
          .map((fips) => ({ fips, customers_out: out[fips], customers_served: served[fips] })),
      );
      // the first slice's county would get the whole event: Kenosha would read higher than its slices say
      const firstSliceKenosha = raw.events
        .filter((e) => e.Slices[0].County === 'kenosha')
        .reduce((s, e) => s + e.Slices.reduce((a, x) => a + x.AffectedCusts, 0), 0);
      expect(snap.counties.find((c) => c.fips === '55059')?.customers_out).toBeLessThan(firstSliceKenosha);
      expect(snap).toMatchObject({ customers_served: null, unmatched: [], basis: 'county' });
      expect(snap.incidents).toHaveLength(raw.events.length);
      expect(new Set(snap.incidents.map((i) => i.id)).size).toBe(raw.events.length);
    },
  );
  it.skipIf(!hasSharedData)('reads the display times in Central time, the year from the capture date', () => {
    const raw = storm();
    const snap = normalize(raw, we);
    expect(raw.events[0]).toMatchObject({ OffTime: 'Jul 27, 11:48 a.m.', ETR: 'Not yet determined' });
    expect(snap.incidents[0]).toMatchObject({
      started_at: '2026-07-27T16:48:00.000Z',
      etr: null,
      fips: '55059',
      city: 'kenosha',
      cause: 'Not yet determined',
    });
    expect(raw.events[56].ETR).toBe('Jul 27, 8:00 p.m.');
    expect(snap.incidents[56].etr).toBe('2026-07-28T01:00:00.000Z');
    // the bare array (saved from a browser) has no date: no year, so no times
    expect(normalize(raw.events, we).incidents.every((i) => i.etr === null && i.started_at === null)).toBe(true);
  });
  it('settles a county name found in two states by the event point, and reports it otherwise', () => {
    const ev = (lat: number | null, lon: number | null, county: string, n: number) => ({
      Latitude: lat,
      Longitude: lon,
      OffTime: 'Jul 27, 1:00 p.m.',
      Slices: [{ AffectedCusts: n, County: county, CountyCusts: 100 }],
    });
    const snap = normalize(
      [
        ev(46.1, -88.6, 'iron', 3),
        ev(46.3, -90.2, 'iron', 5),
        ev(null, null, 'iron', 7),
        ev(44.0, -88.5, 'atlantis', 2),
      ],
      we,
    );
    expect(snap.counties).toEqual([
      { fips: '26071', customers_out: 3, customers_served: 100 },
      { fips: '55051', customers_out: 5, customers_served: 100 },
    ]);
    expect(snap.customers_out).toBe(17);
    expect(snap.unmatched).toEqual([
      '2 slice(s) not placed in a county (9 customers out)',
      'iron (in WI and MI; the point does not say which)',
      'atlantis',
    ]);
  });
  it.skipIf(!hasSharedData)(
    'counts an event whose cause says planned, flagged; reads the hand-made sample (parsing only)',
    () => {
      const sample = sharedJson('payloads/wec/sample.json') as Ev[];
      const snap = normalize(sample, we);
      expect(snap.counties).toEqual([
        { fips: '55125', customers_out: 145, customers_served: 6260 },
        { fips: '55133', customers_out: 30, customers_served: 180000 },
      ]);
      sample[1].Cause = 'Planned maintenance';
      const planned = normalize(sample, we);
      expect(planned).toMatchObject({ customers_out: 175, planned_out: 30 });
      expect(planned.incidents.map((i) => i.planned)).toEqual([false, true]);
    },
  );
  it('resolves year-less display times near the capture, across New Year, and refuses the rest', () => {
    const jan1 = Date.parse('2027-01-01T03:00:00Z'); // Dec 31, 9 p.m. Central
    expect(displayTime('Dec 31, 8:15 p.m.', 'America/Chicago', jan1)).toBe('2027-01-01T02:15:00.000Z');
    expect(displayTime('Jan 1, 12:05 a.m.', 'America/Chicago', jan1)).toBe('2027-01-01T06:05:00.000Z');
    for (const bad of [
      'Jun 24, 5:00 p.m.',
      'Not yet determined',
      'Reassessing – New ETR will post',
      'Foo 3, 1:00 p.m.',
      'Jul 27, 13:00 p.m.',
    ]) {
      expect(displayTime(bad, 'America/Chicago', jan1)).toBeNull();
    }
    expect(displayTime('Jul 27, 8:00 p.m.', 'America/Chicago', null)).toBeNull();
  });
  it('names the field when the answer has an unexpected shape', () => {
    expect(() => normalize([{ Slices: [{ AffectedCusts: {} }] }], we)).toThrow(/events\.0\.Slices\.0\.AffectedCusts/);
    expect(() => normalize({ captured_at: 'x' }, we)).toThrow(/events/);
  });
});
