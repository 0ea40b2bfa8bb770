import { describe, expect, it } from 'vitest';
import { normalize } from './normalize.ts';
import { localIso } from './places.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

interface Ev {
  incidentId: string;
  affectedCount: number;
  location: string;
  lat: number;
  lon: number;
  crewStatus: string;
  extension: { OutageAttribute1: string };
}
interface Bundle {
  events: { data: Ev[] };
  counties: { data: Array<{ location: string; affectedCount: number }> };
  accounts: { data: { count: number } };
}
// Real OPPD scraper bundle: `reports` holds the three ServiceAPI answers unchanged (shared/data README).
const oppd = () =>
  (sharedJson('payloads/smartc/oppd-serviceapi-bundle-2026-10-07T1501Z.json') as { reports: Bundle }).reports;
const oppdSource = sourceDef({ connector: 'smartc' as never, utility: 'Omaha Public Power District', states: ['NE'] });
const NE: Record<string, string> = { Cass: '31025', Douglas: '31055', Pawnee: '31133' };
// Hand-made in the WidgetAPI shape (shared/data README): it proves parsing, not facts about MG&E.
const widget = () =>
  sharedJson('payloads/smartc/sample.json') as {
    result: {
      Data: {
        listOutageResultSetTwo: Array<{ CustomerAffected: number }>;
        listTotalOutage: Array<{ TotalCusomerServed: number }>;
      };
    };
  };
const mge = sourceDef({ connector: 'smartc' as never, utility: 'Madison Gas and Electric', states: ['WI'] });

describe('smartc normalize (ServiceAPI, OPPD)', () => {
  it.skipIf(!hasSharedData)(
    'reads the real bundle: events as incidents, the county list view as counties, the account count as served',
    () => {
      const raw = oppd();
      const events = raw.events.data;
      expect(events.length).toBeGreaterThan(0);
      const snap = normalize(raw, oppdSource);
      expect(snap.customers_out).toBe(events.reduce((s, e) => s + e.affectedCount, 0));
      expect(snap.customers_served).toBe(raw.accounts.data.count);
      expect(snap.counties).toEqual(
        raw.counties.data
          .map((c) => ({ fips: NE[c.location], customers_out: c.affectedCount, customers_served: null }))
          .sort((a, b) => a.fips.localeCompare(b.fips)),
      );
      expect(snap.incidents.map((i) => i.id)).toEqual(events.map((e) => e.incidentId));
      // each event's point lies in the county it names
      expect(snap.incidents.map((i) => i.fips)).toEqual(events.map((e) => NE[e.location]));
      // "Wed, 10/07/2026, 11:00 AM" Central daylight time
      expect(snap.incidents[0]).toMatchObject({
        customers_out: 1,
        etr: '2026-10-07T16:00:00.000Z',
        crew_status: 'Onsite',
        started_at: null,
        lat: events[0].lat,
        lon: events[0].lon,
      });
      expect(snap.incidents[2].crew_status).toBeNull(); // "NA"
      expect(snap).toMatchObject({ unmatched: [], basis: 'county' });
    },
  );
  it.skipIf(!hasSharedData)('sums events per county by point when the county list was not fetched', () => {
    const raw = oppd();
    const snap = normalize({ events: raw.events }, oppdSource);
    const byName: Record<string, number> = {};
    for (const e of raw.events.data) byName[NE[e.location]] = (byName[NE[e.location]] ?? 0) + e.affectedCount;
    expect(snap.counties).toEqual(
      Object.entries(byName)
        .sort()
        .map(([fips, out]) => ({ fips, customers_out: out, customers_served: null })),
    );
    expect(snap.customers_served).toBeNull();
  });
  it('places an event without a point by its county name, and reports names it cannot place', () => {
    const snap = normalize(
      {
        events: {
          data: [
            { incidentId: 'A', affectedCount: 7, location: 'Sarpy', lat: null, lon: null },
            { incidentId: 'B', affectedCount: 2, location: 'Atlantis', lat: 0, lon: 0 },
          ],
        },
      },
      oppdSource,
    );
    expect(snap.counties).toEqual([{ fips: '31153', customers_out: 7, customers_served: null }]);
    expect(snap.unmatched).toEqual(['Atlantis', '1 event(s) not placed in a county (2 customers out)']);
    expect(snap.customers_out).toBe(9);
  });
  it('fails on an error envelope instead of reading it as no outages', () => {
    expect(() =>
      normalize({ events: { status: { error: true, message: 'Service unavailable' }, data: null } }, oppdSource),
    ).toThrow(/answered an error: Service unavailable/);
  });
});

describe('smartc normalize (WidgetAPI, MG&E)', () => {
  it.skipIf(!hasSharedData)(
    'places listed outages by point and takes the served total (hand-made sample, parsing only)',
    () => {
      const raw = widget();
      const list = raw.result.Data.listOutageResultSetTwo;
      expect(list.length).toBeGreaterThan(0);
      const snap = normalize(raw, mge);
      expect(snap.customers_out).toBe(list.reduce((s, o) => s + o.CustomerAffected, 0));
      expect(snap.customers_served).toBe(raw.result.Data.listTotalOutage[0].TotalCusomerServed);
      // 43.05,-89.4 is in Dane County, WI; the ETR has no zone and is read as Central time
      expect(snap.counties).toEqual([{ fips: '55025', customers_out: 18, customers_served: null }]);
      expect(snap.incidents).toEqual([
        {
          id: '43.05,-89.4',
          fips: '55025',
          customers_out: 18,
          etr: '2026-06-29T21:00:00.000Z',
          crew_status: null,
          cause: null,
          started_at: null,
          lat: 43.05,
          lon: -89.4,
          city: 'Madison',
          planned: false,
        },
      ]);
      expect(snap.basis).toBe('county');
    },
  );
  it('reads an empty list as nothing out and names the field of a bad answer', () => {
    expect(
      normalize({ result: { Status: 1, Data: { listOutageResultSetTwo: [], listTotalOutage: [] } } }, mge),
    ).toMatchObject({ customers_out: 0, customers_served: null, basis: 'county' });
    expect(() => normalize({ result: { Data: { listOutageResultSetTwo: [{ CustomerAffected: {} }] } } }, mge)).toThrow(
      /listOutageResultSetTwo\.0\.CustomerAffected/,
    );
    expect(() => normalize([], mge)).toThrow(/neither a WidgetAPI answer/);
  });
  it('reads zone-less times in the utility zone and refuses placeholders', () => {
    expect(localIso('2026-01-15T08:00:00.000', 'America/Chicago')).toBe('2026-01-15T14:00:00.000Z');
    expect(localIso('2026-01-15T08:00:00-05:00', 'America/Chicago')).toBe('2026-01-15T13:00:00.000Z');
    for (const bad of ['0001-01-01T00:00:00', '12/31/9999 12:00:00 AM', 'To Be Determined', '', null])
      expect(localIso(bad, 'America/Chicago')).toBeNull();
  });
});
