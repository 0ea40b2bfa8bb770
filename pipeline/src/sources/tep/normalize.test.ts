// TEP normalize against the peer's two samples and small made-up answers. Tested on the peer's edited sample only:
// values rounded/edited; field names as the peer's adapter reads them (no real mapfeed answer was recorded).
import { describe, expect, it } from 'vitest';
import { etrOf, normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

interface Outage {
  division?: string;
  customersOut?: string;
  formattedEstimatedRestoration?: string;
  bounds?: { coordLatCenter?: string; coordLngCenter?: string };
  updatedCause?: string;
  event?: string;
}
type Answer = Record<string, string | undefined> & { data?: { outages: Outage[] }; outages?: Outage[] };
// TEP's sample keeps the list under `data`; the UNS one has it at the top, with USE headlines beside TEP's.
const tepSample = () => sharedJson('payloads/tep/sample.json') as Answer;
const unsSample = () => sharedJson('payloads/tep/uns-sample.json') as Answer;
const outagesOf = (a: Answer) => a.data?.outages ?? a.outages ?? [];

const tep = sourceDef({ connector: 'tep' as never, utility: 'Tucson Electric Power', states: ['AZ'] });
const uns = sourceDef({
  connector: 'tep' as never,
  utility: 'UNS Electric',
  states: ['AZ'],
  options: { division: 'USE' },
});
/** The samples' points by county (Census shapes: Tucson and Marana in Pima, Yuma's valley in Yuma). */
const POINT_COUNTY: Record<string, string> = {
  '32.2,-110.9': '04019',
  '32.3,-111.0': '04019',
  '32.7,-114.62': '04027',
  '32.54,-114.41': '04027',
};
const PIMA = '04019';
const YUMA = '04027';

/** The payload's own numbers for one division: its outages, their sum, and the headline as a number. */
function division(a: Answer, div: string) {
  const list = outagesOf(a).filter((o) => o.division === div);
  const headline = a[`AffectedCustomers${div}`];
  return {
    list,
    sum: list.reduce((s, o) => s + Number(o.customersOut), 0),
    headline: headline === undefined ? null : Number(headline.replace(/,/g, '')),
  };
}
/** County sums of a division's outages, from the table above (not from point placement). */
function countiesOf(list: Outage[]) {
  const out: Record<string, number> = {};
  for (const o of list) {
    const fips = POINT_COUNTY[`${o.bounds?.coordLatCenter},${o.bounds?.coordLngCenter}`];
    out[fips] = (out[fips] ?? 0) + Number(o.customersOut);
  }
  return Object.keys(out)
    .sort()
    .map((fips) => ({ fips, customers_out: out[fips], customers_served: null }));
}

describe.skipIf(!hasSharedData)('tep normalize, the peer samples', () => {
  it('TEP row (no division): the TEP headline, TEP outages only, in Pima County', () => {
    const raw = tepSample();
    const own = division(raw, 'TEP');
    expect(own.list).toHaveLength(2);
    // the sample's own numbers agree, and its USE outage is not TEP's
    expect(own.headline).toBe(own.sum);
    expect(outagesOf(raw).some((o) => o.division === 'USE')).toBe(true);
    const snap = normalize(raw, tep);
    expect(snap.customers_out).toBe(own.headline);
    expect(snap.customers_out).toBe(120);
    expect(snap.incidents.map((i) => i.customers_out)).toEqual(own.list.map((o) => Number(o.customersOut)));
    expect(snap.counties).toEqual(countiesOf(own.list));
    expect(snap.counties).toEqual([{ fips: PIMA, customers_out: 120, customers_served: null }]);
    expect(snap.counties.every((c) => c.fips.startsWith('04'))).toBe(true);
    expect(snap).toMatchObject({
      customers_served: null,
      unmatched: [],
      notice: null,
      basis: 'county',
      unit: 'customers',
    });
    // division "TEP" spelled out (any case) is the default
    expect(normalize(raw, { ...tep, options: { division: 'tep' } })).toEqual(snap);
  });

  it('reads each TEP outage: id from its point, cause, ETR as Phoenix time dated by the capture', () => {
    // Jun 24, 1:00 PM MST: the ETR "Jun 24, 8:17 PM" is that evening, UTC-7 (Arizona keeps no DST)
    const snap = normalize({ captured_at: '2026-06-24T20:00:00.000Z', answer: tepSample() }, tep);
    expect(snap.incidents).toEqual([
      {
        id: '32.2,-110.9',
        fips: PIMA,
        customers_out: 100,
        etr: '2026-06-25T03:17:00.000Z',
        crew_status: null,
        cause: 'Equipment',
        started_at: null,
        lat: 32.2,
        lon: -110.9,
        city: null,
        planned: false,
      },
      {
        id: '32.3,-111',
        fips: PIMA,
        customers_out: 20,
        etr: null,
        crew_status: null,
        cause: null,
        started_at: null,
        lat: 32.3,
        lon: -111,
        city: null,
        planned: false,
      },
    ]);
    // the bare answer (no date) has no year for its ETRs
    expect(normalize(tepSample(), tep).incidents[0].etr).toBeNull();
  });

  it('UNS row (division USE): the USE headline and outages, in Yuma County', () => {
    const raw = unsSample();
    const own = division(raw, 'USE');
    expect(own.list).toHaveLength(2);
    expect(own.headline).toBe(own.sum);
    // the answer's "updated" (Jun 30, 5:00 PM MST) as its capture time
    const snap = normalize({ captured_at: '2026-07-01T00:00:00.000Z', answer: raw }, uns);
    expect(snap.customers_out).toBe(own.headline);
    expect(snap.customers_out).toBe(37);
    expect(snap.counties).toEqual(countiesOf(own.list));
    expect(snap.counties).toEqual([{ fips: YUMA, customers_out: 37, customers_served: null }]);
    expect(snap.incidents.map((i) => [i.id, i.fips, i.customers_out, i.etr, i.cause])).toEqual([
      ['32.7,-114.62', YUMA, 25, '2026-07-01T01:00:00.000Z', 'Equipment Repair'],
      ['32.54,-114.41', YUMA, 12, '2026-07-01T02:00:00.000Z', 'Tree on Line'],
    ]);
    expect(snap).toMatchObject({ customers_served: null, unmatched: [], basis: 'county' });
  });

  it('TEP row on the UNS sample, and UNS row on the TEP sample (no USE headline: the sum; no point: unplaced)', () => {
    const both = unsSample();
    const tepOwn = division(both, 'TEP');
    const tepSnap = normalize(both, tep);
    expect(tepSnap.customers_out).toBe(tepOwn.headline);
    expect(tepSnap.customers_out).toBe(100);
    expect(tepSnap.incidents).toHaveLength(tepOwn.list.length);
    expect(tepSnap.counties).toEqual([{ fips: PIMA, customers_out: 100, customers_served: null }]);

    const raw = tepSample();
    const use = division(raw, 'USE');
    expect(use.headline).toBeNull();
    const snap = normalize(raw, uns);
    expect(snap.customers_out).toBe(use.sum);
    expect(snap.customers_out).toBe(50);
    expect(snap.incidents).toEqual([
      expect.objectContaining({ id: 'outage', fips: null, lat: null, customers_out: 50 }),
    ]);
    expect(snap.counties).toEqual([]);
    expect(snap.unmatched).toEqual(['1 point(s) not placed in a county (50 customers out)']);
    expect(snap.basis).toBe('outage_only');
  });
});

describe('tep normalize, made-up answers', () => {
  const o = (customersOut: string, lat?: string, lon?: string, over: Outage = {}): Outage => ({
    division: 'TEP',
    customersOut,
    bounds: lat === undefined ? {} : { coordLatCenter: lat, coordLngCenter: lon },
    ...over,
  });

  it('counts untagged outages as TEP and planned work (flagged), leaves other divisions out, places AZ points only', () => {
    const answer = {
      AffectedCustomersTEP: '1,267',
      outages: [
        o('1,000', '32.25', '-110.95'),
        o('40', '32.25', '-110.95', { division: undefined }),
        o('7', '31.34', '-110.94', { division: ' tep ' }), // Nogales, Santa Cruz County
        o('5', '32.27', '-107.76'), // Deming, New Mexico
        o('3', '0', '0'),
        o('9', '32.2', '-110.9', { event: 'Planned' }),
        o('11', '32.2', '-110.9', { event: 'Unplanned' }),
        o('50', '35.19', '-114.05', { division: 'USE' }), // Kingman, Mohave County
        o('2', '36.1', '-112.1', { division: 'UEE' }),
      ],
    };
    const snap = normalize(answer, tep);
    expect(snap.customers_out).toBe(1267);
    expect(snap.incidents.map((i) => [i.id, i.fips, i.customers_out])).toEqual([
      ['32.25,-110.95', PIMA, 1000],
      ['32.25,-110.95#2', PIMA, 40],
      ['31.34,-110.94', '04023', 7],
      ['32.27,-107.76', null, 5],
      ['outage', null, 3],
      ['32.2,-110.9', PIMA, 9],
      ['32.2,-110.9#2', PIMA, 11],
    ]);
    expect(snap.incidents.map((i) => i.planned)).toEqual([false, false, false, false, false, true, false]);
    expect(snap.planned_out).toBe(9);
    expect(snap.counties).toEqual([
      { fips: PIMA, customers_out: 1060, customers_served: null },
      { fips: '04023', customers_out: 7, customers_served: null },
    ]);
    expect(snap.unmatched).toEqual(['2 point(s) not placed in a county (8 customers out)']);
    const use = normalize(answer, { ...uns, options: { division: 'use' } });
    expect(use).toMatchObject({ customers_out: 50, counties: [{ fips: '04015', customers_out: 50 }] });
    // a utility the feed splits in divisions reads every one of them, its headlines summed
    const both = normalize(
      { ...answer, AffectedCustomersUSE: '50', AffectedCustomersUEE: '2' },
      {
        ...uns,
        options: { division: ['USE', 'UEE'] },
      },
    );
    expect(both.customers_out).toBe(52);
    expect(both.incidents.map((i) => i.customers_out)).toEqual([50, 2]);
    // an empty list is a quiet county feed
    expect(normalize({ data: { outages: [] } }, tep)).toMatchObject({ customers_out: 0, basis: 'county' });
  });

  it('rejects a division option that is no division code', () => {
    for (const division of ['', 'T-E-P', 7, [], ['USE', 7]]) {
      expect(() => normalize({ outages: [] }, { ...tep, options: { division } })).toThrow(
        expect.objectContaining({ reason: 'config', message: expect.stringMatching(/options\.division/) }),
      );
    }
  });

  it('places an outage by its own coordLat/coordLng before its box, and by them alone when it has no box', () => {
    const own = { customersOut: '4', coordLat: '31.34', coordLng: '-110.94' }; // Nogales, Santa Cruz County
    const snap = normalize(
      {
        AffectedCustomersTEP: '10',
        outages: [own, { ...own, customersOut: '6', bounds: { coordLatCenter: '32.25', coordLngCenter: '-110.95' } }],
      },
      tep,
    );
    expect(snap.incidents.map((i) => [i.fips, i.customers_out])).toEqual([
      ['04023', 4],
      ['04023', 6],
    ]);
    expect(snap.counties).toEqual([{ fips: '04023', customers_out: 10, customers_served: null }]);
  });

  it('reads year-less Phoenix ETRs near the capture, across New Year, and refuses the rest', () => {
    const zone = 'America/Phoenix';
    const jan1 = Date.parse('2027-01-01T05:00:00Z'); // Dec 31, 10 PM MST
    expect(etrOf('Dec 31, 11:30 PM', zone, jan1)).toBe('2027-01-01T06:30:00.000Z');
    expect(etrOf('Jan 1, 2:05 AM', zone, jan1)).toBe('2027-01-01T09:05:00.000Z');
    expect(etrOf('Jan 1, 12:05 am', zone, jan1)).toBe('2027-01-01T07:05:00.000Z');
    // July is MST too: Arizona keeps no daylight time
    expect(etrOf('Jul 4, 12:00 PM', zone, Date.parse('2027-07-04T12:00:00Z'))).toBe('2027-07-04T19:00:00.000Z');
    for (const bad of ['Jun 24, 8:17 PM', 'Pending', 'Foo 3, 1:00 PM', 'Jul 27, 13:00 PM', 'Jan 1, 1:60 AM', '']) {
      expect(etrOf(bad, zone, jan1)).toBeNull();
    }
    expect(etrOf('Jan 1, 2:05 AM', zone, Number.NaN)).toBeNull();
  });

  it('names the field when the answer has an unexpected shape', () => {
    expect(() => normalize({ data: { outages: [{ customersOut: {} }] } }, tep)).toThrow(
      /data\.outages\.0\.customersOut: expected number or string, got object/,
    );
    expect(() => normalize({ outages: [{ bounds: { coordLatCenter: [32] } }] }, tep)).toThrow(
      /outages\.0\.bounds\.coordLatCenter/,
    );
    expect(() => normalize({ outages: [{ bounds: 'x' }] }, tep)).toThrow(/outages\.0\.bounds: expected object/);
    expect(() => normalize({ outages: [], AffectedCustomersTEP: {} }, tep)).toThrow(/AffectedCustomersTEP/);
    expect(() => normalize({ data: [] }, tep)).toThrow(/data: expected object, got array/);
    expect(() => normalize({ AffectedCustomersTEP: '5' }, tep)).toThrow(/outages: expected array, got undefined/);
    expect(() => normalize({ captured_at: 5, answer: { outages: [] } }, tep)).toThrow(/captured_at/);
    expect(() => normalize([], tep)).toThrow(/\(root\): expected object, got array/);
  });
});
