import { describe, expect, it } from 'vitest';
import { isPlanned, normalize } from './normalize.ts';
import { wallTime } from './times.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

interface Outage {
  affected: number;
  cause: string;
  city: string;
  lat: number;
  lng: number;
  reported: string;
  restore: string;
  status: string;
  zip: string;
}
// Trimmed real NIPSCO capture (outage-atlas golden fixture, `raw` part): 19 outage points, no county names, no total.
const capture = () => sharedJson('payloads/nisource/sample.json') as { outageList: Outage[]; downResponse: unknown };
const nipsco = sourceDef({ connector: 'nisource' as never, utility: 'NIPSCO', states: ['IN'] });
/** The capture's ZIP codes by county (USPS), independent of the point placement under test. */
const ZIP_COUNTY: Record<string, string> = {
  '46312': '18089', // East Chicago, Lake
  '46319': '18089', // Griffith
  '46321': '18089', // Munster
  '46324': '18089', // Hammond
  '46342': '18089', // Hobart
  '46405': '18089', // Lake Station
  '46407': '18089', // Gary
  '46408': '18089', // Gary
  '46410': '18089', // Merrillville
  '46368': '18127', // Portage, Porter
  '46383': '18127', // Valparaiso
  '46385': '18127', // Valparaiso
  '47997': '18015', // Yeoman, Carroll
};
const sum = (list: Outage[]) => list.reduce((s, o) => s + o.affected, 0);

describe('nisource normalize', () => {
  it.skipIf(!hasSharedData)('places the real capture point by point; a scheduled outage counts, flagged', () => {
    const raw = capture();
    const scheduled = raw.outageList.filter((o) => o.cause === 'scheduled');
    expect(scheduled).toHaveLength(1);
    const out: Record<string, number> = {};
    for (const o of raw.outageList) out[ZIP_COUNTY[o.zip]] = (out[ZIP_COUNTY[o.zip]] ?? 0) + o.affected;
    const snap = normalize(raw, nipsco);
    expect(snap.customers_out).toBe(sum(raw.outageList));
    expect(snap.planned_out).toBe(sum(scheduled));
    expect(snap.incidents.map((i) => i.planned)).toEqual(raw.outageList.map((o) => o.cause === 'scheduled'));
    expect(snap.counties).toEqual(
      Object.keys(out)
        .sort()
        .map((fips) => ({ fips, customers_out: out[fips], customers_served: null })),
    );
    expect(snap.counties.every((c) => c.fips.startsWith('18'))).toBe(true);
    expect(snap).toMatchObject({ customers_served: null, unmatched: [], notice: null, basis: 'county' });
    expect(snap.incidents).toHaveLength(raw.outageList.length);
    expect(new Set(snap.incidents.map((i) => i.id)).size).toBe(raw.outageList.length);
  });
  it.skipIf(!hasSharedData)('reads reported and restore as Central wall clock, year 0001 as unknown', () => {
    const snap = normalize(capture(), nipsco);
    expect(snap.incidents.find((i) => i.city === 'MERRILLVILLE')).toEqual({
      id: '41.486644,-87.348238@2026-06-30T08:35:00',
      fips: '18089',
      customers_out: 32,
      etr: '2026-06-30T20:15:00.000Z',
      crew_status: 'Assessment in Progress',
      cause: 'tree',
      started_at: '2026-06-30T13:35:00.000Z',
      lat: 41.486644,
      lon: -87.348238,
      city: 'MERRILLVILLE',
      planned: false,
    });
    // two Valparaiso outages reported the same minute, 2 m apart: two incidents, both in Porter
    expect(snap.incidents.filter((i) => i.started_at === '2026-06-30T16:33:00.000Z')).toMatchObject([
      { id: '41.526765,-87.151186@2026-06-30T11:33:00', customers_out: 1, fips: '18127' },
      { id: '41.526785,-87.151186@2026-06-30T11:33:00', customers_out: 43, fips: '18127' },
    ]);
    expect(snap.incidents.find((i) => i.city === 'YEOMAN')).toMatchObject({
      fips: '18015',
      etr: '2026-06-30T21:30:00.000Z',
    });
    expect(snap.incidents.find((i) => i.city === 'HOBART')).toMatchObject({
      started_at: null,
      etr: '2026-06-30T14:30:00.000Z',
    });
  });
  it.skipIf(!hasSharedData)('keeps reported and restore in one frame: the restore `Z` is not UTC', () => {
    const raw = capture();
    const dated = raw.outageList.filter((o) => !o.reported.startsWith('0001'));
    // read in one frame, no ETR precedes its report
    expect(dated.every((o) => o.restore.replace('Z', '') > o.reported)).toBe(true);
    // taking the Z at its word (and reported as Central) would put the ETR of every outage reported after 11:30
    // before its report: 6 of the 16 dated, East Chicago's 12:22 report with a "16:00Z" (11:00 CDT) ETR among them
    const central = (t: string) => Date.parse(`${t}-05:00`);
    const before = dated.filter((o) => Date.parse(o.restore) < central(o.reported));
    expect(before.map((o) => o.reported.slice(11, 16)).sort()).toEqual([
      '11:33',
      '11:33',
      '12:01',
      '12:14',
      '12:22',
      '13:29',
    ]);
    const snap = normalize(raw, nipsco);
    for (const i of snap.incidents)
      if (i.started_at && i.etr) expect(Date.parse(i.etr)).toBeGreaterThan(Date.parse(i.started_at));
  });
  it('reports points outside every county, and reads times in options.time_zone when set', () => {
    const pt = (lat: number | null, lng: number | null, affected: number) => ({
      affected,
      lat,
      lng,
      reported: '2026-01-15T08:00:00',
      restore: '2026-01-15T12:30:00Z',
    });
    // Lake Michigan off Gary, no point at all, and one in Lake County
    const raw = { outageList: [pt(41.8, -87.2, 5), pt(null, null, 2), pt(41.59, -87.35, 7)] };
    const snap = normalize(raw, nipsco);
    expect(snap.customers_out).toBe(14);
    expect(snap.counties).toEqual([{ fips: '18089', customers_out: 7, customers_served: null }]);
    expect(snap.unmatched).toEqual(['2 outage(s) not placed in a county (7 customers out)']);
    expect(snap.incidents.map((i) => i.fips)).toEqual([null, null, '18089']);
    expect(snap.incidents[1]).toMatchObject({ id: 'null,null@2026-01-15T08:00:00', lat: null, lon: null });
    // winter: CST is UTC-6
    expect(snap.incidents[0]).toMatchObject({
      started_at: '2026-01-15T14:00:00.000Z',
      etr: '2026-01-15T18:30:00.000Z',
    });
    const eastern = normalize(raw, { ...nipsco, options: { time_zone: 'America/Indiana/Indianapolis' } });
    expect(eastern.incidents[0].started_at).toBe('2026-01-15T13:00:00.000Z');
    expect(normalize({ outageList: [pt(41.8, -87.2, 5)] }, nipsco).basis).toBe('outage_only');
    // an outage with no customers out left is still listed, but makes no county row
    expect(normalize({ outageList: [pt(41.59, -87.35, 0)] }, nipsco)).toMatchObject({
      counties: [],
      incidents: [{ fips: '18089', customers_out: 0 }],
      basis: 'county',
    });
    expect(normalize({ outageList: [] }, nipsco)).toMatchObject({ customers_out: 0, counties: [], basis: 'county' });
  });
  it('tells planned work by cause, status or comment, not "unscheduled"', () => {
    expect(
      [{ cause: 'scheduled' }, { status: 'Planned Outage' }, { comment: 'Scheduled maintenance' }].every(isPlanned),
    ).toBe(true);
    expect([{ cause: 'unscheduled' }, { cause: 'tree' }, {}].some(isPlanned)).toBe(false);
  });
  it('reads only ISO wall-clock text; other text and sentinels are null', () => {
    expect(wallTime('2026-07-04T23:45:30', 'America/Chicago')).toBe('2026-07-05T04:45:30.000Z');
    // the hour that repeats when daylight time ends reads as its first (daylight) pass
    expect(wallTime('2026-11-01T01:30:00Z', 'America/Chicago')).toBe('2026-11-01T06:30:00.000Z');
    for (const bad of ['0001-01-01T00:00:00', '0001-01-01T00:00:00Z', '', 'Not Yet Determined', '06/30/2026 4:00 PM'])
      expect(wallTime(bad, 'America/Chicago')).toBeNull();
  });
  it('fails the poll when the feed says it is down, instead of reading every outage as restored', () => {
    const down = { outageList: [], downResponse: { MaintenancePageMode: 1, Down: true, Text: 'Back soon' } };
    expect(() => normalize(down, nipsco)).toThrow(expect.objectContaining({ reason: 'bad_body' }));
    expect(() => normalize(down, nipsco)).toThrow(/Back soon/);
    expect(normalize({ ...down, downResponse: { Down: false, Text: null } }, nipsco).customers_out).toBe(0);
  });
  it('names the field when the answer has an unexpected shape', () => {
    expect(() => normalize({ outageList: [{ affected: {} }] }, nipsco)).toThrow(/outageList\.0\.affected/);
    expect(() => normalize({ outageList: [{ lat: '41.5' }] }, nipsco)).toThrow(/outageList\.0\.lat/);
    expect(() => normalize({ outages: [] }, nipsco)).toThrow(
      expect.objectContaining({ reason: 'schema', message: expect.stringMatching(/outageList: expected array/) }),
    );
    expect(() => normalize({ outageList: [], downResponse: { Down: 'yes' } }, nipsco)).toThrow(/downResponse\.Down/);
  });
});
