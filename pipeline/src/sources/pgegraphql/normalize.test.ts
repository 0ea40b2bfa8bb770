// Tested on the peer's edited sample only (outage-atlas golden fixture, payloads/pge-graphql/sample.json): values
// rounded/edited; field names as the peer's adapter reads them. Expected totals are summed here from the file itself.
import { describe, expect, it } from 'vitest';
import { normalize } from './normalize.ts';
import { normalizeReadable } from '../unreadable.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

interface Row {
  county: string;
  totalCustomersImpacted: number;
  zipCodeInfo: Array<{ zipCode: string; lat: number; long: number; totalCustomersEffected: number }>;
}
const sample = () => sharedJson('payloads/pge-graphql/sample.json') as { data: { getOutagesByCounty: Row[] } };
const pge = sourceDef({ connector: 'pgegraphql' as never, utility: 'Portland General Electric', states: ['OR'] });
/** PGE's counties by Census FIPS, independent of the name matching under test. */
const OR_FIPS: Record<string, string> = {
  CLACKAMAS: '41005',
  COLUMBIA: '41009',
  MARION: '41047',
  MULTNOMAH: '41051',
  POLK: '41053',
  WASHINGTON: '41067',
  YAMHILL: '41071',
};
const answer = (list: unknown) => ({ data: { getOutagesByCounty: list } });

describe('pgegraphql normalize', () => {
  it.skipIf(!hasSharedData)('puts each county row in its Oregon county and sums them as customers_out', () => {
    const rows = sample().data.getOutagesByCounty;
    expect(rows.length).toBeGreaterThan(1);
    const snap = normalize(sample(), pge);
    expect(snap.customers_out).toBe(rows.reduce((s, r) => s + r.totalCustomersImpacted, 0));
    expect(snap.counties).toEqual(
      rows
        .map((r) => ({ fips: OR_FIPS[r.county], customers_out: r.totalCustomersImpacted, customers_served: null }))
        .sort((a, b) => a.fips.localeCompare(b.fips)),
    );
    expect(snap.counties.find((c) => c.fips === '41067')?.customers_out).toBe(998);
    expect(snap.counties.find((c) => c.fips === '41051')?.customers_out).toBe(460);
    expect(snap.counties.every((c) => c.fips.startsWith('41'))).toBe(true);
    // the ZIP points are per-ZIP sums, not outages: no incidents are made of them
    expect(rows.some((r) => r.zipCodeInfo.length > 0)).toBe(true);
    expect(snap).toMatchObject({ incidents: [], areas: [], unmatched: [], customers_served: null, basis: 'county' });
  });
  it.skipIf(!hasSharedData)('reads the list sent as JSON text the same as the array', () => {
    const raw = sample();
    const text = answer(JSON.stringify(raw.data.getOutagesByCounty));
    expect(normalize(text, pge)).toEqual(normalize(raw, pge));
  });
  it('sums repeated rows, tries the states in order, and reports names it cannot place', () => {
    const list = [
      { county: 'Multnomah', totalCustomersImpacted: '1,200' },
      { county: 'MULTNOMAH ', totalCustomersImpacted: 5 },
      { county: 'COLUMBIA', totalCustomersImpacted: 7 },
      { county: 'ATLANTIS', totalCustomersImpacted: 3 },
    ];
    const snap = normalize(answer(list), pge);
    expect(snap.counties).toEqual([
      { fips: '41009', customers_out: 7, customers_served: null },
      { fips: '41051', customers_out: 1205, customers_served: null },
    ]);
    expect(snap.customers_out).toBe(1215);
    expect(snap.unmatched).toEqual(['ATLANTIS (3 customers out)']);
    // A row whose count cannot be read is noted and left out, never 0; with no row readable the poll fails.
    const unreadable = [...list, { county: 'POLK', totalCustomersImpacted: 'n/a' }];
    expect(normalize(answer(unreadable), pge)).toMatchObject({
      customers_out: 1215,
      unreadable: ['POLK: totalCustomersImpacted "n/a"'],
    });
    const none = answer([{ county: 'POLK', totalCustomersImpacted: '' }]);
    expect(() => normalizeReadable({ normalize }, none, pge)).toThrow(
      expect.objectContaining({ reason: 'schema', message: expect.stringMatching(/totalCustomersImpacted/) }),
    );
    // Columbia is a county in WA and in OR: the first state listed wins
    const both = sourceDef({ connector: 'pgegraphql' as never, states: ['WA', 'OR'] });
    expect(normalize(answer(list), both).counties.map((c) => c.fips)).toEqual(['41051', '53013']);
  });
  it('reads an empty list as no customers out, still at county grade', () => {
    expect(normalize(answer([]), pge)).toMatchObject({ customers_out: 0, counties: [], basis: 'county' });
    expect(normalize(answer('[]'), pge)).toMatchObject({ customers_out: 0, counties: [] });
  });
  it('fails on GraphQL errors without data, naming the server message; reads data sent beside errors', () => {
    const errors = [{ message: 'Field "getOutagesByCounty" must not have a selection' }];
    for (const raw of [{ errors }, { errors, data: null }, { errors, data: { getOutagesByCounty: null } }])
      expect(() => normalize(raw, pge)).toThrow(
        expect.objectContaining({ reason: 'bad_body', message: expect.stringMatching(/must not have a selection/) }),
      );
    const partial = { errors, data: { getOutagesByCounty: [{ county: 'POLK', totalCustomersImpacted: 2 }] } };
    expect(normalize(partial, pge).customers_out).toBe(2);
  });
  it('names the field when the answer has an unexpected shape', () => {
    const bad = (raw: unknown, path: RegExp) =>
      expect(() => normalize(raw, pge)).toThrow(
        expect.objectContaining({ reason: 'schema', message: expect.stringMatching(path) }),
      );
    bad(
      answer([{ county: 'POLK', totalCustomersImpacted: {} }]),
      /data\.getOutagesByCounty\.0\.totalCustomersImpacted/,
    );
    bad(answer([{ totalCustomersImpacted: 1 }]), /data\.getOutagesByCounty\.0\.county/);
    bad(answer({ county: 'POLK' }), /data\.getOutagesByCounty: expected array/);
    bad({ outages: [] }, /data: expected object/);
    expect(() => normalize(answer('<html>'), pge)).toThrow(expect.objectContaining({ reason: 'bad_body' }));
  });
});
