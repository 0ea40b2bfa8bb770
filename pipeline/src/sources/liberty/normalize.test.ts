// Liberty normalize on the peer's sample (payloads/liberty/sample.json: edited values, so it proves parsing, not facts
// about Liberty) and on made-up answers in its shape. Expected figures are computed here from each answer: the test's
// own sums and its own reading of data/reference/places.csv (test/place-lookup.ts), in each city's own state.
import { describe, expect, it } from 'vitest';
import { normalize } from './normalize.ts';
import { normalizeReadable } from '../unreadable.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';
import { townCounty } from '../../../test/place-lookup.ts';

const empire = sourceDef({ connector: 'liberty', utility: 'Empire District', states: ['MO', 'AR', 'KS', 'OK'] });
interface City {
  state: string;
  city: string;
  customer_affected: string;
  customer_served: string;
}
const answer = (data: unknown) => ({ status: { code: 200, error: false }, data });

describe.skipIf(!hasSharedData)('liberty normalize, the peer’s sample', () => {
  const sample = (hasSharedData ? sharedJson('payloads/liberty/sample.json') : { data: [] }) as { data: City[] };

  it('places each city in its own state’s county; counties and totals are the cities’ sums', () => {
    const snap = normalize(sample, empire);
    const by = new Map<string, [number, number]>();
    for (const c of sample.data) {
      const fips = townCounty(c.state, c.city)!;
      expect(fips, c.city).toBeDefined();
      const [out, served] = by.get(fips) ?? [0, 0];
      by.set(fips, [out + Number(c.customer_affected), served + Number(c.customer_served)]);
    }
    expect(new Map(snap.counties.map((c) => [c.fips, [c.customers_out, c.customers_served]]))).toEqual(by);
    expect(snap.customers_out).toBe(sample.data.reduce((s, c) => s + Number(c.customer_affected), 0));
    expect(snap.customers_served).toBe(sample.data.reduce((s, c) => s + Number(c.customer_served), 0));
    expect(snap.areas.map((a) => a.path)).toEqual(sample.data.map((c) => [c.state, c.city]));
    expect(snap.unmatched).toEqual([]);
    expect(snap.basis).toBe('county');
  });
});

describe('liberty normalize, made-up answers in the sample’s shape', () => {
  it('a town spanning counties counts where most of it lives; one outside the row’s states is not placed', () => {
    const snap = normalize(
      answer([
        { state: 'MO', city: 'JOPLIN', customer_affected: '300', customer_served: '25000' },
        { state: 'TX', city: 'AUSTIN', customer_affected: '9', customer_served: '10' },
        { state: 'OK', city: 'MIAMI', customer_affected: '0', customer_served: '6000' },
      ]),
      empire,
    );
    const joplin = townCounty('MO', 'Joplin')!;
    const miami = townCounty('OK', 'Miami')!;
    expect(new Map(snap.counties.map((c) => [c.fips, c.customers_out]))).toEqual(
      new Map([
        [joplin, 300],
        [miami, 0],
      ]),
    );
    expect(snap.areas.map((a) => [a.name, a.fips])).toEqual([
      ['JOPLIN', joplin],
      ['AUSTIN', null],
    ]);
    expect(snap.unmatched).toEqual(['AUSTIN, TX (9 customers out)']);
    expect(snap.customers_out).toBe(309);
  });

  it('a city whose count cannot be read is never 0: noted and left out, the sums stand on the rest; with none readable the poll fails', () => {
    for (const bad of ['unknown', '', null, undefined]) {
      const data = [
        { state: 'MO', city: 'JOPLIN', customer_affected: '300', customer_served: '25000' },
        { state: 'MO', city: 'CARTHAGE', customer_affected: bad, customer_served: '6000' },
      ];
      const snap = normalizeReadable({ normalize }, answer(data), empire);
      expect(snap.customers_out).toBe(Number(data[0].customer_affected));
      expect(snap.areas.map((a) => [a.name, a.customers_out])).toEqual([['JOPLIN', Number(data[0].customer_affected)]]);
      expect(snap.counties.map((c) => [c.fips, c.customers_out])).toEqual([
        [townCounty('MO', 'Joplin'), Number(data[0].customer_affected)],
      ]);
      expect(snap.unreadable).toEqual([expect.stringMatching(/^city CARTHAGE: customer_affected/)]);
      const none = data.map((c) => ({ ...c, customer_affected: bad }));
      expect(() => normalizeReadable({ normalize }, answer(none), empire)).toThrow(
        /no record's customer_affected can be read.*city JOPLIN: customer_affected/,
      );
    }
  });

  it('no data is a calm county snapshot; a misfit field or a refusal fails the poll', () => {
    expect(normalize(answer(null), empire)).toMatchObject({ customers_out: 0, counties: [], basis: 'county' });
    expect(() => normalize(answer([{ state: 'MO', city: null }]), empire)).toThrow(/data\.0\.city/);
    expect(() => normalize({ status: { code: 500, error: true }, data: [] }, empire)).toThrow(/status\.error true/);
  });
});
