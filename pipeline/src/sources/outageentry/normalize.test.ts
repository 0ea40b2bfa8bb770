import { afterEach, describe, expect, it, vi } from 'vitest';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';
import { SourceError } from '../../errors.ts';

interface Marker {
  incident_id: string;
  consumers_affected: string;
  lat: string;
  lon: string;
  formatted_ert: string | null;
  estimated_restore_time?: string;
}
// Hand-made in the vendor's shape (shared/data README): it proves parsing, not facts about a utility.
const sample = () => sharedJson('payloads/outageentry/sample.json') as { result: string; '0': { markers: Marker[] } };
const svec = sourceDef({ connector: 'outageentry' as never, utility: 'Shenandoah Valley EC', states: ['VA'] });

afterEach(() => vi.useRealTimers());

describe('outageentry normalize', () => {
  it.skipIf(!hasSharedData)('turns markers into incidents placed by point, summed per county', () => {
    const raw = sample();
    const markers = raw['0'].markers;
    expect(markers.length).toBeGreaterThan(0);
    const total = markers.reduce((s, m) => s + Number(m.consumers_affected), 0);
    const snap = normalize(raw, svec);
    expect(snap.customers_out).toBe(total);
    expect(snap.customers_served).toBeNull();
    expect(snap.basis).toBe('county');
    expect(snap.incidents.map((i) => i.id)).toEqual(markers.map((m) => m.incident_id));
    // 38.494,-78.623 lies in Page County, VA; the 0-customer marker adds no county row
    expect(snap.incidents[0]).toMatchObject({
      fips: '51139',
      customers_out: 5,
      lat: 38.494,
      lon: -78.623,
      etr: '2026-06-29T17:37:00.000Z',
    });
    expect(snap.incidents[1]).toMatchObject({ customers_out: 0, etr: null });
    expect(snap.counties).toEqual([{ fips: '51139', customers_out: total, customers_served: null }]);
    expect(snap.unmatched).toEqual([]);
  });
  it.skipIf(!hasSharedData)('falls back to formatted_ert when estimated_restore_time is absent', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-06-29T12:00:00Z'));
    const raw = sample();
    delete raw['0'].markers[0].estimated_restore_time;
    expect(normalize(raw, svec).incidents[0].etr).toBe('2026-06-29T17:37:00.000Z');
  });
  it('reads every quiet-day form as zero outages at county grade', () => {
    for (const raw of [
      { result: 'true', 0: { markers: [] } },
      { result: 'true', 0: {} },
      { result: 'true', 0: [] },
      { result: 'true' },
    ]) {
      const snap = normalize(raw, svec);
      expect(snap).toMatchObject({ customers_out: 0, counties: [], incidents: [], basis: 'county' });
    }
  });
  it('keeps markers it cannot place in the total and reports them', () => {
    const raw = {
      0: {
        markers: [
          { incident_id: 'A', consumers_affected: '1,204', lat: '', lon: '' },
          { incident_id: 'B', consumers_affected: '7', lat: '0', lon: '0' },
        ],
      },
    };
    const snap = normalize(raw, svec);
    expect(snap.customers_out).toBe(1211);
    expect(snap.counties).toEqual([]);
    expect(snap.unmatched).toEqual(['2 marker(s) without a usable lat/lon (1211 customers out)']);
    expect(snap.basis).toBe('outage_only');
  });
  it('names the field when the answer has an unexpected shape', () => {
    expect(() => normalize({ 0: { markers: [{ lat: {} }] } }, svec)).toThrow(/0\.markers\.0\.lat/);
    expect(() => normalize({ 0: { markers: [] } }, { ...svec, options: { time_zone: 'Nowhere/Else' } })).toThrow(
      SourceError,
    );
  });
});
