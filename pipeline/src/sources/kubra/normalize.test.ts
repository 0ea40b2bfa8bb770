import { describe, expect, it } from 'vitest';
import { normalize, readCount } from './normalize.ts';
import { normalizeReadable } from '../unreadable.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

const kubra = (over = {}) =>
  sourceDef({ connector: 'kubra', utility: 'Dominion Energy', states: ['VA', 'NC'], ...over });

describe('kubra normalize', () => {
  it.skipIf(!hasSharedData)(
    'reads every top-level region of the real Dominion county report, not only the first',
    () => {
      const raw = sharedJson('payloads/kubra/dominion-report.json') as {
        file_data: {
          areas: Array<{ name: string; areas: Array<{ cust_a: { val: number }; cust_s: number }> }>;
          totals: { cust_a: { val: number }; cust_s: number };
        };
      };
      const snap = normalize({ report: raw }, kubra());
      const states = new Set(snap.counties.map((c) => c.fips.slice(0, 2)));
      expect(states.has('37')).toBe(true); // North Carolina (first region)
      expect(states.has('51')).toBe(true); // Virginia (a later region)
      // every leaf of every region is a distinct county (or independent city) that is placed, none dropped
      const leaves = raw.file_data.areas.flatMap((s) => s.areas);
      expect(snap.unmatched).toEqual([]);
      expect(snap.counties.length).toBe(leaves.length);
      expect(snap.counties.reduce((s, c) => s + c.customers_out, 0)).toBe(leaves.reduce((s, c) => s + c.cust_a.val, 0));
      expect(snap.counties.reduce((s, c) => s + (c.customers_served ?? 0), 0)).toBe(
        leaves.reduce((s, c) => s + c.cust_s, 0),
      );
      expect(snap.customers_out).toBe(raw.file_data.totals.cust_a.val);
      expect(snap.customers_served).toBe(raw.file_data.totals.cust_s);
      expect(snap.basis).toBe('county');
      // Perquimans County, NC is in the report with 1,381 customers served
      expect(snap.counties.find((c) => c.fips === '37143')?.customers_served).toBe(1381);
    },
  );

  it.skipIf(!hasSharedData)(
    'keeps municipalities under counties and treats 999999 as masked (<5, counted as 1)',
    () => {
      // The sample is hand-made in the vendor shape ("TESTCOUNTY"): as is, nothing can be placed…
      const raw = sharedJson('payloads/kubra/firstenergy-sample.json');
      const asIs = normalize({ report: raw }, kubra({ states: ['OH'] }));
      expect(asIs.unmatched).toEqual(['TESTCOUNTY / TESTCITY', 'TESTCOUNTY / MASKEDCITY']);
      // …so rename its county to a real one to check the municipality level and the sentinel.
      const renamed = JSON.parse(JSON.stringify(raw).replace('TESTCOUNTY', 'Summit'));
      const snap = normalize({ report: renamed }, kubra({ states: ['OH'] }));
      expect(snap.counties).toEqual([{ fips: '39153', customers_out: 500, customers_served: 100000 }]);
      expect(snap.areas.map((a) => [a.name, a.out_display, a.out_lower, a.out_upper, a.masked])).toEqual([
        ['TESTCITY', '120', 120, 120, false],
        ['MASKEDCITY', '<5', 1, 4, true],
      ]);
      expect(snap.areas[1].etr).toBe('2026-06-19T18:00:00.000Z');
      const masked = readCount({ val: 999999 }, 5);
      expect(masked).toEqual({ out: 1, masked: true, display: '<5', upper: 4 });
    },
  );

  it('reads Kubra masked flags in a real service-area report', () => {
    expect(readCount({ masked: true, val: 4 }, 5)?.display).toBe('<5');
    expect(readCount({ val: 0 }, 5)?.out).toBe(0);
    expect(readCount({ val: null }, 5)).toBeNull();
  });

  it.skipIf(!hasSharedData)('reads every region of the multi-region sample', () => {
    const snap = normalize({ report: sharedJson('payloads/kubra/multiregion-sample.json') }, kubra({ states: ['OH'] }));
    expect(snap.customers_out).toBe(30);
    expect(snap.unmatched.length).toBe(3); // LEAF_A1, LEAF_A2, LEAF_B1 are not Ohio counties
  });

  it.skipIf(!hasSharedData)('falls back to thematic areas', () => {
    const raw = sharedJson('payloads/kubra/thematic-sample.json') as { thematic: unknown };
    const snap = normalize({ thematic: raw.thematic }, kubra({ states: ['MI'] }));
    expect(snap.counties).toEqual([
      { fips: '26161', customers_out: 88, customers_served: 164896 },
      { fips: '26163', customers_out: 32, customers_served: 779720 },
    ]);
  });

  it('rejects a payload of the wrong shape as a schema failure', () => {
    expect(() => normalize({ report: { file_data: { areas: 'nope' } } }, kubra())).toThrow(/unexpected shape/);
  });
});

describe('kubra cluster layer', () => {
  it('computes Bing quadkeys, shards tile paths by {qkh} and finds the cluster layer', async () => {
    const { quadkeyFor, tileUrl, clusterLayerId, quadkeysForBbox } = await import('./clusters.ts');
    // Bing Maps Tile System: tile (3, 5) at level 3 is quadkey 213; its north-west corner is lon -45, lat ≈ -40.98.
    expect(quadkeyFor(-44.9, -41.0, 3)).toBe('213');
    expect(quadkeyFor(0.1, 0.1, 1)).toBe('1');
    expect(tileUrl('https://kubra.io', 'cluster-data/{qkh}/a/b', 'cluster-1', '0320012')).toBe(
      'https://kubra.io/cluster-data/210/a/b/public/cluster-1/0320012.json',
    );
    expect(
      clusterLayerId({
        config: {
          layers: {
            data: {
              interval_generation_data: [
                { id: 't', type: 'THEMATIC_LAYER' },
                { id: 'cluster-3', type: 'CLUSTER_LAYER_3' },
              ],
            },
          },
        },
      }),
    ).toBe('cluster-3');
    expect(quadkeysForBbox([-89.6, 36.5, -81.9, 39.2], 6)).toEqual(['032000', '032001', '032002', '032003']);
  });

  it('turns cluster-layer outages into incidents with localised cause and crew status', () => {
    const raw = {
      report: { file_data: { areas: [] } },
      clusters: [
        {
          desc: {
            inc_id: 42,
            cust_a: { val: 7 },
            etr: '2023-08-08T00:30:00Z',
            cause: { 'EN-US': 'Tree contact' },
            crew_status: 'Crew dispatched',
            start_time: '2023-08-07T22:06:21Z',
          },
          lat: 38.25,
          lon: -85.76,
        },
      ],
    };
    const snap = normalize(raw, kubra({ states: ['KY'] }));
    expect(snap.incidents).toEqual([
      {
        id: '42',
        fips: '21111',
        customers_out: 7,
        etr: '2023-08-08T00:30:00.000Z',
        crew_status: 'Crew dispatched',
        cause: 'Tree contact',
        started_at: '2023-08-07T22:06:21.000Z',
        lat: 38.25,
        lon: -85.76,
        city: null,
        planned: false,
      },
    ]);
  });

  it('a count that cannot be read is never 0: noted beside the figures standing on the rest; with none readable the poll fails', () => {
    const node = (name: string, cust_a: unknown, areas?: unknown[]) => ({ name, cust_a, cust_s: 100, areas });
    const report = (bad: unknown, totals?: unknown) => ({
      file_data: {
        areas: [
          node('Virginia', { val: 9 }, [
            node('Fairfax', { val: 5 }, [node('Vienna', { val: 5 }), node('Reston', bad)]),
            node('Arlington', bad),
          ]),
        ],
        totals,
      },
    });
    for (const bad of [undefined, null, { val: null }, { val: -5 }, { val: Number.POSITIVE_INFINITY }]) {
      const snap = normalize({ report: report(bad, { cust_a: { val: 9 }, cust_s: 300 }) }, kubra());
      expect(snap.customers_out).toBe(9);
      expect(snap.counties.map((c) => [c.fips, c.customers_out])).toEqual([['51059', 5]]); // no Arlington at 0
      expect(snap.areas.map((a) => a.name)).toEqual(['Vienna']);
      expect(snap.unreadable.map((n) => n.split(':')[0])).toEqual([
        'Virginia / Arlington',
        'Virginia / Fairfax / Reston',
      ]);
      // No totals: the total is the sum of the counties that can be read, Arlington noted and left out.
      const summed = normalizeReadable({ normalize }, { report: report(bad) }, kubra());
      expect(summed.counties.map((c) => [c.fips, c.customers_out])).toEqual([['51059', 5]]);
      expect(summed.customers_out).toBe(5); // Fairfax's own count
      expect(summed.areas.map((a) => a.name)).toEqual(['Vienna']);
      expect(summed.unreadable.map((n) => n.split(':')[0])).toEqual([
        'Virginia / Arlington',
        'Virginia / Fairfax / Reston',
      ]);
      // No record readable: the poll fails naming the field.
      const none = {
        file_data: {
          areas: [node('Virginia', bad, [node('Fairfax', bad, [node('Vienna', bad)]), node('Arlington', bad)])],
        },
      };
      expect(() => normalizeReadable({ normalize }, { report: none }, kubra())).toThrow(
        /no record's (county )?cust_a can be read as a count \(\d record\(s\), e\.g\. Virginia \/ .*cust_a/,
      );
    }
    // A headline present but unreadable fails the poll, naming it.
    expect(() => normalize({ report: report({ val: 1 }, { cust_a: { val: null } }) }, kubra())).toThrow(
      /headline total cust_a\.val/,
    );
    const summary = { summaryFileData: { totals: [{ total_cust_a: { val: -1 }, total_cust_s: 10 }] } };
    expect(() => normalize({ summary, clusters: [] }, kubra())).toThrow(/headline total total_cust_a\.val/);
  });

  it('a cluster record whose count cannot be read is no incident; with none readable the poll fails', () => {
    const rec = (inc_id: number, cust_a: unknown) => ({ desc: { inc_id, n_out: 1, cust_a }, lat: 38.25, lon: -85.76 });
    const seven = { val: 7 };
    const clusters = [rec(1, seven), rec(2, { val: null }), rec(3, { val: 4, mask: 5 })];
    const summary = { summaryFileData: { totals: [{ total_cust_a: { val: 12 }, total_cust_s: 1000 }] } };
    const snap = normalize({ summary, clusters }, kubra({ states: ['KY'] }));
    expect(snap.incidents.map((i) => [i.id, i.customers_out])).toEqual([
      ['1', 7],
      ['3', 1], // masked: its lower bound
    ]);
    expect(snap.unreadable).toEqual(['outage 2: cust_a.val null']);
    expect(snap.customers_out).toBe(12);
    // Without a headline the total is the sum of the readable records (the masked one at its lower bound).
    const noHeadline = { summaryFileData: { totals: [{}] } };
    const summed = normalizeReadable({ normalize }, { clusters, summary: noHeadline }, kubra());
    expect(summed.customers_out).toBe(seven.val + 1);
    expect(summed.incidents.map((i) => i.id)).toEqual(['1', '3']);
    expect(summed.unreadable).toEqual(['outage 2: cust_a.val null']);
    // No record readable: the poll fails naming the field.
    const none = [rec(1, { val: null }), rec(2, undefined)];
    expect(() => normalizeReadable({ normalize }, { clusters: none, summary: noHeadline }, kubra())).toThrow(
      /no record's cluster cust_a can be read.*outage 1: cust_a\.val null/,
    );
  });

  it('an inc_id listed twice (two tiles) is one outage; two id-less outages at one point since one time are two', () => {
    const rec = (inc_id: number | null, val: number) => ({
      desc: { inc_id, n_out: 1, cust_a: { val }, start_time: '2026-06-01T10:00:00Z' },
      lat: 38.25,
      lon: -85.76,
    });
    const clusters = [rec(5, 30), rec(5, 30), rec(null, 2), rec(null, 3), rec(6, 1)];
    const snap = normalize({ summary: { summaryFileData: { totals: [{}] } }, clusters }, kubra({ states: ['KY'] }));
    const made = '38.25,-85.76-2026-06-01T10:00:00Z';
    expect(snap.incidents.map((i) => [i.id, i.customers_out])).toEqual([
      [made, 2],
      [`${made}#2`, 3],
      ['5', 30],
      ['6', 1],
    ]);
    expect(snap.customers_out).toBe(30 + 2 + 3 + 1);
  });
});
