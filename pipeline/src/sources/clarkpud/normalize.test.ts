// Clark PUD normalize against the peer's sample and small made-up payloads. Tested on the peer's edited sample only:
// values rounded/edited; field names as the peer's adapter reads them (no real Clark PUD answer was recorded).
import { describe, expect, it } from 'vitest';
import { etrOf, normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

interface Outage {
  key: string;
  affectedCustomerCount: number;
  estimatedRestoration: string;
  lat: number;
  lng: number;
}
interface Data {
  totalAffectedCustomerCount: number;
  openOutages: Outage[];
}
// The peer's golden fixture wraps the JSONP argument as {ok, result}: `result` is the raw fetch returns.
const sample = () => (sharedJson('payloads/clark-pud/sample.json') as { ok: boolean; result: Data }).result;
const clark = sourceDef({ connector: 'clarkpud' as never, utility: 'Clark Public Utilities', states: ['WA'] });
const CLARK = '53011';
const outage = (key: string, n: number, lat: number | null, lng: number | null, etr: string | null = null) => ({
  key,
  affectedCustomerCount: n,
  estimatedRestoration: etr,
  lat,
  lng,
});

describe.skipIf(!hasSharedData)('clarkpud normalize, the peer sample', () => {
  it('takes customers out from the feed total and places each outage by its point in Clark County', () => {
    const raw = sample();
    expect(raw.openOutages.length).toBeGreaterThan(0);
    const sum = raw.openOutages.reduce((s, o) => s + o.affectedCustomerCount, 0);
    // the feed's own numbers: its headline is the sum of its outages
    expect(sum).toBe(raw.totalAffectedCustomerCount);
    const snap = normalize(raw, clark);
    expect(snap.customers_out).toBe(raw.totalAffectedCustomerCount);
    expect(snap).toMatchObject({ customers_served: null, basis: 'county', unit: 'customers', unmatched: [] });
    expect(snap.counties).toEqual([{ fips: CLARK, customers_out: sum, customers_served: null }]);
    expect(snap.counties.every((c) => c.fips.startsWith('53'))).toBe(true);
    expect(snap.incidents.map((i) => i.id)).toEqual(raw.openOutages.map((o) => o.key));
  });

  it('reads one outage: id, customers, county, point and the ETR with its Pacific offset', () => {
    const raw = sample();
    expect(raw.openOutages[0]).toMatchObject({ key: '41270', estimatedRestoration: '2026-06-24T22:00:00-07:00' });
    expect(normalize(raw, clark).incidents[0]).toEqual({
      id: '41270',
      fips: CLARK,
      customers_out: raw.openOutages[0].affectedCustomerCount,
      etr: '2026-06-25T05:00:00.000Z',
      crew_status: null,
      cause: null,
      started_at: null,
      lat: raw.openOutages[0].lat,
      lon: raw.openOutages[0].lng,
      city: null,
      planned: false,
    });
  });
});

describe('clarkpud normalize, made-up payloads', () => {
  it('keeps points outside Washington or without a place out of the counties and reports them', () => {
    const snap = normalize(
      {
        totalAffectedCustomerCount: 40,
        openOutages: [
          outage('1', 10, 45.65, -122.6), // Vancouver: Clark County
          outage('2', 7, 45.52, -122.68), // Portland, OR: across the river, not Clark PUD's state
          outage('3', 3, null, null),
          outage('4', 20, 45.7, -122.55),
        ],
      },
      clark,
    );
    expect(snap.counties).toEqual([{ fips: CLARK, customers_out: 30, customers_served: null }]);
    expect(snap.incidents.map((i) => i.fips)).toEqual([CLARK, null, null, CLARK]);
    expect(snap.incidents[1]).toMatchObject({ lat: 45.52, lon: -122.68 });
    expect(snap.unmatched).toEqual(['2 outage(s) not placed in a county (10 customers out)']);
    expect(snap.customers_out).toBe(40);
  });

  it('sums the outages when the total is missing; an empty list is county grade, unplaced outages are not', () => {
    const data = { openOutages: [outage('1', 4, null, null), outage('2', '1,002' as never, 0, 0)] };
    expect(normalize(data, clark)).toMatchObject({ customers_out: 1006, basis: 'outage_only', counties: [] });
    expect(normalize({ totalAffectedCustomerCount: 0, openOutages: [] }, clark)).toMatchObject({
      customers_out: 0,
      basis: 'county',
      incidents: [],
    });
  });

  it('reads ETRs with an offset as written and without one in Pacific time', () => {
    const zone = 'America/Los_Angeles';
    expect(etrOf('2026-01-10T08:30:00Z', zone)).toBe('2026-01-10T08:30:00.000Z');
    expect(etrOf('2026-01-10T08:30:00', zone)).toBe('2026-01-10T16:30:00.000Z');
    expect(etrOf('2026-07-10 08:30', zone)).toBe('2026-07-10T15:30:00.000Z');
    expect(etrOf(1_780_000_000_000, zone)).toBe(new Date(1_780_000_000_000).toISOString());
    for (const none of ['', '  ', 'Assessing', null, undefined]) expect(etrOf(none, zone)).toBeNull();
  });

  it('names the field when the payload has an unexpected shape', () => {
    expect(() => normalize({ openOutages: {} }, clark)).toThrow(/openOutages: expected array, got object/);
    expect(() => normalize({ openOutages: [{ affectedCustomerCount: 1 }] }, clark)).toThrow(/openOutages\.0\.key/);
    expect(() => normalize({ openOutages: [{ key: 1, lat: '45.6' }] }, clark)).toThrow(/openOutages\.0\.lat/);
    expect(() => normalize({ totalAffectedCustomerCount: {}, openOutages: [] }, clark)).toThrow(
      /totalAffectedCustomerCount/,
    );
    // the fixture's {ok, result} wrapper is not the raw
    expect(() => normalize({ ok: true, result: { openOutages: [] } }, clark)).toThrow(/openOutages/);
  });
});
