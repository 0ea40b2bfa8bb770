// MLGW normalize. Tested on the peer's edited sample only (payloads/mlgw/sample.json): values rounded/edited, field
// names as the peer's adapter reads them. The other answers here are made up from it.
import { describe, expect, it } from 'vitest';
import { etrOf, normalize, pointOf } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

interface Feature {
  type: 'Feature';
  properties: { OUTAGE_NO?: string; IMPACT?: string; CUR_CUST_AFF?: number | string; EST_REPAIR_TIME?: string };
  geometry: { type: string; coordinates: unknown } | null;
}
interface Answer {
  type: 'FeatureCollection';
  features: Feature[];
}
const sample = () => sharedJson('payloads/mlgw/sample.json') as Answer;
const mlgw = sourceDef({ connector: 'mlgw' as never, utility: 'Memphis Light, Gas & Water', states: ['TN'] });
const SHELBY = '47157';
const feature = (no: string, out: number | string, geometry: Feature['geometry'], etr = ''): Feature => ({
  type: 'Feature',
  properties: { OUTAGE_NO: no, IMPACT: 'A Few Blocks', CUR_CUST_AFF: out, EST_REPAIR_TIME: etr },
  geometry,
});
const point = (lon: number, lat: number) => ({ type: 'Point', coordinates: [lon, lat] });
const answer = (...features: Feature[]): Answer => ({ type: 'FeatureCollection', features });

describe.skipIf(!hasSharedData)('mlgw normalize, the peer sample', () => {
  it('sums the features as customers_out and places every point in Shelby County', () => {
    const raw = sample();
    const total = raw.features.reduce((s, f) => s + Number(f.properties.CUR_CUST_AFF), 0);
    expect(raw.features.length).toBeGreaterThan(0);
    // every sample point lies in Memphis (both within the city limits, well inside Shelby County)
    expect(raw.features.every((f) => f.geometry?.type === 'Point')).toBe(true);
    const snap = normalize(raw, mlgw);
    expect(snap.customers_out).toBe(total);
    expect(snap.incidents).toHaveLength(raw.features.length);
    expect(snap.incidents.map((i) => i.id)).toEqual(raw.features.map((f) => f.properties.OUTAGE_NO));
    expect(snap.counties).toEqual([{ fips: SHELBY, customers_out: total, customers_served: null }]);
    expect(snap.counties.every((c) => c.fips.startsWith('47'))).toBe(true);
    expect(snap).toMatchObject({
      customers_served: null,
      unmatched: [],
      notice: null,
      areas: [],
      basis: 'county',
      unit: 'customers',
    });
  });

  it('reads each outage: OUTAGE_NO, CUR_CUST_AFF, the point, EST_REPAIR_TIME as Memphis wall clock', () => {
    const snap = normalize(sample(), mlgw);
    const none = { crew_status: null, cause: null, started_at: null, city: null, planned: false };
    // 06/24/2026 08:00:00 PM is CDT (UTC-5)
    expect(snap.incidents).toEqual([
      { id: '1', fips: SHELBY, customers_out: 141, etr: '2026-06-25T01:00:00.000Z', lat: 35.14, lon: -90.05, ...none },
      { id: '2', fips: SHELBY, customers_out: 36, etr: null, lat: 35.1, lon: -89.97, ...none },
    ]);
  });
});

describe('mlgw normalize, made-up answers', () => {
  it('leaves points outside Tennessee, off the shapes or without geometry unplaced, counted in the total', () => {
    const snap = normalize(
      answer(
        feature('10', 40, point(-90.05, 35.14)), // Memphis: Shelby, TN
        feature('11', 7, point(-90.01, 34.96)), // Southaven: DeSoto, MS
        feature('12', 5, point(-90.2, 35.1)), // West Memphis side: Crittenden, AR
        feature('13', 3, null),
        feature('14', 2, point(0, 0)),
        feature('15', 0, null),
      ),
      mlgw,
    );
    expect(snap.customers_out).toBe(57);
    expect(snap.counties).toEqual([{ fips: SHELBY, customers_out: 40, customers_served: null }]);
    expect(snap.incidents.map((i) => i.fips)).toEqual([SHELBY, null, null, null, null, null]);
    expect(snap.incidents[3]).toMatchObject({ id: '13', lat: null, lon: null });
    expect(snap.unmatched).toEqual(['4 point(s) not placed in a county (17 customers out)']);
    expect(snap.basis).toBe('county');
  });

  it('places a polygon by the average of its outer ring, the closing vertex counted once', () => {
    const ring = [
      [-89.82, 35.08],
      [-89.78, 35.08],
      [-89.78, 35.1],
      [-89.82, 35.1],
      [-89.82, 35.08],
    ];
    const poly = { type: 'Polygon', coordinates: [ring, [[0, 0]]] };
    const centre = [expect.closeTo(-89.8, 10), expect.closeTo(35.09, 10)];
    expect(pointOf(poly as never)).toEqual(centre);
    expect(pointOf({ type: 'MultiPolygon', coordinates: [[ring]] } as never)).toEqual(centre);
    expect(pointOf({ type: 'Polygon', coordinates: [] } as never)).toBeNull();
    expect(pointOf({ type: 'LineString', coordinates: ring } as never)).toBeNull();
    const snap = normalize(answer(feature('20', '1,204', poly)), mlgw);
    expect(snap.incidents[0]).toMatchObject({ id: '20', fips: SHELBY, customers_out: 1204, lon: centre[0] });
    expect(snap.incidents[0].lat).toEqual(centre[1]);
    expect(snap.counties).toEqual([{ fips: SHELBY, customers_out: 1204, customers_served: null }]);
  });

  it('counts a repeated OUTAGE_NO once (its largest count) and stands the point in for a missing one', () => {
    const lone = feature('x', 1, point(-90.05, 35.14));
    delete lone.properties.OUTAGE_NO;
    const snap = normalize(answer(feature('7', 1, null), feature('7', 2, null), lone), mlgw);
    expect(snap.incidents.map((i) => [i.id, i.customers_out])).toEqual([
      ['7', 2],
      ['35.14,-90.05', 1],
    ]);
    expect(snap.customers_out).toBe(3);
  });

  it('is outage_only when no point is placed, county grade for an empty answer', () => {
    expect(normalize(answer(feature('1', 10, null)), mlgw)).toMatchObject({
      basis: 'outage_only',
      counties: [],
      customers_out: 10,
    });
    expect(normalize(answer(), mlgw)).toMatchObject({ basis: 'county', customers_out: 0, incidents: [] });
  });

  it('reads ETRs as Central wall clock; blanks, placeholders and junk are none', () => {
    const z = 'America/Chicago';
    expect(etrOf('01/15/2026 08:05:00 AM', z)).toBe('2026-01-15T14:05:00.000Z'); // CST, UTC-6
    expect(etrOf('06/24/2026 12:30:15 AM', z)).toBe('2026-06-24T05:30:15.000Z'); // CDT, UTC-5
    expect(etrOf('6/4/2026 12:00 PM', z)).toBe('2026-06-04T17:00:00.000Z');
    expect(etrOf('06/24/2026 08:00:00 PM', 'America/New_York')).toBe('2026-06-25T00:00:00.000Z');
    for (const none of ['', null, undefined, 'TBD', '01/01/1900 12:00:00 AM', '06/24/2026 13:00:00 PM', '2026-06-24'])
      expect(etrOf(none, z)).toBeNull();
    const eastern = sourceDef({ ...mlgw, options: { time_zone: 'America/New_York' } });
    const raw = answer(feature('1', 1, null, '06/24/2026 08:00:00 PM'));
    expect(normalize(raw, eastern).incidents[0].etr).toBe('2026-06-25T00:00:00.000Z');
    expect(normalize(raw, mlgw).incidents[0].etr).toBe('2026-06-25T01:00:00.000Z');
  });

  it('names the field when the answer has an unexpected shape', () => {
    expect(() => normalize({ type: 'FeatureCollection' }, mlgw)).toThrow(/features: expected array, got undefined/);
    expect(() => normalize(answer({ geometry: null } as never), mlgw)).toThrow(
      /features\.0\.properties: expected object, got undefined/,
    );
    expect(() => normalize(answer(feature('1', {} as never, null)), mlgw)).toThrow(
      /features\.0\.properties\.CUR_CUST_AFF: expected number or string, got object/,
    );
    expect(() => normalize(answer(feature('1', 1, null, 5 as never)), mlgw)).toThrow(
      /features\.0\.properties\.EST_REPAIR_TIME: expected string/,
    );
    expect(() => normalize(answer(feature('1', 1, { type: 'Point', coordinates: ['-90', '35'] })), mlgw)).toThrow(
      /features\.0\.geometry\.coordinates: expected \[lon, lat\] numbers, got array/,
    );
    const ring = [[-90, 35], [-89.9, 35], null];
    expect(() => normalize(answer(feature('1', 1, { type: 'Polygon', coordinates: [ring] })), mlgw)).toThrow(
      /features\.0\.geometry\.coordinates\.0\.2: expected \[lon, lat\] numbers, got null/,
    );
  });
});
