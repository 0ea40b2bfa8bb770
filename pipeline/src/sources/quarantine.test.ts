import { describe, expect, it } from 'vitest';
import { quarantine, RECORD_CAP } from './quarantine.ts';
import { emptySnapshot, type Snapshot } from './snapshot.ts';
import { SourceError } from '../errors.ts';
import { sourceDef } from '../../test/shared-data.ts';

const snap = (over: (s: Snapshot) => void): Snapshot => {
  const s = emptySnapshot('U');
  s.counties = [{ fips: '12086', customers_out: 10, customers_served: 1000 }];
  s.customers_out = 10;
  over(s);
  return s;
};
const reason = (f: () => unknown) => {
  try {
    f();
    return null;
  } catch (err) {
    return err instanceof SourceError ? `${err.reason}: ${err.message}` : String(err);
  }
};

describe('quarantine', () => {
  it.each([1e15, 2 ** 53 + 1, 4294967296, 9223372036854776000, -1, -999999, 1.5, Number.NaN, Infinity])(
    'rejects the snapshot when a county reports %s customers out',
    (v) => {
      expect(
        reason(() =>
          quarantine(
            snap((s) => (s.counties[0].customers_out = v)),
            sourceDef(),
          ),
        ),
      ).toMatch(/^implausible_value: county 12086 customers_out is /);
    },
  );
  it('bounds counts by the registry customers × 1.5, else by an absolute cap', () => {
    const src = sourceDef({ customers: 1000 });
    expect(
      reason(() =>
        quarantine(
          snap((s) => (s.customers_out = 1500)),
          src,
        ),
      ),
    ).toBeNull();
    expect(
      reason(() =>
        quarantine(
          snap((s) => (s.customers_out = 1501)),
          src,
        ),
      ),
    ).toMatch(/customers_out is 1501.*0 to 1,500/);
    expect(
      reason(() =>
        quarantine(
          snap(
            (s) =>
              (s.incidents = [
                {
                  id: 'i',
                  fips: null,
                  customers_out: RECORD_CAP + 1,
                  etr: null,
                  crew_status: null,
                  cause: null,
                  started_at: null,
                  lat: 1,
                  lon: 2,
                  city: null,
                },
              ]),
          ),
          sourceDef(),
        ),
      ),
    ).toMatch(/incident i customers_out/);
    expect(
      reason(() =>
        quarantine(
          snap(
            (s) =>
              (s.counties = [
                { fips: '12086', customers_out: 4_000_000, customers_served: null },
                { fips: '12011', customers_out: 4_000_000, customers_served: null },
              ]),
          ),
          sourceDef({ customers: 5_000_000 }),
        ),
      ),
    ).toMatch(/sum of county customers_out/);
  });
  it('turns an unusable served figure (-1 = unknown) into null and keeps the snapshot', () => {
    const s = quarantine(
      snap((x) => {
        x.customers_served = -1;
        x.counties[0].customers_served = -999999;
      }),
      sourceDef(),
    );
    expect([s.customers_served, s.counties[0].customers_served]).toEqual([null, null]);
  });
  it('drops coordinates outside the globe', () => {
    const s = quarantine(
      snap(
        (x) =>
          (x.incidents = [
            {
              id: 'i',
              fips: null,
              customers_out: 3,
              etr: null,
              crew_status: null,
              cause: null,
              started_at: null,
              lat: 95,
              lon: Number.NaN,
              city: null,
            },
          ]),
      ),
      sourceDef(),
    );
    expect([s.incidents[0].lat, s.incidents[0].lon]).toEqual([null, null]);
  });
  it('makes sentinel times and served totals beyond any utility unknown', () => {
    const s = quarantine(
      snap((x) => {
        x.customers_served = 185_000_000;
        x.incidents = [
          {
            id: 'i',
            fips: null,
            customers_out: 3,
            etr: '+275760-09-13T00:00:00.000Z',
            crew_status: null,
            cause: null,
            started_at: '1970-01-01T00:00:00.000Z',
            lat: 1,
            lon: 2,
            city: null,
          },
        ];
      }),
      sourceDef(),
    );
    expect([s.customers_served, s.incidents[0].etr, s.incidents[0].started_at]).toEqual([null, null, null]);
  });
});
