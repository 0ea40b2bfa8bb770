// Avangrid normalize on CMP's real captures (16 July 2026 storm, 22 August 2026 calm), which a scraper reshaped to
// {lastUpdated, totals, towns[]}: the town features' properties are verbatim, the totals are the county answer's own;
// recorded.ts rebuilds the two answers from them. Expected county counts are computed here from the payload with the
// test's own table of Maine's counties, never with the connector's matchCounty.
import { describe, expect, it } from 'vitest';
import { etrOf, normalize } from './normalize.ts';
import { recordedRaw } from './recorded.ts';
import { normalizeReadable } from '../unreadable.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

interface Town {
  level: string;
  county: string;
  town: string;
  customers: number;
  Outages: number;
  EstRest: string;
  incidentnumber?: string;
}
interface Capture {
  totals: { customers: number; outages: number; incidents: number };
  lincolnCounty: Town | null;
  towns: Town[];
}

/** Maine's sixteen counties (FIPS 23001–23031, in alphabetical order). */
const MAINE = [
  'ANDROSCOGGIN',
  'AROOSTOOK',
  'CUMBERLAND',
  'FRANKLIN',
  'HANCOCK',
  'KENNEBEC',
  'KNOX',
  'LINCOLN',
  'OXFORD',
  'PENOBSCOT',
  'PISCATAQUIS',
  'SAGADAHOC',
  'SOMERSET',
  'WALDO',
  'WASHINGTON',
  'YORK',
];
const fipsOf = (county: string) => `23${String(MAINE.indexOf(county) * 2 + 1).padStart(3, '0')}`;

/** Customers out per county: the town rows (not the street rows, which repeat part of them) summed by their county. */
function countyOut(towns: Town[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of towns.filter((x) => x.level === 'town')) {
    expect(MAINE, t.county).toContain(t.county);
    m.set(fipsOf(t.county), (m.get(fipsOf(t.county)) ?? 0) + t.Outages);
  }
  return m;
}

const cmp = sourceDef({ connector: 'avangrid' as never, utility: 'Central Maine Power', states: ['ME'] });
const capture = (at: string) => sharedJson(`payloads/avangrid/cmp-towns-2026-${at}.json`) as Capture;

describe.skipIf(!hasSharedData)('avangrid normalize, the real CMP captures', () => {
  it.each([
    ['07-16T2116Z', 44_340, 15, 200, 68],
    ['08-22T1651Z', 192, 4, 10, 10],
  ])(
    '%s: counties by the county each town names, totals from the county answer',
    (at, out, counties, towns, streets) => {
      const raw = capture(at);
      const expected = countyOut(raw.towns);
      const snap = normalize(recordedRaw(raw), cmp);
      expect(new Map(snap.counties.map((c) => [c.fips, c.customers_out]))).toEqual(expected);
      expect(snap.counties.every((c) => c.customers_served === null)).toBe(true);
      // the town rows add up to the county answer's own total: nothing is lost or counted twice
      expect([...expected.values()].reduce((s, n) => s + n, 0)).toBe(raw.totals.outages);
      expect([snap.customers_out, snap.customers_served]).toEqual([raw.totals.outages, raw.totals.customers]);
      expect([snap.customers_out, snap.counties.length, snap.areas.length, snap.incidents.length]).toEqual([
        out,
        counties,
        towns,
        streets,
      ]);
      expect(snap).toMatchObject({ basis: 'county', unmatched: [] });
    },
  );

  it('makes each town an area (path county, town; served the town’s customers) and each street an incident', () => {
    const raw = capture('07-16T2116Z');
    const snap = normalize(recordedRaw(raw), cmp);
    const towns = raw.towns.filter((t) => t.level === 'town');
    expect(snap.areas.map((a) => [a.path, a.customers_out, a.customers_served, a.fips])).toEqual(
      towns.map((t) => [[t.county, t.town], t.Outages, t.customers, fipsOf(t.county)]),
    );
    // a town CMP splits between counties is two areas, one in each
    expect(snap.areas.filter((a) => a.name === 'SAINT ALBANS').map((a) => a.fips)).toEqual(['23021', '23025']);
    const streets = raw.towns.filter((t) => t.level === 'street');
    expect(snap.incidents.map((i) => [i.customers_out, i.fips, i.city])).toEqual(
      streets.map((s) => [s.Outages, fipsOf(s.county), s.town]),
    );
    expect(snap.incidents[0]).toMatchObject({ id: '003LDL', crew_status: 'DISP', etr: '2026-07-16T22:30:00.000Z' });
  });

  it('reads counties and served from the county answer when it lists them (Lincoln’s feature is verbatim)', () => {
    const raw = capture('07-16T2116Z');
    const lincoln = raw.lincolnCounty!;
    const rebuilt = recordedRaw(raw) as { county: Record<string, unknown> };
    const snap = normalize({ ...rebuilt, county: { ...rebuilt.county, features: [{ properties: lincoln }] } }, cmp);
    expect(snap.counties).toEqual([
      { fips: '23015', customers_out: lincoln.Outages, customers_served: lincoln.customers },
    ]);
    // and that county row agrees with Lincoln's towns
    expect(countyOut(raw.towns).get('23015')).toBe(lincoln.Outages);
  });
});

describe('avangrid normalize, made-up answers', () => {
  const fc = (features: unknown[], extra: Record<string, unknown> = {}) => ({
    type: 'FeatureCollection',
    features,
    ...extra,
  });
  const town = (props: Record<string, unknown>, geometry: unknown = null) => ({
    properties: { level: 'town', ...props },
    geometry,
  });

  it('places a town without a county by its point, and lists what it cannot place', () => {
    const snap = normalize(
      {
        county: fc([], { customers: 10, outages: 9 }),
        town: fc([
          town({ town: 'AUGUSTA', Outages: 5 }, { type: 'Point', coordinates: [-69.78, 44.31] }),
          town({ town: 'NOWHERE', county: 'ATLANTIS', Outages: '4' }),
          town({ town: 'SEA', Outages: 0 }),
          town({ town: 'ODD', county: 'YORK', Outages: 'n/a' }),
        ]),
      },
      cmp,
    );
    expect(snap.counties).toEqual([{ fips: '23011', customers_out: 5, customers_served: null }]);
    expect(snap.unmatched).toEqual(['1 town(s) not placed in a county (4 customers out)']);
    expect(snap.unreadable).toEqual(['town YORK, ODD: Outages "n/a"']);
    expect(snap.areas.map((a) => a.name)).toEqual(['AUGUSTA', 'NOWHERE', 'SEA']);
    expect([snap.customers_out, snap.customers_served]).toEqual([9, 10]);
  });

  it('a row whose count cannot be read is never 0: noted and left out, the figures stand on the rest; with no row readable the poll fails naming it', () => {
    for (const bad of [null, undefined, '', 'unknown', -5]) {
      const rows = fc([
        town({ county: 'YORK', town: 'YORK', Outages: 3 }),
        town({ county: 'YORK', town: 'KITTERY', Outages: bad }),
      ]);
      const snap = normalize({ county: fc([], { customers: 10, outages: 9 }), town: rows }, cmp);
      expect(snap.areas.map((a) => [a.name, a.customers_out])).toEqual([['YORK', 3]]);
      expect(snap.unreadable).toHaveLength(1);
      expect(snap.customers_out).toBe(9);
      // Without a headline, the total is the sum of the readable rows, the unreadable one noted and left out.
      const summed = normalizeReadable({ normalize }, { county: {}, town: rows }, cmp);
      expect(summed.customers_out).toBe(3);
      expect(summed.areas.map((a) => [a.name, a.customers_out])).toEqual([['YORK', 3]]);
      expect(summed.unreadable).toEqual([expect.stringMatching(/town YORK, KITTERY: Outages/)]);
      // No row readable: nothing to stand on, so the poll fails naming the field.
      const none = fc([
        town({ county: 'YORK', town: 'YORK', Outages: bad }),
        town({ county: 'YORK', town: 'KITTERY', Outages: bad }),
      ]);
      expect(() => normalizeReadable({ normalize }, { county: {}, town: none }, cmp)).toThrow(
        /no record's Outages can be read/,
      );
    }
    // The headline itself must be readable.
    expect(() => normalize({ county: { outages: 'N/A' }, town: fc([]) }, cmp)).toThrow(/headline total outages/);
  });

  it('sums the towns without county totals; a quiet day has neither', () => {
    const snap = normalize({ county: {}, town: fc([town({ county: 'YORK', town: 'YORK', Outages: 3 })]) }, cmp);
    expect([snap.customers_out, snap.customers_served]).toEqual([3, null]);
    expect(normalize({ county: fc([]), town: fc([]) }, cmp)).toMatchObject({ customers_out: 0, counties: [] });
  });

  it('reads EstRest in Eastern time; blank or other text is no ETR', () => {
    expect(etrOf('7/16/2026 6:30:00 PM', 'America/New_York')).toBe('2026-07-16T22:30:00.000Z');
    expect(etrOf('1/5/2026 12:05:00 AM', 'America/New_York')).toBe('2026-01-05T05:05:00.000Z');
    for (const bad of ['', '  ', 'TBD', null]) expect(etrOf(bad, 'America/New_York')).toBeNull();
  });

  it('names the field of an unexpected shape', () => {
    expect(() => normalize({ county: {}, town: fc([town({ Outages: {} })]) }, cmp)).toThrow(
      /town\.features\.0\.properties\.Outages/,
    );
    expect(() => normalize({ county: { outages: [] }, town: fc([]) }, cmp)).toThrow(/county\.outages/);
    expect(() => normalize({ county: {}, town: { features: {} } }, cmp)).toThrow(/town\.features: expected array/);
    expect(() => normalize({ town: fc([]) }, cmp)).toThrow(/county: expected object/);
  });
});
