// Chugach normalize on the peer's sample (payloads/chugach/sections.json: edited values, so it proves parsing, not
// facts about Chugach) and on made-up answers in its shape. Expected figures are computed here: the test's own sums,
// its own point-in-county (test/county-lookup.ts) and its own reading of the place table (test/place-lookup.ts).
import { describe, expect, it } from 'vitest';
import { normalize } from './normalize.ts';
import { normalizeReadable } from '../unreadable.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';
import { countyContaining } from '../../../test/county-lookup.ts';
import { townCounty } from '../../../test/place-lookup.ts';

const chugach = sourceDef({ connector: 'chugach', utility: 'Chugach Electric', states: ['AK'] });
interface Sample {
  grids: { Items: Array<{ SECTIONMAP: string; CUST_OUT: number; CUST_SERVED: number }> };
  incidents: { Items: Array<{ LATITUDE: number; LONGITUDE: number; CUSTOMERS_AFFECTED: number }> };
}
const list = (Items: unknown[]) => ({ Datetime: '06/24/2026 12:00', Items });

describe.skipIf(!hasSharedData)('chugach normalize, the peer’s sample', () => {
  const sample = (hasSharedData ? sharedJson('payloads/chugach/sections.json') : null) as Sample;

  it('outages placed by their point make the counties; the sections are areas and the totals', () => {
    const snap = normalize(sample, chugach);
    const by = new Map<string, number>();
    for (const i of sample.incidents.Items) {
      const fips = countyContaining(i.LONGITUDE, i.LATITUDE)!;
      by.set(fips, (by.get(fips) ?? 0) + i.CUSTOMERS_AFFECTED);
    }
    expect(new Map(snap.counties.map((c) => [c.fips, c.customers_out]))).toEqual(by);
    expect(snap.customers_out).toBe(sample.grids.Items.reduce((s, g) => s + g.CUST_OUT, 0));
    expect(snap.customers_served).toBe(sample.grids.Items.reduce((s, g) => s + g.CUST_SERVED, 0));
    const out = sample.grids.Items.filter((g) => g.CUST_OUT > 0);
    expect(snap.areas.map((a) => [a.name, a.fips])).toEqual(
      out.map((g) => [g.SECTIONMAP, townCounty('AK', g.SECTIONMAP.split(' - ')[0]) ?? null]),
    );
    // 15:00 on 24 June in Anchorage is Alaska daylight time, UTC−8
    expect(snap.incidents[0]).toMatchObject({ etr: '2026-06-24T23:00:00.000Z', crew_status: 'Crew assigned' });
    expect(snap.basis).toBe('county');
  });
});

describe('chugach normalize, made-up answers in the sample’s shape', () => {
  it('a point off Alaska is listed, not placed; two outages at one point get two ids; text numbers are read', () => {
    const at = { LATITUDE: '61.58', LONGITUDE: '-149.44', CUSTOMERS_AFFECTED: '12' }; // Wasilla, Mat-Su
    const raw = {
      grids: list([]),
      incidents: list([
        at,
        { ...at, CUSTOMERS_AFFECTED: 3 },
        { LATITUDE: 47.6, LONGITUDE: -122.3, CUSTOMERS_AFFECTED: 5 },
      ]),
    };
    const snap = normalize(raw, chugach);
    expect(snap.incidents.map((i) => [i.id, i.fips])).toEqual([
      ['61.58,-149.44', countyContaining(-149.44, 61.58)],
      ['61.58,-149.44#2', countyContaining(-149.44, 61.58)],
      ['47.6,-122.3', null],
    ]);
    expect(snap.counties).toEqual([
      { fips: countyContaining(-149.44, 61.58), customers_out: 15, customers_served: null },
    ]);
    expect(snap.unmatched).toEqual(['1 incident(s) not placed in a county (5 customers out)']);
    expect(snap.customers_out).toBe(20); // no sections: the outages' sum
    expect(snap.customers_served).toBeNull();
  });

  it('a section named for no place keeps no county and is named; a misfit answer fails the poll', () => {
    const snap = normalize(
      { grids: list([{ SECTIONMAP: 'Hillside', CUST_OUT: 4, CUST_SERVED: 900 }]), incidents: list([]) },
      chugach,
    );
    expect(snap.areas.map((a) => [a.name, a.fips])).toEqual([['Hillside', null]]);
    expect(snap.unmatched).toEqual(['Hillside (4 customers out)']);
    expect(snap).toMatchObject({ customers_out: 4, counties: [], basis: 'utility_total' }); // no outage point
    expect(() => normalize({ grids: list([]) }, chugach)).toThrow(/incidents/);
    expect(() => normalize({ grids: list([{ SECTIONMAP: 3 }]), incidents: list([]) }, chugach)).toThrow(
      /grids\.Items\.0\.SECTIONMAP/,
    );
  });

  it('a count that cannot be read is never 0: noted and left out, the figures stand on the rest; with none readable the poll fails', () => {
    const at = { LATITUDE: 61.58, LONGITUDE: -149.44 };
    const sections = list([{ SECTIONMAP: 'Eagle River', CUST_OUT: 7, CUST_SERVED: 900 }]);
    const incidents = list([
      { ...at, CUSTOMERS_AFFECTED: 7 },
      { ...at, CUSTOMERS_AFFECTED: 'unknown' },
    ]);
    const snap = normalize({ grids: sections, incidents }, chugach);
    expect(snap.customers_out).toBe(7);
    expect(snap.incidents.map((i) => i.customers_out)).toEqual([7]);
    expect(snap.unreadable).toEqual(['incident 1: CUSTOMERS_AFFECTED "unknown"']);
    // No sections: the total is the sum of the incidents that can be read, the other noted and left out.
    const summed = normalizeReadable({ normalize }, { grids: list([]), incidents }, chugach);
    expect(summed.customers_out).toBe(7);
    expect(summed.incidents.map((i) => i.customers_out)).toEqual([7]);
    expect(summed.unreadable).toEqual(['incident 1: CUSTOMERS_AFFECTED "unknown"']);
    // No incident readable: the poll fails naming the field.
    const none = list([
      { ...at, CUSTOMERS_AFFECTED: 'unknown' },
      { ...at, CUSTOMERS_AFFECTED: null },
    ]);
    expect(() => normalizeReadable({ normalize }, { grids: list([]), incidents: none }, chugach)).toThrow(
      /no record's CUSTOMERS_AFFECTED can be read.*incident 0: CUSTOMERS_AFFECTED "unknown"/,
    );
    // A section that cannot be read is noted and left out; the sections' total stands on the readable ones.
    const some = list([
      { SECTIONMAP: 'Eagle River', CUST_OUT: 7, CUST_SERVED: 900 },
      { SECTIONMAP: 'Anchorage - Hillside', CUST_OUT: null, CUST_SERVED: 500 },
    ]);
    const partial = normalizeReadable({ normalize }, { grids: some, incidents }, chugach);
    expect(partial.customers_out).toBe(7);
    expect(partial.areas.map((a) => a.name)).toEqual(['Eagle River']);
    expect(partial.unreadable).toContain('section Anchorage - Hillside: CUST_OUT null');
    // No section readable: the poll fails naming the field.
    const bad = list([{ SECTIONMAP: 'Eagle River', CUST_OUT: null, CUST_SERVED: 900 }]);
    expect(() => normalizeReadable({ normalize }, { grids: bad, incidents }, chugach)).toThrow(
      /no record's CUST_OUT can be read.*section Eagle River: CUST_OUT null/,
    );
  });
});
