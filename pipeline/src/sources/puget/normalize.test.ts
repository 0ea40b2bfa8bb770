// PSE normalize against the real storm capture (2025-06 format), the hand-made older sample, and small made-up answers.
import { describe, expect, it } from 'vitest';
import { isPlanned, normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

interface Attr {
  Name?: string;
  RefName?: string;
  Value: string;
}
interface Entry {
  DataProvider: {
    Attributes: Attr[];
    PointOfInterest: { Title: string; Latitude: string; Longitude: string; Id?: string; PlannedOutage?: boolean };
  };
}
interface Answer {
  UnplannedOutageSummary: { CustomerAfftectedCount: number; OutageCount: number };
  PlannedOutageSummary: { CustomerAfftectedCount: number; OutageCount: number };
  LastUpdated: string;
  PseMap: Entry[];
}
// Real PSE answer during the 2026-03-13 storm, pretty-printed by the scraper: the raw as is.
const storm = () => sharedJson('payloads/puget/pse-outages-2026-03-13T2218Z.json') as Answer;
const pse = sourceDef({ connector: 'puget' as never, utility: 'Puget Sound Energy', states: ['WA'] });
const attr = (e: Entry, ref: string) => e.DataProvider.Attributes.find((a) => a.RefName === ref)?.Value;
const out = (e: Entry) => Number(attr(e, 'Customers impacted'));
const sum = (list: Entry[]) => list.reduce((s, e) => s + out(e), 0);
const titled = (list: Entry[], ...titles: string[]) =>
  list.filter((e) => titles.includes(e.DataProvider.PointOfInterest.Title));

describe.skipIf(!hasSharedData)('puget normalize, real storm capture', () => {
  it('reconciles the summaries with the points: planned work counted, as PSE counts it, and flagged', () => {
    const raw = storm();
    const unplanned = raw.PseMap.filter((e) => !e.DataProvider.PointOfInterest.PlannedOutage);
    const planned = raw.PseMap.filter((e) => e.DataProvider.PointOfInterest.PlannedOutage);
    // the feed's own counts say which points each summary covers
    expect(sum(unplanned)).toBe(raw.UnplannedOutageSummary.CustomerAfftectedCount);
    expect(unplanned).toHaveLength(raw.UnplannedOutageSummary.OutageCount);
    expect(sum(planned)).toBe(raw.PlannedOutageSummary.CustomerAfftectedCount);
    expect(planned).toHaveLength(raw.PlannedOutageSummary.OutageCount);
    const snap = normalize(raw, pse);
    expect(snap.customers_out).toBe(sum(raw.PseMap));
    expect(snap.planned_out).toBe(sum(planned));
    expect(snap.customers_served).toBeNull();
    expect(snap.basis).toBe('county');
    expect(snap.incidents.map((i) => i.id)).toEqual(raw.PseMap.map((e) => attr(e, 'OutageEventId')));
    expect(snap.incidents.map((i) => i.customers_out)).toEqual(raw.PseMap.map(out));
    expect(snap.incidents.filter((i) => i.planned).map((i) => i.id)).toEqual(
      planned.map((e) => attr(e, 'OutageEventId')),
    );
  });

  it('places the points in Washington counties; the one off the coarse county shapes goes to the nearest (Vashon)', () => {
    const raw = storm();
    const all = raw.PseMap;
    const snap = normalize(raw, pse);
    // Vashon Island is King County; the 1:10m shapes cut its shore, and the shoreline rule (SHORE_KM) places it.
    expect(snap.unmatched).toEqual([]);
    expect(snap.incidents.find((i) => i.id === 'INC1140111672')).toMatchObject({ fips: '53033', city: 'Vashon' });
    expect(snap.counties.reduce((s, c) => s + c.customers_out, 0)).toBe(sum(all));
    expect(snap.counties.map((c) => c.fips)).toEqual(['53033', '53035', '53037', '53053', '53057', '53067', '53073']);
    expect(snap.counties.every((c) => c.customers_served === null)).toBe(true);
    // counties whose points all carry their own towns' names: the titles say the same as the shapes
    const county = (fips: string) => snap.counties.find((c) => c.fips === fips)?.customers_out;
    expect(county('53057')).toBe(sum(titled(all, 'Marblemount')));
    expect(county('53067')).toBe(sum(titled(all, 'Olympia', 'Tanglewilde')));
    expect(county('53073')).toBe(sum(titled(all, 'Point Roberts')));
  });

  it('reads the Pacific point times against LastUpdated, and the texts as printed', () => {
    const snap = normalize(storm(), pse);
    // "03/13 10:03 AM" start, "03/14 11:00 PM" ETR: PDT (UTC-7) since March 8
    expect(snap.incidents.find((i) => i.id === 'INC1140111493')).toEqual({
      id: 'INC1140111493',
      fips: '53033',
      customers_out: 175,
      etr: '2026-03-15T06:00:00.000Z',
      crew_status: 'Crew assigned',
      cause: 'Trees/vegetation',
      started_at: '2026-03-13T17:03:00.000Z',
      lat: 47.3087,
      lon: -122.26802,
      city: 'Auburn',
      planned: false,
    });
    // "To Be Determined" is no time
    expect(snap.incidents.find((i) => i.id === 'INC1140111547')).toMatchObject({ etr: null, customers_out: 882 });
    for (const planned of ['INC1140111687', 'INC1140106726', 'INC1140111467'])
      expect(snap.incidents.find((i) => i.id === planned)?.planned).toBe(true);
  });
});

const point = (id: string, n: number, lat: string, lon: string, extra: Record<string, unknown> = {}) => ({
  DataProvider: {
    Attributes: [
      { Name: 'Outage ID', RefName: 'OutageEventId', Value: id },
      { Name: 'Customers impacted', RefName: 'Customers impacted', Value: String(n) },
      { Name: 'Start time', RefName: 'StartDate', Value: '12/31 10:00 PM' },
      { Name: 'Est. restoration time', RefName: 'Est. Restoration time', Value: '01/01 02:00 AM' },
    ],
    PointOfInterest: { Title: 'Town', Latitude: lat, Longitude: lon, Id: id, PlannedOutage: false, ...extra },
  },
});

describe('puget normalize, made-up answers', () => {
  it('counts planned and PSPS points (planned flagged), and keeps out-of-state or pointless ones unplaced', () => {
    const snap = normalize(
      {
        UnplannedOutageSummary: { CustomerAfftectedCount: 17, OutageCount: 3 },
        PlannedOutageSummary: { CustomerAfftectedCount: 100, OutageCount: 1 },
        PSPSSummary: { CustomerAfftectedCount: 200, OutageCount: 1 },
        LastUpdated: '2027-01-01T07:30:00+00:00',
        PseMap: [
          point('A', 5, '47.6', '-122.3'),
          point('B', 7, '45.52', '-122.68'), // Portland, Oregon
          point('C', 5, '', ''),
          point('P', 100, '47.6', '-122.3', { PlannedOutage: true, FilterType: 'Planned' }),
          point('S', 200, '47.6', '-122.3', { FilterType: 'PSPS' }),
        ],
      },
      pse,
    );
    expect(snap.incidents.map((i) => [i.id, i.fips])).toEqual([
      ['A', '53033'],
      ['B', null],
      ['C', null],
      ['P', '53033'],
      ['S', '53033'],
    ]);
    expect(snap.incidents.map((i) => i.planned)).toEqual([false, false, false, true, false]);
    expect(snap.incidents[1]).toMatchObject({ lat: 45.52, lon: -122.68 });
    expect(snap.counties).toEqual([{ fips: '53033', customers_out: 305, customers_served: null }]);
    expect(snap.unmatched).toEqual(['2 point(s) not placed in a county (12 customers out)']);
    expect([snap.customers_out, snap.planned_out]).toEqual([317, 100]);
    // across New Year: the year is the one nearest LastUpdated (Dec 31, 11:30 PM PST)
    expect(snap.incidents[0]).toMatchObject({
      started_at: '2027-01-01T06:00:00.000Z',
      etr: '2027-01-01T10:00:00.000Z',
    });
    expect(isPlanned({ PinType: 'Outage', FilterType: 'Outage', PlannedOutage: false })).toBe(false);
    expect(isPlanned({ FilterType: 'Unplanned' })).toBe(false);
    expect(isPlanned({ MapType: 'PSPS event' })).toBe(false);
    expect(isPlanned({ FilterType: 'Planned' })).toBe(true);
  });

  it('reads display-label attributes, and without LastUpdated or a summary keeps times null and sums the points', () => {
    const old = point('A', 5, '47.6', '-122.3');
    for (const a of old.DataProvider.Attributes) delete (a as { RefName?: string }).RefName;
    const snap = normalize({ PseMap: [old, point('B', 4, '48.8', '-122.6')] }, pse);
    expect(snap.customers_out).toBe(9);
    expect(snap.incidents[0]).toMatchObject({ id: 'A', customers_out: 5, etr: null, started_at: null });
    expect(normalize({ PseMap: [] }, pse)).toMatchObject({ customers_out: 0, incidents: [], basis: 'county' });
  });

  it.skipIf(!hasSharedData)('reads the hand-made older sample (parsing only)', () => {
    const snap = normalize(sharedJson('payloads/puget/sample.json'), pse);
    expect(snap.customers_out).toBe(30);
    expect(snap.counties).toEqual([
      { fips: '53033', customers_out: 20, customers_served: null },
      { fips: '53073', customers_out: 10, customers_served: null },
    ]);
    expect(snap.incidents.map((i) => [i.city, i.etr])).toEqual([
      ['Snoqualmie', null],
      ['Ferndale', null],
    ]);
  });

  it('names the field when the answer has an unexpected shape', () => {
    expect(() => normalize({ PseMap: {} }, pse)).toThrow(/PseMap: expected array, got object/);
    expect(() => normalize({ PseMap: [{}] }, pse)).toThrow(/PseMap\.0\.DataProvider: expected object/);
    const bad = point('A', 5, '47.6', '-122.3');
    (bad.DataProvider.Attributes[1] as { Value: unknown }).Value = { n: 5 };
    expect(() => normalize({ PseMap: [bad] }, pse)).toThrow(/PseMap\.0\.DataProvider\.Attributes\.1\.Value/);
    expect(() => normalize({ PseMap: [], UnplannedOutageSummary: { CustomerAfftectedCount: [] } }, pse)).toThrow(
      /UnplannedOutageSummary\.CustomerAfftectedCount/,
    );
  });
});
