import { describe, expect, it } from 'vitest';
import { normalize } from './normalize.ts';
import { queryUrl } from './fetch.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

describe('arcgis normalize', () => {
  it.skipIf(!hasSharedData)(
    'turns PG&E points into incidents with ETR, crew status and cause, placed in counties',
    () => {
      const snap = normalize(
        sharedJson('payloads/pge/calm.json'),
        sourceDef({ connector: 'arcgis', utility: 'PG&E', states: ['CA'] }),
      );
      expect(snap.incidents[0]).toMatchObject({
        id: '288446',
        customers_out: 11,
        cause: 'REPLCE TXFMR',
        crew_status: 'Awaiting Crew',
        etr: '2026-06-24T19:00:00.000Z',
        fips: '06081',
      });
      expect(snap.basis).toBe('outage_only');
      expect(snap.customers_out).toBe(15);
    },
  );
  it.skipIf(!hasSharedData)('reads SCE incidents with the county name field and a US-format ERT', () => {
    const snap = normalize(
      sharedJson('payloads/arcgis/sce.json'),
      sourceDef({ connector: 'arcgis', utility: 'SCE', states: ['CA'] }),
    );
    expect(snap.counties).toEqual([{ fips: '06071', customers_out: 316, customers_served: null }]);
    expect(snap.incidents[0].etr).toBe('2026-06-25T14:00:00.000Z');
  });
  it.skipIf(!hasSharedData)('maps county-layer fields from options (SCE&G 2017, 3-digit FIPS)', () => {
    const attrs = sharedJson('payloads/arcgis/sceg-county-layer-2017.json') as Array<Record<string, unknown>>;
    const raw = { features: attrs.map((attributes) => ({ attributes })) };
    const snap = normalize(
      raw,
      sourceDef({
        connector: 'arcgis',
        states: ['SC'],
        options: {
          mode: 'counties',
          fields: {
            county_fips: 'FIPS',
            county: 'NAME',
            customers_out: 'NO_OUTAGES',
            customers_served: 'NO_CUSTOMERS',
          },
        },
      }),
    );
    expect(snap.unmatched).toEqual([]);
    expect(snap.counties.length).toBe(attrs.length);
    expect(snap.counties.find((c) => c.fips === '45087')?.customers_served).toBe(669);
  });
  it('builds a paged WGS84 query URL', () => {
    const u = new URL(queryUrl('https://x.example/arcgis/rest/services/O/MapServer/5', { page_size: 50 }, 100));
    expect(u.pathname).toBe('/arcgis/rest/services/O/MapServer/5/query');
    expect(Object.fromEntries(u.searchParams)).toMatchObject({
      outSR: '4326',
      resultOffset: '100',
      resultRecordCount: '50',
      f: 'json',
      where: '1=1',
    });
  });
});
