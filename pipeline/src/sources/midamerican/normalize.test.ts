// MidAmerican normalize. The only recorded payload is the peer's golden fixture raw, HAND-MADE in the vendor shape
// (placeholder names and round numbers; field names as the peer's adapter reads them): it proves parsing only.
import { describe, expect, it } from 'vitest';
import { normalize } from './normalize.ts';
import { normalizeReadable } from '../unreadable.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

interface Row {
  CountyNam: string;
  NumOutages: number;
  PremiseCount: number;
}
const sample = () => sharedJson('payloads/midamerican/sample.json') as Row[];
const mid = sourceDef({ connector: 'midamerican' as never, utility: 'MidAmerican Energy', states: ['IA', 'IL', 'SD'] });
/** Census FIPS of the county names used here, written out rather than looked up by the code under test. */
const FIPS: Record<string, string> = { POLK: '19153', TAYLOR: '19173', 'ROCK ISLAND': '17161', SCOTT: '19163' };
const IN_STATES = /^(19|17|46)\d{3}$/; // IA, IL, SD

describe('midamerican normalize', () => {
  it.skipIf(!hasSharedData)('reads the hand-made sample county by county; a name of no county is reported', () => {
    const rows = sample();
    const placed = rows.filter((r) => FIPS[r.CountyNam]);
    expect(placed.map((r) => r.CountyNam)).toEqual(['POLK', 'TAYLOR']);
    const snap = normalize(rows, mid);
    expect(snap.customers_out).toBe(rows.reduce((s, r) => s + r.NumOutages, 0));
    expect(snap.counties).toEqual(
      placed
        .map((r) => ({ fips: FIPS[r.CountyNam], customers_out: r.NumOutages, customers_served: r.PremiseCount }))
        .sort((a, b) => a.fips.localeCompare(b.fips)),
    );
    expect(snap.counties.every((c) => IN_STATES.test(c.fips))).toBe(true);
    // CALM (0 out) is the peer's placeholder for a quiet row: no county, nothing out, so only its name is listed
    expect(snap.unmatched).toEqual(['CALM']);
    expect(snap.incidents).toHaveLength(0);
    expect(snap).toMatchObject({ customers_served: null, basis: 'county', unit: 'customers', areas: [] });
  });
  it('looks each name up in IA, then IL, then SD: a name in several states is the Iowa county', () => {
    const snap = normalize(
      [
        { CountyNam: 'Rock Island', NumOutages: 7, PremiseCount: 60_000 },
        { CountyNam: 'UNION', NumOutages: 2, PremiseCount: 4_000 },
        { CountyNam: 'LINCOLN', NumOutages: '1,204', PremiseCount: '9,000' },
        { CountyNam: 'SCOTT', NumOutages: 40, PremiseCount: null },
        { CountyNam: 'SCOTT', NumOutages: 5, PremiseCount: 70_000 },
      ],
      mid,
    );
    expect(snap.counties).toEqual([
      { fips: FIPS['ROCK ISLAND'], customers_out: 7, customers_served: 60_000 },
      { fips: FIPS.SCOTT, customers_out: 45, customers_served: 70_000 },
      { fips: '19175', customers_out: 2, customers_served: 4_000 }, // Union, IA (IL and SD have one too)
      { fips: '46083', customers_out: 1204, customers_served: 9_000 }, // Lincoln, SD only
    ]);
    expect(snap.customers_out).toBe(7 + 2 + 1204 + 40 + 5);
    expect(snap.unmatched).toEqual([]);
  });
  it('counts unplaced rows in customers_out but in no county', () => {
    const snap = normalize(
      [
        { CountyNam: 'POLK', NumOutages: 10, PremiseCount: 300_000 },
        { CountyNam: 'ATLANTIS', NumOutages: 3, PremiseCount: 50 },
        { CountyNam: null, NumOutages: 2 },
      ],
      mid,
    );
    expect(snap.customers_out).toBe(15);
    expect(snap.counties).toEqual([{ fips: FIPS.POLK, customers_out: 10, customers_served: 300_000 }]);
    expect(snap.unmatched).toEqual(['2 county row(s) not placed (5 customers out)', 'ATLANTIS', '(no county name)']);
  });
  it('a row whose count cannot be read is never 0: noted and left out, the sum stands on the rest; with none readable the poll fails', () => {
    for (const bad of ['n/a', '', 'unknown', null, -5]) {
      const rows = [
        { CountyNam: 'POLK', NumOutages: 10, PremiseCount: 300_000 },
        { CountyNam: 'TAYLOR', NumOutages: bad, PremiseCount: 5_000 },
      ];
      // null, like a missing count, is a schema failure naming the field (schema.ts requires it)
      if (bad === null) {
        expect(() => normalize(rows, mid)).toThrow(/1\.NumOutages/);
        continue;
      }
      const snap = normalizeReadable({ normalize }, rows, mid);
      expect(snap.customers_out).toBe(rows[0].NumOutages);
      expect(snap.counties).toEqual([
        { fips: FIPS.POLK, customers_out: rows[0].NumOutages, customers_served: 300_000 },
      ]);
      expect(snap.unreadable).toEqual([expect.stringMatching(/^county TAYLOR: NumOutages/)]);
      const none = rows.map((r) => ({ ...r, NumOutages: bad }));
      expect(() => normalizeReadable({ normalize }, none, mid)).toThrow(
        /no record's NumOutages can be read.*county POLK: NumOutages/,
      );
    }
    const rows = [{ CountyNam: 'TAYLOR', NumOutages: 'n/a' }];
    expect(() => normalizeReadable({ normalize }, rows, mid)).toThrow(
      /no record's NumOutages can be read.*county TAYLOR: NumOutages "n\/a"/,
    );
  });
  it('reads an empty list as nothing out', () => {
    expect(normalize([], mid)).toMatchObject({ customers_out: 0, counties: [], unmatched: [], basis: 'county' });
  });
  it('names the field when the answer has an unexpected shape', () => {
    expect(() => normalize({ data: [] }, mid)).toThrow(/\(root\): expected array, got object/);
    expect(() => normalize([{ CountyNam: 'POLK', PremiseCount: 1 }], mid)).toThrow(/0\.NumOutages/);
    expect(() => normalize([{ CountyNam: 'POLK', NumOutages: 1, PremiseCount: {} }], mid)).toThrow(
      /0\.PremiseCount: expected number or string, got object/,
    );
    expect(() => normalize([{ CountyNam: 5, NumOutages: 1 }], mid)).toThrow(/0\.CountyNam/);
    expect(() => normalize(['POLK'], mid)).toThrow(/: 0: expected object, got string/);
  });
});
