import { describe, expect, it } from 'vitest';
import { normalize } from './normalize.ts';
import { normalizeReadable } from '../unreadable.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

type Outage = {
  outageRecID: string;
  customersOutNow: number;
  outageStartTime?: string | null;
  outageEndTime: string | null;
  isPlanned?: boolean;
  outagePoint: { lat: number; lng: number };
};
type Group = { name: string; boundaries: Array<{ name: string; customersOutNow: number; customersServed: number }> };
type Summary = { customersOutNow: number; customersServed: number; updateTime: string };

const dir = 'payloads/milsoft/flint-emc-';
const outages = () => sharedJson(`${dir}outages-2026-10-10T1053Z.json`) as Outage[];
const bounds = () => sharedJson(`${dir}boundaries-2026-10-10T1053Z.json`) as Group[];
const summary = () => sharedJson(`${dir}outagesummary-2026-10-10T1053Z.json`) as Summary;
const flint = sourceDef({ connector: 'milsoft' as never, utility: 'Flint Energies', states: ['GA'] });
const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

describe.skipIf(!hasSharedData)('milsoft normalize: Flint EMC outages.json (real)', () => {
  it('sums the outage list to exactly the summary headline, the ended-but-out outage included', () => {
    const list = outages();
    const head = summary();
    expect(list.length).toBeGreaterThan(0);
    expect(sum(list.map((o) => o.customersOutNow))).toBe(head.customersOutNow); // the capture's own reconciliation
    const snap = normalize({ summary: head, outages: list }, flint);
    expect(snap.customers_out).toBe(head.customersOutNow);
    expect(snap.customers_served).toBe(head.customersServed);
    expect(snap.incidents).toHaveLength(list.length);
    expect(sum(snap.incidents.map((i) => i.customers_out))).toBe(head.customersOutNow);
    expect(sum(snap.counties.map((c) => c.customers_out))).toBe(head.customersOutNow);
    expect(snap.unmatched).toEqual([]);
    expect(snap.basis).toBe('county');
    const ended = list.find((o) => o.outageEndTime !== null)!;
    expect(snap.incidents.find((i) => i.id === ended.outageRecID)).toMatchObject({
      customers_out: ended.customersOutNow,
      fips: expect.stringMatching(/^13\d{3}$/),
    });
  });
  it('places each outage by its point and reads the start time with its offset', () => {
    const snap = normalize({ summary: null, outages: outages() }, flint);
    expect(snap.incidents[0]).toMatchObject({
      id: '2026-10-09-0272',
      customers_out: 2,
      etr: null,
      crew_status: null,
      cause: null,
      started_at: '2026-10-10T03:37:00.000Z',
      lat: 32.55573702677305,
      lon: -84.80278972174179,
    });
    expect(snap.incidents.every((i) => i.fips !== null)).toBe(true);
    expect(snap.counties.map((c) => c.fips)).toEqual([...snap.counties.map((c) => c.fips)].sort());
    expect(snap.counties.every((c) => c.customers_served === null)).toBe(true);
    expect(snap.customers_served).toBeNull();
  });
  it('counts planned outages in progress in incidents and counties, flagged; the summary headline stands', () => {
    const list = outages();
    const planned = list[5];
    planned.isPlanned = true;
    const snap = normalize({ summary: summary(), outages: list }, flint);
    expect(snap.customers_out).toBe(summary().customersOutNow);
    expect(snap.planned_out).toBe(planned.customersOutNow);
    expect(snap.incidents.find((i) => i.id === planned.outageRecID)).toMatchObject({
      planned: true,
      customers_out: planned.customersOutNow,
    });
    expect(snap.incidents.filter((i) => i.planned)).toHaveLength(1);
    expect(sum(snap.counties.map((c) => c.customers_out))).toBe(
      sum(snap.incidents.filter((i) => i.fips).map((i) => i.customers_out)),
    );
    // The bare file (no summary): the sum of the outages, planned work in progress included.
    const bare = normalize(list, flint);
    expect(bare.customers_out).toBe(sum(list.filter((o) => o.customersOutNow > 0).map((o) => o.customersOutNow)));
    expect(bare.planned_out).toBe(planned.customersOutNow);
  });
  it("leaves out a planned outage that starts after the summary's own time; counts it when a time is missing", () => {
    const list = outages();
    const head = summary();
    const planned = list[5];
    planned.isPlanned = true;
    planned.outageStartTime = new Date(Date.parse(head.updateTime) + 3_600_000).toISOString(); // an hour later
    const snap = normalize({ summary: head, outages: list }, flint);
    expect(snap.incidents.some((i) => i.id === planned.outageRecID)).toBe(false);
    expect(snap.planned_out).toBe(0);
    expect(snap.customers_out).toBe(head.customersOutNow); // the headline as published
    // no answer time (the bare file) or no start: it cannot be told, so it counts
    expect(normalize(list, flint).planned_out).toBe(planned.customersOutNow);
    planned.outageStartTime = null;
    expect(normalize({ summary: head, outages: list }, flint).planned_out).toBe(planned.customersOutNow);
    // an unplanned outage is never held back by its start time
    planned.isPlanned = false;
    planned.outageStartTime = new Date(Date.parse(head.updateTime) + 3_600_000).toISOString();
    const unplanned = normalize({ summary: head, outages: list }, flint);
    expect(unplanned.incidents.some((i) => i.id === planned.outageRecID)).toBe(true);
    expect(unplanned.planned_out).toBe(0);
  });
  it('drops restored records and reports a point outside every county', () => {
    const list = outages().slice(0, 2);
    list[0].customersOutNow = 0;
    list[1].outagePoint = { lat: 0, lng: 0 };
    const snap = normalize(list, flint); // the bare file, as the site serves it
    expect(snap.incidents).toHaveLength(1);
    expect(snap.incidents[0].fips).toBeNull();
    expect(snap.unmatched).toEqual([`outage ${list[1].outageRecID} at 0,0`]);
    expect(snap.counties).toEqual([]);
  });
  it('an outage whose count cannot be read is noted, never 0: the figures stand on the rest; with none readable the poll fails', () => {
    const list = outages();
    const odd = list[3];
    const oddOut = odd.customersOutNow;
    odd.customersOutNow = 'unknown' as never;
    const snap = normalize({ summary: summary(), outages: list }, flint);
    expect(snap.customers_out).toBe(summary().customersOutNow);
    expect(snap.incidents.some((i) => i.id === odd.outageRecID)).toBe(false);
    expect(snap.unreadable).toEqual([`outage ${odd.outageRecID}: customersOutNow "unknown"`]);
    expect(snap.unmatched.some((u) => u.includes('unreadable'))).toBe(false);
    // The bare file: the total is the sum of the outages that can be read (the list sums to the summary's headline).
    const bare = normalizeReadable({ normalize }, list, flint);
    expect(bare.customers_out).toBe(summary().customersOutNow - oddOut);
    expect(bare.incidents.some((i) => i.id === odd.outageRecID)).toBe(false);
    expect(bare.unreadable).toEqual([`outage ${odd.outageRecID}: customersOutNow "unknown"`]);
    // No outage readable: the poll fails naming the field.
    const none = list.map((o) => ({ ...o, customersOutNow: 'unknown' }));
    expect(() => normalizeReadable({ normalize }, none, flint)).toThrow(
      /no record's customersOutNow can be read.*customersOutNow "unknown"/,
    );
    // A planned outage whose count cannot be read is noted like any other; the summary's headline still stands.
    odd.isPlanned = true;
    const planned = normalize({ summary: summary(), outages: list }, flint);
    expect(planned.customers_out).toBe(summary().customersOutNow);
    expect(planned.planned_out).toBe(0);
    expect(planned.unreadable).toHaveLength(1);
  });
});

describe('milsoft normalize: Flint EMC boundaries.json (real)', () => {
  it.skipIf(!hasSharedData)(
    'reads the county layer; the headline comes from the summary, 18 above the county sum',
    () => {
      const rows = bounds()[0].boundaries;
      const used = rows.filter((b) => b.customersOutNow > 0 || b.customersServed > 0);
      expect(used.length).toBeGreaterThan(0);
      const snap = normalize({ summary: summary(), boundaries: bounds() }, flint);
      expect(snap.counties).toHaveLength(used.length);
      expect(sum(snap.counties.map((c) => c.customers_out))).toBe(sum(rows.map((b) => b.customersOutNow)));
      expect(snap.customers_out).toBe(summary().customersOutNow);
      expect(snap.customers_out! - sum(rows.map((b) => b.customersOutNow))).toBe(18);
      expect(snap.customers_served).toBe(summary().customersServed);
      expect(snap.counties.find((c) => c.fips === '13193')).toEqual({
        fips: '13193',
        customers_out: 459,
        customers_served: 3132,
      }); // Macon
      expect(snap.unmatched).toEqual([]);
      expect(snap.basis).toBe('county');
    },
  );
  it.skipIf(!hasSharedData)('without a summary, totals are the county sums', () => {
    const rows = bounds()[0].boundaries;
    const snap = normalize(bounds(), flint);
    expect(snap.customers_out).toBe(sum(rows.map((b) => b.customersOutNow)));
    expect(snap.customers_served).toBe(sum(rows.map((b) => b.customersServed)));
  });
  it('reports a county it cannot place, and tries every state of the source', () => {
    // A layer without customersOutNow at all is read by its customersAffected.
    const groups = [
      {
        name: 'Counties',
        nameField: 'NAME',
        boundaries: [
          { name: 'Atlantis', customersAffected: 3, customersServed: 9 },
          { name: 'Russell', customersAffected: 4, customersServed: 10 },
        ],
      },
    ];
    const snap = normalize(groups, sourceDef({ connector: 'milsoft' as never, states: ['GA', 'AL'] }));
    expect(snap.unmatched).toEqual(['Atlantis']);
    expect(snap.counties).toEqual([{ fips: '01113', customers_out: 4, customers_served: 10 }]);
  });
  it('a county whose count cannot be read is never 0: noted beside the figures standing on the rest; with none readable the poll fails', () => {
    const alga = sourceDef({ connector: 'milsoft' as never, states: ['GA', 'AL'] });
    for (const bad of [undefined, null, '', 'unknown', -5]) {
      const groups = [
        {
          name: 'Counties',
          nameField: 'NAME',
          boundaries: [
            { name: 'Lee', customersOutNow: 3, customersAffected: 3, customersServed: 9 },
            // the layer carries customersOutNow: customersAffected is not read in its place
            { name: 'Russell', customersOutNow: bad, customersAffected: 4, customersServed: 10 },
          ],
        },
      ];
      const snap = normalize({ summary: { customersOutNow: 8, customersServed: 19 }, boundaries: groups }, alga);
      expect(snap.counties.map((c) => [c.fips, c.customers_out])).toEqual([['13177', 3]]);
      expect(snap.unreadable).toHaveLength(1);
      expect(snap.unreadable[0]).toMatch(/^county Russell: customersOutNow/);
      expect(snap.customers_out).toBe(8);
      // Without the summary, the total is the sum of the counties that can be read.
      const summed = normalizeReadable({ normalize }, groups, alga);
      expect(summed.counties.map((c) => [c.fips, c.customers_out])).toEqual([['13177', 3]]);
      expect(summed.customers_out).toBe(groups[0].boundaries[0].customersOutNow);
      expect(summed.unreadable).toEqual([expect.stringMatching(/^county Russell: customersOutNow/)]);
      // No county readable: the poll fails naming the field (a layer with no customersOutNow at all is read by
      // customersAffected, so that is the field named when every customersOutNow is missing).
      const none = [
        {
          ...groups[0],
          boundaries: groups[0].boundaries.map((b) => ({ ...b, customersOutNow: bad, customersAffected: bad })),
        },
      ];
      const field = bad === undefined ? 'customersAffected' : 'customersOutNow';
      expect(() => normalizeReadable({ normalize }, none, alga)).toThrow(
        new RegExp(`no record's ${field} can be read.*county Lee: ${field}`),
      );
    }
    // The summary's own headline must be readable; a body that is not the summary is still no summary.
    const groups = [{ name: 'Counties', boundaries: [{ name: 'Lee', customersOutNow: 3, customersServed: 9 }] }];
    expect(() => normalize({ summary: { customersServed: 19 }, boundaries: groups }, alga)).toThrow(
      /headline total customersOutNow cannot be read/,
    );
    expect(normalize({ summary: { message: 'Not found' }, boundaries: groups }, alga).customers_out).toBe(3);
  });
  it('a feed without a county layer is a total from the summary, or a config error without one', () => {
    const groups = [
      {
        name: 'Substations',
        nameField: 'SUB',
        boundaries: [{ name: 'North', customersOutNow: 3, customersServed: 9 }],
      },
    ];
    const snap = normalize({ summary: { customersOutNow: 3, customersServed: 9 }, boundaries: groups }, flint);
    expect(snap).toMatchObject({ basis: 'utility_total', customers_out: 3, customers_served: 9, counties: [] });
    expect(() => normalize(groups, flint)).toThrow(/no county layer \(layers: Substations\)/);
  });
});

describe('milsoft normalize: other shapes', () => {
  it.skipIf(!hasSharedData)('reads the GVEA {summary, outages} pair (Milsoft-style, Alaska)', () => {
    const raw = sharedJson('payloads/gvea/outages.json') as { summary: Summary; outages: Outage[] };
    const snap = normalize(raw, sourceDef({ connector: 'milsoft' as never, states: ['AK'] }));
    expect(snap.customers_out).toBe(raw.summary.customersOutNow);
    expect(snap.customers_served).toBe(raw.summary.customersServed);
    expect(snap.incidents.map((i) => i.id)).toEqual(raw.outages.map((o) => o.outageRecID));
    expect(snap.counties).toEqual([
      { fips: '02090', customers_out: sum(raw.outages.map((o) => o.customersOutNow)), customers_served: null },
    ]);
  });
  it.skipIf(!hasSharedData)('skips unused polygons in the hand-made boundaries sample (parsing only)', () => {
    const snap = normalize(
      sharedJson('payloads/milsoft/boundaries.json'),
      sourceDef({ connector: 'milsoft' as never, states: ['SC', 'GA'] }),
    );
    expect(snap.unmatched).toEqual([]); // "Empty" has 0 out and 0 served
    expect(snap.counties).toEqual([
      { fips: '13193', customers_out: 0, customers_served: 3120 },
      { fips: '45039', customers_out: 4, customers_served: 41797 },
    ]);
  });
  it.skipIf(!hasSharedData)('ignores a summary that is not the summary shape', () => {
    const snap = normalize({ summary: '<html>', outages: outages() }, flint);
    expect(snap.customers_out).toBe(summary().customersOutNow);
    expect(snap.customers_served).toBeNull();
  });
  it('rejects another vendor shape', () => {
    expect(() => normalize({ hello: 1 }, flint)).toThrow(/neither `boundaries` nor `outages`/);
    expect(() => normalize([{ id: 1, nbrOut: 'x' }, 5], flint)).toThrow(
      /Milsoft outages.json has an unexpected shape: 1/,
    );
  });
});
