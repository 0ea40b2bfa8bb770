// Anaheim normalize, on the peer's golden fixture and on small hand-built answers.
// Tested on the peer's edited sample only: values rounded/edited; field names as the peer's adapter reads them.
import { describe, expect, it } from 'vitest';
import { etrOf, normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

interface Feature {
  properties: { ID?: string | number | null; ETR?: string | null };
  geometry: { coordinates: number[] } | null;
}
const sample = () => sharedJson('payloads/anaheim/sample.json') as { features: Feature[] };
const anaheim = sourceDef({ connector: 'anaheim' as never, utility: 'Anaheim Public Utilities', states: ['CA'] });
const meter = (id: string | number | null, lon: number, lat: number, etr?: string): Feature => ({
  properties: { ID: id, ...(etr === undefined ? {} : { ETR: etr }) },
  geometry: { coordinates: [lon, lat] },
});

describe.skipIf(!hasSharedData)('anaheim normalize (peer sample)', () => {
  it('makes one incident per ID whose customers are its meters, placed in Orange County', () => {
    const raw = sample();
    const meters: Record<string, number> = {};
    for (const f of raw.features) meters[String(f.properties.ID)] = (meters[String(f.properties.ID)] ?? 0) + 1;
    const snap = normalize(raw, anaheim);
    expect(snap.incidents).toHaveLength(Object.keys(meters).length);
    expect(snap.customers_out).toBe(raw.features.filter((f) => f.properties.ID).length);
    expect(snap.incidents.map((i) => [i.id, i.customers_out])).toEqual(Object.entries(meters));
    const [lon, lat] = raw.features[0].geometry!.coordinates;
    expect(snap.incidents[0]).toEqual({
      id: 'A1',
      fips: '06059',
      customers_out: meters.A1,
      // 13:00 Pacific daylight time
      etr: '2026-06-29T20:00:00.000Z',
      crew_status: null,
      cause: null,
      started_at: null,
      lat,
      lon,
      city: null,
      planned: false,
    });
    expect(snap.counties).toEqual([{ fips: '06059', customers_out: snap.customers_out, customers_served: null }]);
    expect(snap.counties.every((c) => c.fips.startsWith('06'))).toBe(true);
    expect(snap).toMatchObject({ customers_served: null, unmatched: [], basis: 'county', unit: 'customers' });
  });
});

describe('anaheim normalize', () => {
  it('groups by ID, takes the first point and the first ETR given, and reports what it cannot place', () => {
    const snap = normalize(
      {
        type: 'FeatureCollection',
        features: [
          meter(7, -117.9, 33.84),
          meter('B2', -117.75, 33.85, '2026-12-01T08:30:00'),
          meter(7, -117.91, 33.83, '2026-12-01T16:00:00Z'),
          meter(7, -117.92, 33.82, '2026-12-01T09:00:00'),
          meter('AZ', -111.9, 33.45),
          meter(null, -117.9, 33.84),
          { properties: {}, geometry: null },
          meter('B2', -117.76, 33.86, 'soon'),
        ],
      },
      anaheim,
    );
    expect(snap.incidents.map((i) => [i.id, i.customers_out, i.fips, i.etr, i.lon])).toEqual([
      ['7', 3, '06059', '2026-12-01T16:00:00.000Z', -117.9],
      // 08:30 Pacific standard time
      ['B2', 2, '06059', '2026-12-01T16:30:00.000Z', -117.75],
      // a point outside the row's states (Phoenix) is placed nowhere
      ['AZ', 1, null, null, -111.9],
    ]);
    expect(snap.customers_out).toBe(6);
    expect(snap.counties).toEqual([{ fips: '06059', customers_out: 5, customers_served: null }]);
    expect(snap.unmatched).toEqual([
      '1 incident(s) not placed in a county (1 customers out)',
      '2 meter point(s) without an incident ID (not counted)',
    ]);
  });

  it('reads ETRs as Pacific wall-clock time unless they carry an offset; other text is no time', () => {
    const zone = 'America/Los_Angeles';
    expect(etrOf('2026-01-15T13:00:00', zone)).toBe('2026-01-15T21:00:00.000Z');
    expect(etrOf('2026-07-15 13:00:00.000', zone)).toBe('2026-07-15T20:00:00.000Z');
    expect(etrOf('2026-07-15T13:00:00-07:00', zone)).toBe('2026-07-15T20:00:00.000Z');
    for (const bad of ['TBD', '7/15/2026 1:00 PM', '2026-13-40T99:00:00']) expect(etrOf(bad, zone)).toBeNull();
  });

  it('answers an empty outage list with no incidents', () => {
    expect(normalize({ type: 'FeatureCollection', features: [] }, anaheim)).toMatchObject({
      customers_out: 0,
      incidents: [],
      counties: [],
      basis: 'county',
    });
  });

  it('names the field when the answer has an unexpected shape', () => {
    expect(() => normalize({ type: 'FeatureCollection' }, anaheim)).toThrow(/features: expected array, got undefined/);
    expect(() => normalize({ features: [meter(1, 0, 0), { properties: { ID: {} } }] }, anaheim)).toThrow(
      /features\.1\.properties\.ID: expected number or string, got object/,
    );
    expect(() =>
      normalize({ features: [{ properties: { ID: 1 }, geometry: { coordinates: ['x'] } }] }, anaheim),
    ).toThrow(/features\.0\.geometry\.coordinates/);
  });
});
