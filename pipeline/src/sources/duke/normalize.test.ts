// Duke normalize on the real captures: Duke Energy Florida (6–8 Feb 2020, one file and the 174-version sequence) and
// Duke Energy Carolinas during Dorian, all scraper-flattened (summary_* keys, undone by recorded.ts), and outage-atlas's
// trimmed wire-form bundle. Expected county counts are computed here from each payload with the test's own name
// lookup (us-atlas county names), never with the connector's matchCounty.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { normalize } from './normalize.ts';
import { recordedRaw } from './recorded.ts';
import { normalizeReadable } from '../unreadable.ts';
import { hasSharedData, sharedJson, sharedPath, sourceDef } from '../../../test/shared-data.ts';

type Flat = Record<string, unknown> & { state: string; countyName: string; customersServed: number | null };
interface Expected {
  counties: Map<string, { out: number; served: number | null }>;
  out: number;
  served: number;
  unplaced: string[];
}

const STATE_FIPS: Record<string, string> = { FL: '12', NC: '37', SC: '45' };
/** `{state fips}|{lower-case name}` → county FIPS, from us-atlas's own names. */
const atlas = (() => {
  const file = createRequire(import.meta.url).resolve('us-atlas/counties-10m.json');
  const topo = JSON.parse(readFileSync(file, 'utf8')) as {
    objects: { counties: { geometries: Array<{ id: string; properties: { name: string } }> } };
  };
  return new Map(
    topo.objects.counties.geometries.map((g) => [`${g.id.slice(0, 2)}|${g.properties.name.toLowerCase()}`, g.id]),
  );
})();

/** The counties a flattened Duke list describes: summary_maxCustomersAffected out (null: 0), customersServed served. */
function expectedOf(rows: Array<{ state: string; countyName: string; out: unknown; served: unknown }>): Expected {
  const e: Expected = { counties: new Map(), out: 0, served: 0, unplaced: [] };
  for (const r of rows) {
    const out = (r.out as number | null) ?? 0;
    e.out += out;
    e.served += (r.served as number | null) ?? 0;
    const fips = atlas.get(`${STATE_FIPS[r.state]}|${r.countyName.toLowerCase()}`);
    if (fips) e.counties.set(fips, { out, served: r.served as number | null });
    else e.unplaced.push(r.countyName);
  }
  return e;
}
const flatRows = (doc: Flat[]) =>
  doc.map((r) => ({ ...r, out: r.summary_maxCustomersAffected, served: r.customersServed }));

const florida = sourceDef({ connector: 'duke' as never, utility: 'Duke Energy Florida', states: ['FL'] });
const carolinas = sourceDef({ connector: 'duke' as never, utility: 'Duke Energy Carolinas', states: ['NC', 'SC'] });

function expectCounties(snap: ReturnType<typeof normalize>, e: Expected): void {
  expect(new Map(snap.counties.map((c) => [c.fips, { out: c.customers_out, served: c.customers_served }]))).toEqual(
    e.counties,
  );
  expect(snap.customers_out).toBe(e.out);
  expect(snap.customers_served).toBe(e.served);
  expect(snap).toMatchObject({ basis: 'county', unit: 'customers', incidents: [], areas: [] });
}

describe.skipIf(!hasSharedData)('duke normalize, the real captures', () => {
  it('Florida at the 7 Feb 2020 peak: every county row, the General office row served but in no county', () => {
    const doc = sharedJson('payloads/duke/duke-energy-florida-counties-2020-02-07T0550Z.json') as Flat[];
    const e = expectedOf(flatRows(doc));
    expect(e.unplaced).toEqual(['General office']); // 3 customers served, none out
    const snap = normalize(recordedRaw(doc), florida);
    expectCounties(snap, e);
    expect(snap.unmatched).toEqual([]);
    expect([snap.customers_out, snap.counties.length, snap.customers_served]).toEqual([25_391, 35, 1_838_222]);
  });

  it.each([
    ['1130Z', 120_193],
    ['2100Z', 40_559],
  ])('Carolinas during Dorian (%s): NC and SC counties, each in its own state', (at, total) => {
    const doc = sharedJson(`payloads/duke/duke-energy-carolinas-counties-dorian-2019-09-06T${at}.json`) as Flat[];
    const e = expectedOf(flatRows(doc));
    expect(e.unplaced).toEqual([]);
    const snap = normalize(recordedRaw(doc), carolinas);
    expectCounties(snap, e);
    const byState = (p: string) => snap.counties.filter((c) => c.fips.startsWith(p)).length;
    expect([byState('37'), byState('45'), snap.customers_out]).toEqual([83, 30, total]);
  });

  it("outage-atlas's wire-form bundle: areaOfInterestSummary read as Duke sends it", () => {
    const doc = sharedJson('payloads/duke/carolinas.json') as {
      counties: { data: Array<Flat & { areaOfInterestSummary: { maxCustomersAffected: number | null } }> };
    };
    const rows = doc.counties.data.map((r) => ({
      ...r,
      out: r.areaOfInterestSummary.maxCustomersAffected,
      served: r.customersServed,
    }));
    const snap = normalize(recordedRaw(doc), carolinas);
    expectCounties(snap, expectedOf(rows));
  });

  it('replays the Florida sequence version by version: totals are each version’s own sums, the peak is found', () => {
    const dir = 'sequences/duke-florida-counties-feb-2020';
    const index = parse(readFileSync(sharedPath(`${dir}/index.csv`)), { columns: true }) as Array<
      Record<string, string>
    >;
    expect(index).toHaveLength(174);
    let peak = { out: -1, at: '' };
    for (const v of index) {
      const doc = sharedJson(`${dir}/${v.file}`) as Flat[];
      const e = expectedOf(flatRows(doc));
      const snap = normalize(recordedRaw(doc), florida);
      expect(snap.customers_out, v.file).toBe(e.out);
      expect(
        snap.counties.reduce((s, c) => s + c.customers_out, 0),
        v.file,
      ).toBe(e.out);
      expect(snap.counties.length, v.file).toBe(e.counties.size);
      if (e.out > peak.out) peak = { out: e.out, at: v.commit_time_utc };
    }
    expect(peak).toEqual({ out: 25_391, at: '2020-02-07T05:50:39Z' });
  });
});

describe('duke normalize, made-up answers', () => {
  const row = (over: Record<string, unknown>) => ({
    areaOfInterestName: 'NC - Wake',
    state: 'NC',
    countyName: 'Wake',
    customersServed: 1000,
    areaOfInterestSummary: { maxCustomersAffected: 12 },
    ...over,
  });

  it("reads Duke's overrides first, a state from the display name, and a bare county in the row's states", () => {
    const snap = normalize(
      {
        data: [
          row({ customersAffectedOverride: 40, customersServedOverride: '1,100' }),
          row({ state: null, countyName: null, areaOfInterestName: 'SC - York', customersServed: 500 }),
          row({ state: '', areaOfInterestName: 'Durham', countyName: 'Durham', areaOfInterestSummary: null }),
        ],
        errorMessages: [],
      },
      carolinas,
    );
    expect(snap.counties).toEqual([
      { fips: '37063', customers_out: 0, customers_served: 1000 },
      { fips: '37183', customers_out: 40, customers_served: 1100 },
      { fips: '45091', customers_out: 12, customers_served: 500 },
    ]);
    expect([snap.customers_out, snap.customers_served]).toEqual([52, 2600]);
  });

  it('lists unplaced rows; served is unknown when any row lacks it', () => {
    const snap = normalize(
      {
        data: [
          row({ state: 'NC', countyName: 'Atlantis', areaOfInterestName: 'NC - Atlantis' }),
          row({ customersServed: null }),
        ],
      },
      carolinas,
    );
    expect(snap.unmatched).toEqual(['1 county row(s) not placed (12 customers out)', 'NC - Atlantis']);
    expect([snap.customers_out, snap.customers_served]).toEqual([24, null]);
    expect(normalize({ data: [] }, carolinas)).toMatchObject({
      customers_out: 0,
      customers_served: null,
      counties: [],
    });
  });

  it('a county whose count cannot be read is never 0: noted and left out, the sum stands on the rest; with none readable the poll fails', () => {
    const active = { activeEventsCount: 3, firstReportedDate: '2026-06-24T13:49:40.000+00:00' };
    for (const bad of [undefined, null, '', 'n/a', -5]) {
      const summary = { ...active, maxCustomersAffected: bad };
      const data = [row({}), row({ areaOfInterestSummary: summary, areaOfInterestName: 'NC - Odd' })];
      const snap = normalizeReadable({ normalize }, { data }, carolinas);
      expect(snap.customers_out).toBe(data[0].areaOfInterestSummary.maxCustomersAffected);
      expect(snap.counties.map((c) => c.customers_out)).toEqual([data[0].areaOfInterestSummary.maxCustomersAffected]);
      expect(snap.unreadable).toEqual([expect.stringMatching(/^county NC - Odd: maxCustomersAffected/)]);
      const none = [
        row({ areaOfInterestSummary: summary }),
        row({ areaOfInterestSummary: summary, areaOfInterestName: 'NC - Odd' }),
      ];
      expect(() => normalizeReadable({ normalize }, { data: none }, carolinas)).toThrow(
        /no record's maxCustomersAffected can be read.*county NC - Wake: maxCustomersAffected/,
      );
    }
    expect(() =>
      normalizeReadable({ normalize }, { data: [row({ customersAffectedOverride: 'many' })] }, carolinas),
    ).toThrow(/no record's customersAffectedOverride can be read.*customersAffectedOverride "many"/);
    // A quiet county, as Duke sends one: every summary field null (or no summary) is none out.
    const nulls = {
      areaOfInterestId: 465,
      maxCustomersAffected: null,
      activeEventsCount: null,
      firstReportedDate: null,
    };
    const snap = normalize(
      { data: [row({ areaOfInterestSummary: nulls }), row({ areaOfInterestSummary: null })] },
      carolinas,
    );
    expect(snap.counties).toEqual([{ fips: '37183', customers_out: 0, customers_served: 2000 }]);
    expect(snap.unreadable).toEqual([]);
  });

  it("names the field of an unexpected shape, and passes on Duke's own error messages", () => {
    expect(() => normalize({ data: [row({ customersServed: {} })] }, carolinas)).toThrow(/data\.0\.customersServed/);
    expect(() =>
      normalize({ data: [row({ areaOfInterestSummary: { maxCustomersAffected: [] } })] }, carolinas),
    ).toThrow(/data\.0\.areaOfInterestSummary\.maxCustomersAffected/);
    expect(() => normalize({ data: {} }, carolinas)).toThrow(/data: expected array, got object/);
    expect(() => normalize({ data: null, errorMessages: ['jurisdiction not found'] }, carolinas)).toThrow(
      /has no data: \["jurisdiction not found"\]/,
    );
  });

  it('recordedRaw folds summary_* back and leaves a wire answer alone', () => {
    const wire = { data: [row({})], errorMessages: [] };
    expect(recordedRaw(wire)).toBe(wire);
    expect(
      recordedRaw([{ countyName: 'Wake', summary_maxCustomersAffected: 3, summary_activeEventsCount: 1 }]),
    ).toEqual({
      data: [{ countyName: 'Wake', areaOfInterestSummary: { maxCustomersAffected: 3, activeEventsCount: 1 } }],
      errorMessages: [],
    });
  });
});
