import { describe, expect, it } from 'vitest';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

describe('nisc normalize', () => {
  it.skipIf(!hasSharedData)('reads the county region set and outages of the real KIUC summary.json', () => {
    const snap = normalize(
      sharedJson('payloads/kiuc/summary.json'),
      sourceDef({ connector: 'nisc', utility: 'KIUC', states: ['HI'] }),
    );
    expect(snap.counties).toEqual([{ fips: '15007', customers_out: 5, customers_served: 35631 }]);
    expect(snap.customers_served).toBe(36323);
    expect(snap.incidents).toHaveLength(2);
    expect(snap.incidents[0]).toMatchObject({
      id: '439619',
      customers_out: 1,
      etr: new Date(1781977793000).toISOString(),
    });
  });
  it('reports a county it cannot place instead of dropping it silently', () => {
    const snap = normalize(
      { outages: [], regionDataSets: [{ id: 'omscounty', regions: [{ id: 'Atlantis', numberOut: 3 }] }] },
      sourceDef({ connector: 'nisc', states: ['HI'] }),
    );
    expect(snap.unmatched).toEqual(['Atlantis']);
  });

  it('counts an outage listed twice once, with its largest count', () => {
    const at = (id: number, nbrOut: number) => ({ id, nbrOut, outagePoint: { lat: 21.97, lng: -159.37 } });
    const snap = normalize(
      { outages: [at(7, 20), at(7, 25), at(8, 3)] },
      sourceDef({ connector: 'nisc', states: ['HI'] }),
    );
    expect(snap.incidents.map((i) => [i.id, i.customers_out])).toEqual([
      ['7', 25],
      ['8', 3],
    ]);
    expect(snap.customers_out).toBe(25 + 3);
    expect(snap.counties).toEqual([{ fips: '15007', customers_out: 28, customers_served: null }]);
  });
});
