import { describe, expect, it } from 'vitest';
import { quarantine, RECORD_CAP } from './quarantine.ts';
import { cleaningNote } from './clean-snapshot.ts';
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
                  planned: false,
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
              planned: false,
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
            planned: false,
          },
        ];
      }),
      sourceDef(),
    );
    expect([s.customers_served, s.incidents[0].etr, s.incidents[0].started_at]).toEqual([null, null, null]);
  });
});

describe('quarantine: clean text (issue 24)', () => {
  const HOSTILE = 'Har\u0000ris\u0007burg\u001b]0;pwned\u0007\u202e\ufffe\ud800';
  const hostile = () =>
    snap((x) => {
      x.utility = `Util\u0007ity`;
      x.notice = 'Storm\r\nupdate\u001b[2J';
      x.unmatched = [`${HOSTILE} (no county)`];
      x.areas = [
        {
          fips: '12086',
          name: 'N'.repeat(100_000),
          path: ['Miami-Dade', HOSTILE, ...Array.from({ length: 20 }, (_, i) => `L${i}`)],
          customers_out: 5,
          out_display: '5\u0000',
          out_lower: 5,
          out_upper: 5,
          masked: false,
          customers_served: null,
          etr: null,
          bbox: null,
        },
      ];
      x.incidents = ['I'.repeat(5_000), `${'I'.repeat(4_999)}J`, 'ok'].map((id) => ({
        id,
        fips: null,
        customers_out: 1,
        etr: null,
        crew_status: `=cmd\u0007`,
        cause: `Tree\r\non line\u202e`,
        started_at: null,
        lat: null,
        lon: null,
        city: HOSTILE,
        planned: false,
      }));
    });

  it('cleans every text field of every connector’s snapshot and says what it changed', () => {
    const s = quarantine(hostile(), sourceDef());
    expect(s.utility).toBe('Utility');
    expect(s.notice).toBe('Storm\nupdate[2J');
    expect(s.unmatched).toEqual(['Harrisburg]0;pwned\ufffd (no county)']);
    expect(s.areas[0].name).toBe(`${'N'.repeat(199)}…`);
    expect(s.areas[0].path.slice(0, 2)).toEqual(['Miami-Dade', 'Harrisburg]0;pwned\ufffd']);
    expect(s.areas[0].path.length).toBe(12);
    expect(s.areas[0].out_display).toBe('5');
    const [a, b, c] = s.incidents;
    expect(a.id.length).toBe(100);
    expect(new Set([a.id, b.id, c.id]).size).toBe(3);
    expect(c.id).toBe('ok');
    expect([a.crew_status, a.cause, a.city]).toEqual(['=cmd', 'Tree\non line', 'Harrisburg]0;pwned\ufffd']);
    expect(s.text_cleaned).toMatchObject({ bidi: 8, noncharacters: 5, surrogates: 5, capped: 4, longest: 100_000 });
    expect(cleaningNote(s.text_cleaned!)).toMatch(
      /^text cleaned: \d+ control characters removed, 8 bidirectional overrides removed, 5 non-characters removed, 5 lone surrogates replaced, 4 fields cut to their caps \(longest 100,000 characters\)$/,
    );
  });

  it('quotes names cleaned in its messages, and adds nothing to a clean snapshot', () => {
    const bad = hostile();
    bad.areas[0].name = `\u001b[2J${'x'.repeat(1000)}`;
    bad.areas[0].customers_out = -1;
    expect(reason(() => quarantine(bad, sourceDef()))).toMatch(/^implausible_value: area \[2Jx{196}… customers_out/);
    const clean = quarantine(
      snap(() => {}),
      sourceDef(),
    );
    expect('text_cleaned' in clean).toBe(false);
  });
});
