import { describe, expect, it } from 'vitest';
import { isPlanned, normalize } from './normalize.ts';
import { normalizeReadable } from '../unreadable.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

interface Ev {
  id: number;
  numPeople: number;
  status: string;
  additionalProperties?: Array<{ property: string; value: string[] }>;
}
interface Row {
  name: string;
  customersAffected: number;
  customersServed: number;
}
// Real CenterPoint Houston bundle: events trimmed by the scraper (no points survive), `counties` the raw count answer.
const bundle = () =>
  (
    sharedJson('payloads/datacapable/centerpoint-tx-bundle-2026-10-08T1403Z.json') as {
      reports: { events: Ev[]; counties: Row[] };
    }
  ).reports;
const houston = sourceDef({ connector: 'datacapable' as never, utility: 'CenterPoint Houston', states: ['TX'] });
const TX: Record<string, string> = {
  HARRIS: '48201',
  'FORT BEND': '48157',
  BRAZORIA: '48039',
  GALVESTON: '48167',
  MONTGOMERY: '48339',
  AUSTIN: '48015',
  WALLER: '48473',
  LIBERTY: '48291',
  CHAMBERS: '48071',
  MATAGORDA: '48321',
  COLORADO: '48089',
  WHARTON: '48481',
  GRIMES: '48185',
};

describe('datacapable normalize', () => {
  it.skipIf(!hasSharedData)(
    'places CenterPoint events by AREA_COUNTY, planned ones counted and flagged, takes served from the county answer',
    () => {
      const { events, counties } = bundle();
      const planned = events.filter((e) => e.status === 'Planned Outage');
      expect(planned.length).toBeGreaterThan(0);
      expect(planned.length).toBeLessThan(events.length);
      const outByCounty: Record<string, number> = {};
      for (const e of events)
        outByCounty[e.additionalProperties![0].value[0]] =
          (outByCounty[e.additionalProperties![0].value[0]] ?? 0) + e.numPeople;
      const snap = normalize(bundle(), houston);
      expect(snap.customers_out).toBe(events.reduce((s, e) => s + e.numPeople, 0));
      expect(snap.planned_out).toBe(planned.reduce((s, e) => s + e.numPeople, 0));
      expect(snap.customers_served).toBe(counties.reduce((s, c) => s + c.customersServed, 0));
      expect(snap.incidents.map((i) => i.id)).toEqual(events.map((e) => String(e.id)));
      expect(snap.incidents.map((i) => i.planned)).toEqual(events.map((e) => e.status === 'Planned Outage'));
      const expected = counties.map((c) => ({
        fips: TX[c.name],
        customers_out: outByCounty[c.name] ?? 0,
        customers_served: c.customersServed,
      }));
      expect(snap.counties).toEqual(expected.sort((a, b) => a.fips.localeCompare(b.fips)));
      expect(snap.unmatched).toEqual([]);
      expect(snap.basis).toBe('county');
      expect(snap.incidents[0]).toMatchObject({ crew_status: events[0].status, lat: null, etr: null });
    },
  );
  it.skipIf(!hasSharedData)(
    'takes the counties from the count answer when no event says where it is (planned included there)',
    () => {
      const raw = bundle();
      for (const e of raw.events) delete e.additionalProperties;
      const snap = normalize(raw, houston);
      const answerOut = raw.counties.reduce((s, c) => s + c.customersAffected, 0);
      // the answer's out counts reconcile with every event, planned ones too
      expect(answerOut).toBe(raw.events.reduce((s, e) => s + e.numPeople, 0));
      expect(snap.counties.reduce((s, c) => s + c.customers_out, 0)).toBe(answerOut);
      expect(snap.counties.find((c) => c.fips === '48201')?.customers_out).toBe(
        raw.counties.find((c) => c.name === 'HARRIS')?.customersAffected,
      );
      // and so does customers_out, planned work in progress counted as the answer counts it
      expect(snap.customers_out).toBe(answerOut);
    },
  );
  it.skipIf(!hasSharedData)('places events by point and reads ETR as epoch ms (hand-made sample, parsing only)', () => {
    const events = sharedJson('payloads/datacapable/sample.json') as Array<{ numPeople: number; etrTime: number }>;
    const snap = normalize(events, sourceDef({ connector: 'datacapable' as never, states: ['WA'] }));
    expect(snap.incidents).toEqual([
      {
        id: '1',
        fips: '53033',
        customers_out: 12,
        etr: new Date(events[0].etrTime).toISOString(),
        crew_status: null,
        cause: null,
        started_at: null,
        lat: 47.6,
        lon: -122.3,
        city: 'South Seattle',
        planned: false,
      },
    ]);
    expect(snap.counties).toEqual([{ fips: '53033', customers_out: 12, customers_served: null }]);
    expect(snap).toMatchObject({ customers_out: 12, customers_served: null, basis: 'county' });
    expect(normalize({ events }, sourceDef({ connector: 'datacapable' as never, states: ['WA'] })).incidents).toEqual(
      snap.incidents,
    );
  });
  it('reports names and events it cannot place, without guessing', () => {
    const area = (...names: string[]) => [{ property: 'AREA_COUNTY', value: names }];
    const snap = normalize(
      [
        { id: 1, numPeople: 4, additionalProperties: area('ATLANTIS') },
        { id: 2, numPeople: 6, additionalProperties: area('HARRIS', 'FORT BEND') },
        { id: 3, numPeople: 5, additionalProperties: area('HARRIS') },
        { id: 4, numPeople: 2 },
      ],
      houston,
    );
    expect(snap.customers_out).toBe(17);
    expect(snap.counties).toEqual([{ fips: '48201', customers_out: 5, customers_served: null }]);
    expect(snap.unmatched).toEqual([
      '3 event(s) not placed in a county (12 customers out)',
      'ATLANTIS',
      'HARRIS / FORT BEND',
    ]);
  });
  it('an event whose count cannot be read is never 0: noted and left out, the sum stands on the rest; with none readable the poll fails', () => {
    const area = [{ property: 'AREA_COUNTY', value: ['HARRIS'] }];
    for (const bad of [undefined, null, '', 'unknown', -5]) {
      const events = [
        { id: 1, numPeople: 4, additionalProperties: area },
        { id: 2, numPeople: bad, additionalProperties: area },
      ];
      const snap = normalizeReadable({ normalize }, events, houston);
      expect(snap.customers_out).toBe(events[0].numPeople);
      expect(snap.incidents.map((i) => [i.id, i.customers_out])).toEqual([['1', 4]]);
      expect(snap.counties.map((c) => c.customers_out)).toEqual([4]);
      expect(snap.unreadable).toEqual([expect.stringMatching(/^event 2: numPeople/)]);
      const none = events.map((e) => ({ ...e, numPeople: bad }));
      expect(() => normalizeReadable({ normalize }, none, houston)).toThrow(
        /no record's numPeople can be read.*event 1: numPeople/,
      );
    }
    // A planned event counts, so its count is read like any other: unreadable, it is noted and left out.
    const planned = { id: 3, status: 'Planned Outage', numPeople: 'unknown', additionalProperties: area };
    const withPlanned = normalize([{ id: 1, numPeople: 4, additionalProperties: area }, planned], houston);
    expect(withPlanned.unreadable).toEqual([expect.stringMatching(/^event 3: numPeople/)]);
    expect(withPlanned).toMatchObject({ customers_out: 4, planned_out: 0 });
    // A planned event that says where it is places the others by event, not from the count answer.
    const placedByPlanned = normalize(
      {
        events: [
          { id: 1, numPeople: 4 },
          { ...planned, numPeople: 2 },
        ],
        counties: [{ type: 'COUNTY', name: 'HARRIS', customersAffected: 6, customersServed: 100 }],
      },
      houston,
    );
    expect(placedByPlanned.counties).toEqual([{ fips: '48201', customers_out: 2, customers_served: 100 }]);
    expect(placedByPlanned).toMatchObject({ customers_out: 6, planned_out: 2 });
    expect(placedByPlanned.incidents.map((i) => i.planned)).toEqual([false, true]);
  });
  it('a county row read for its count and unreadable is left out and noted, never a county at 0', () => {
    const snap = normalize(
      {
        events: [{ id: 1, numPeople: 9 }],
        counties: [
          { type: 'COUNTY', name: 'HARRIS', customersAffected: 9, customersServed: 100 },
          { type: 'COUNTY', name: 'FORT BEND', customersAffected: 'N/A', customersServed: 50 },
        ],
      },
      houston,
    );
    expect(snap.counties).toEqual([{ fips: '48201', customers_out: 9, customers_served: 100 }]);
    expect(snap.unreadable).toEqual(['county FORT BEND: customersAffected "N/A"']);
    expect(snap.customers_out).toBe(9);
  });
  it('tells planned from unplanned by status, type, title or cause', () => {
    const e = (over: object) => ({ id: 1, ...over });
    expect(
      [{ status: 'Planned Outage' }, { type: 'PLANNED_OUTAGE' }, { cause: 'Planned maintenance' }].every((o) =>
        isPlanned(e(o)),
      ),
    ).toBe(true);
    expect([{ status: 'Unplanned' }, { status: 'Crew Assessing' }, {}].some((o) => isPlanned(e(o)))).toBe(false);
  });
  it('names the field when the answer has an unexpected shape', () => {
    expect(() => normalize([{ id: 1, numPeople: {} }], houston)).toThrow(/events\.0\.numPeople/);
    expect(() => normalize({ events: [], counties: [{ customersAffected: 1 }] }, houston)).toThrow(/counties\.0\.name/);
  });
});
