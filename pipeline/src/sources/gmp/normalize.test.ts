// Green Mountain Power normalize on the peer's sample (payloads/gmp/sample.json: edited values, so it proves parsing,
// not facts about GMP) and on made-up answers in its shape. Expected figures are computed here from each answer: the
// test's own sums and its own reading of data/reference/places.csv (test/place-lookup.ts) for each town's county.
import { describe, expect, it } from 'vitest';
import { normalize } from './normalize.ts';
import { normalizeReadable } from '../unreadable.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';
import { townCounty } from '../../../test/place-lookup.ts';

const gmp = sourceDef({ connector: 'gmp', utility: 'Green Mountain Power', states: ['VT'] });
interface Town {
  town_name: string;
  customers_affected: number;
  total_customers: number;
}

/** The counties the test expects: every town with anyone out or served, summed in the county the table gives it. */
function expectedCounties(towns: Town[]): Map<string, [number, number]> {
  const by = new Map<string, [number, number]>();
  for (const t of towns) {
    const fips = townCounty('VT', t.town_name);
    if (!fips || (t.customers_affected === 0 && t.total_customers === 0)) continue;
    const [out, served] = by.get(fips) ?? [0, 0];
    by.set(fips, [out + t.customers_affected, served + t.total_customers]);
  }
  return by;
}
const countiesOf = (snap: ReturnType<typeof normalize>) =>
  new Map(snap.counties.map((c) => [c.fips, [c.customers_out, c.customers_served]]));

describe.skipIf(!hasSharedData)('gmp normalize, the peer’s sample', () => {
  const towns = (hasSharedData ? sharedJson('payloads/gmp/sample.json') : []) as Town[];

  it('places each town in the county the place table gives it; the totals are the towns’ sums', () => {
    const snap = normalize(towns, gmp);
    expect(snap.customers_out).toBe(towns.reduce((s, t) => s + t.customers_affected, 0));
    expect(snap.customers_served).toBe(towns.reduce((s, t) => s + t.total_customers, 0));
    expect(countiesOf(snap)).toEqual(expectedCounties(towns));
    const out = towns.filter((t) => t.customers_affected > 0);
    expect(snap.areas.map((a) => [a.name, a.fips, a.customers_out])).toEqual(
      out.map((t) => [t.town_name, townCounty('VT', t.town_name) ?? null, t.customers_affected]),
    );
    expect(snap.unmatched).toEqual([]);
    expect(snap.basis).toBe('county');
  });
});

describe('gmp normalize, made-up answers in the sample’s shape', () => {
  it('a town the table lacks is an unplaced area named in unmatched, its customers in the total only', () => {
    const towns = [
      { town_name: 'Rutland City', customers_affected: 40, total_customers: 8000 },
      { town_name: 'St. Albans', customers_affected: '1,204', total_customers: '3,000' },
      { town_name: 'Nowhereville', customers_affected: 12, total_customers: 100 },
    ];
    const snap = normalize(towns, gmp);
    const rutland = townCounty('VT', 'Rutland')!;
    const albans = townCounty('VT', 'Saint Albans')!;
    expect(rutland).toBeDefined();
    expect(countiesOf(snap)).toEqual(
      new Map([
        [rutland, [40, 8000]],
        [albans, [1204, 3000]],
      ]),
    );
    expect(snap.areas.map((a) => a.fips)).toEqual([rutland, albans, null]);
    expect(snap.unmatched).toEqual(['Nowhereville (12 customers out)']);
    expect(snap.customers_out).toBe(40 + 1204 + 12);
    expect(snap.customers_served).toBe(8000 + 3000 + 100);
  });

  it('hostile names are cleaned for the look-up; a repeated town is numbered', () => {
    const snap = normalize(
      [
        { town_name: 'Fair\u202elee\u0000', customers_affected: 5, total_customers: null },
        { town_name: 'Fairlee', customers_affected: 2, total_customers: 10 },
      ],
      gmp,
    );
    const fairlee = townCounty('VT', 'Fairlee');
    expect(snap.areas.map((a) => [a.fips, a.path])).toEqual([
      [fairlee, ['Fair\u202elee\u0000']],
      [fairlee, ['Fairlee']],
    ]);
    expect(snap.unmatched).toEqual([]);
    expect(snap.customers_served).toBeNull(); // a town without a served figure
    expect(snap.counties.find((c) => c.fips === fairlee)?.customers_out).toBe(7);
  });

  it('a town whose count cannot be read is never 0: noted and left out, the sums stand on the rest; with none readable the poll fails', () => {
    for (const bad of ['n/a', null, undefined, -3]) {
      const towns = [
        { town_name: 'Fairlee', customers_affected: 2, total_customers: 10 },
        { town_name: 'Barre', customers_affected: bad, total_customers: 9000 },
      ];
      const snap = normalizeReadable({ normalize }, towns, gmp);
      expect(snap.customers_out).toBe(towns[0].customers_affected);
      expect(snap.areas.map((a) => [a.name, a.customers_out])).toEqual([['Fairlee', 2]]);
      expect(snap.counties.map((c) => [c.fips, c.customers_out])).toEqual([[townCounty('VT', 'Fairlee'), 2]]);
      expect(snap.unreadable).toEqual([expect.stringMatching(/^town Barre: customers_affected/)]);
      const none = towns.map((t) => ({ ...t, customers_affected: bad }));
      expect(() => normalizeReadable({ normalize }, none, gmp)).toThrow(
        /no record's customers_affected can be read.*town Fairlee: customers_affected/,
      );
    }
  });

  it('an empty list is a calm county snapshot; anything but a list of named towns fails the poll', () => {
    expect(normalize([], gmp)).toMatchObject({ customers_out: 0, counties: [], areas: [], basis: 'county' });
    expect(() => normalize({ towns: [] }, gmp)).toThrow(/Green Mountain Power town list has an unexpected shape/);
    expect(() => normalize([{ town_name: 7, customers_affected: 1 }], gmp)).toThrow(/0\.town_name/);
  });
});
