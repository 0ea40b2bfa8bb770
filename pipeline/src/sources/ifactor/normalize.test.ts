import { describe, expect, it } from 'vitest';
import { normalize } from './normalize.ts';
import { readCount } from './count.ts';
import { normalizeReadable } from '../unreadable.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

interface Node {
  area_name?: string | null;
  cust_a: { val: number };
  cust_s: number;
  etr?: string;
  areas?: Node[];
}
interface Bundle {
  summary: {
    summaryFileData: { total_cust_a: { val: number }; total_cust_s: number; page_mode: { pausePublish: boolean } };
  };
  nyc: { file_data: { areas: Node[] } };
  westchester: { file_data: { areas: Node[] } };
}
const BUNDLE = 'payloads/ifactor/coned-bundle-2026-10-08T1905Z.json';
const coned = sourceDef({ connector: 'ifactor' as never, utility: 'Con Edison', states: ['NY'] });
const bundle = () => sharedJson(BUNDLE) as Bundle;
const rawOf = (b: Bundle) => ({
  directory: '2026_10_08_19_05_00',
  summary: b.summary,
  reports: [b.nyc, b.westchester],
});
const sum = (nodes: Node[], f: (n: Node) => number) => nodes.reduce((s, n) => s + f(n), 0);
const isFuzzy = (n: Node) => /^CONEDFUZZY_.* OTHER$/.test(n.area_name ?? '');

describe.skipIf(!hasSharedData)('ifactor normalize: the real Con Edison publication', () => {
  it('reconciles leaf → borough → report root → data.json, in the payload itself', () => {
    const b = bundle();
    const roots = [...b.nyc.file_data.areas, ...b.westchester.file_data.areas];
    expect(roots.length).toBe(2);
    const groups = roots.flatMap((r) => r.areas ?? []);
    expect(groups.length).toBe(6); // five boroughs and Westchester
    for (const g of groups) {
      expect(g.areas?.length).toBeGreaterThan(0);
      expect(sum(g.areas!, (n) => n.cust_a.val)).toBe(g.cust_a.val);
      expect(sum(g.areas!, (n) => n.cust_s)).toBe(g.cust_s);
      expect(g.areas!.filter(isFuzzy).map((n) => n.cust_s)).toEqual([0]); // one placeholder each, serving nobody
    }
    for (const r of roots) expect(sum(r.areas!, (n) => n.cust_a.val)).toBe(r.cust_a.val);
    expect(sum(roots, (r) => r.cust_a.val)).toBe(b.summary.summaryFileData.total_cust_a.val);
    expect(sum(roots, (r) => r.cust_s)).toBe(b.summary.summaryFileData.total_cust_s);
  });

  it('gives the headline, borough counties (via the alias map) and neighbourhood areas', () => {
    const b = bundle();
    const snap = normalize(rawOf(b), coned);
    expect(snap.customers_out).toBe(9);
    expect(snap.customers_served).toBe(3626606);
    expect(snap.basis).toBe('county');
    expect(snap.unmatched).toEqual([]);
    expect(snap.notice).toBeNull();
    const fipsOf: Record<string, string> = {
      BRONX: '36005',
      BROOKLYN: '36047',
      MANHATTAN: '36061',
      QUEENS: '36081',
      'STATEN ISLAND': '36085',
      WESTCHESTER: '36119',
    };
    const groups = [...b.nyc.file_data.areas, ...b.westchester.file_data.areas].flatMap((r) => r.areas ?? []);
    const expected = groups
      .map((g) => ({ fips: fipsOf[g.area_name!], customers_out: g.cust_a.val, customers_served: g.cust_s }))
      .sort((x, y) => x.fips.localeCompare(y.fips));
    expect(snap.counties).toEqual(expected);
    const leaves = groups.flatMap((g) => g.areas!.filter((n) => !isFuzzy(n)));
    expect(snap.areas.length).toBe(leaves.length); // 115 leaves less 6 placeholders
    expect(snap.areas.some((a) => /FUZZY/.test(a.name))).toBe(false);
    for (const c of snap.counties) {
      expect(snap.areas.filter((a) => a.fips === c.fips).reduce((s, a) => s + a.customers_out, 0)).toBe(
        c.customers_out,
      );
    }
    const yonkers = snap.areas.find((a) => a.name === 'YONKERS CITY');
    expect(yonkers).toMatchObject({
      fips: '36119',
      path: ['WESTCHESTER', 'YONKERS CITY'],
      customers_out: 0,
      customers_served: 79870,
    });
  });

  it('reads ETRs as ISO, and ETR-NULL / ETR-EXP / "" as none', () => {
    const areas = normalize(rawOf(bundle()), coned).areas;
    expect(areas.find((a) => a.name === 'SOUTHEAST BRONX')?.etr).toBe('2026-10-08T21:00:00.000Z'); // 17:00 -0400
    expect(areas.find((a) => a.name === 'BAY RIDGE')?.etr).toBeNull(); // ETR-NULL
    expect(areas.find((a) => a.name === 'PARK SLOPE')?.etr).toBeNull(); // ETR-EXP
    expect(areas.find((a) => a.name === 'FORDHAM')?.etr).toBeNull(); // ""
  });

  it('keeps a placeholder with customers out inside its borough, never as an area or unmatched', () => {
    const b = bundle();
    const brooklyn = b.nyc.file_data.areas[0].areas!.find((n) => n.area_name === 'BROOKLYN')!;
    brooklyn.areas!.find(isFuzzy)!.cust_a.val = 3;
    brooklyn.cust_a.val += 3;
    const snap = normalize(rawOf(b), coned);
    expect(snap.counties.find((c) => c.fips === '36047')?.customers_out).toBe(brooklyn.cust_a.val);
    expect(snap.areas.some((a) => /FUZZY/.test(a.name))).toBe(false);
    expect(snap.unmatched).toEqual([]);
  });

  it('says when publishing is paused', () => {
    const b = bundle();
    b.summary.summaryFileData.page_mode.pausePublish = true;
    expect(normalize(rawOf(b), coned).notice).toMatch(/paused publishing/);
  });

  it('without data.json, the headline is the sum of the report roots', () => {
    const b = bundle();
    const snap = normalize({ reports: [b.nyc, b.westchester] }, coned);
    expect(snap.customers_out).toBe(b.nyc.file_data.areas[0].cust_a.val + b.westchester.file_data.areas[0].cust_a.val);
    expect(snap.customers_served).toBe(b.nyc.file_data.areas[0].cust_s + b.westchester.file_data.areas[0].cust_s);
  });
});

describe('ifactor normalize: other trees', () => {
  it.skipIf(!hasSharedData)('parses the hand-made sample (summary + report tree)', () => {
    const snap = normalize(sharedJson('payloads/ifactor/sample.json'), coned);
    expect(snap.customers_out).toBe(6);
    expect(snap.counties.map((c) => [c.fips, c.customers_out])).toEqual([
      ['36005', 4],
      ['36081', 2],
    ]);
    expect(snap.areas.map((a) => a.path.join('/'))).toEqual([
      'BRONX/CENTRAL BRONX',
      'BRONX/NORTH BRONX',
      'QUEENS/ASTORIA',
    ]);
  });

  it('does not take towns for counties when only some share a county name (Eversource-like towns)', () => {
    const town = (name: string, out: number) => ({ area_name: name, cust_a: { val: out }, cust_s: 1000 });
    const report = {
      file_data: {
        areas: [
          { cust_a: { val: 5 }, cust_s: 3000, areas: [town('HARTFORD', 3), town('MANCHESTER', 2), town('ENFIELD', 0)] },
        ],
      },
    };
    const snap = normalize(
      { summary: { summaryFileData: { total_cust_a: { val: 5 }, total_cust_s: 3000 } }, reports: [report] },
      sourceDef({ connector: 'ifactor' as never, states: ['CT'] }),
    );
    expect(snap.counties).toEqual([]);
    expect(snap.basis).toBe('utility_total');
    expect(snap.customers_out).toBe(5);
    expect(snap.areas.map((a) => [a.name, a.fips])).toEqual([
      ['HARTFORD', null],
      ['MANCHESTER', null],
      ['ENFIELD', null],
    ]);
    expect(snap.unmatched).toEqual(['HARTFORD', 'MANCHESTER']);
  });

  it('reads masked and comma counts', () => {
    expect(readCount({ val: 3, masked: true }, 5)).toEqual({ out: 1, masked: true, display: '<5', upper: 4 });
    expect(readCount('Less than 5', 10)).toEqual({ out: 1, masked: true, display: '<5', upper: 4 });
    expect(readCount('1,038', 5)?.out).toBe(1038);
    expect(readCount({ val: 0 }, 5)?.out).toBe(0);
    expect(readCount('n/a', 5)).toBeNull();
  });

  it('a count that cannot be read is never 0: noted beside the figures standing on the rest; with none readable the poll fails', () => {
    const node = (name: string, cust_a: unknown, areas?: unknown[]) => ({
      area_name: name,
      cust_a,
      cust_s: 100,
      areas,
    });
    const tree = (bad: unknown) => ({
      file_data: {
        areas: [
          {
            cust_a: { val: 7 },
            cust_s: 300,
            areas: [
              node('BRONX', { val: 4 }, [node('NORTH BRONX', { val: 4 }), node('SOUTH BRONX', bad)]),
              node('QUEENS', bad, [node('ASTORIA', { val: 3 })]),
            ],
          },
        ],
      },
    });
    const summary = { summaryFileData: { total_cust_a: { val: 7 }, total_cust_s: 300 } };
    for (const bad of [undefined, null, { val: null }, { val: 'unknown' }, 'N/A', -5]) {
      const snap = normalize({ summary, reports: [tree(bad)] }, coned);
      expect(snap.customers_out).toBe(7);
      expect(snap.counties.map((c) => [c.fips, c.customers_out])).toEqual([['36005', 4]]); // no Queens at 0
      expect(snap.areas.map((a) => a.path.join('/'))).toEqual(['BRONX/NORTH BRONX', 'QUEENS/ASTORIA']);
      expect(snap.unreadable.map((n) => n.split(':')[0])).toEqual(['BRONX / SOUTH BRONX', 'QUEENS']);
    }
    // Without data.json the total is the sum of the report roots that can be read, the others noted and left out.
    const root = { file_data: { areas: [{ cust_a: { val: 'unknown' }, cust_s: 300, areas: [] }] } };
    const good = { file_data: { areas: [{ cust_a: { val: 6 }, cust_s: 200, areas: [] }] } };
    const summed = normalizeReadable({ normalize }, { reports: [good, root] }, coned);
    expect(summed.customers_out).toBe(good.file_data.areas[0].cust_a.val);
    expect(summed.unreadable).toEqual([expect.stringMatching(/root 1: cust_a\.val "unknown"/)]);
    // No root readable: the poll fails naming the field.
    expect(() => normalizeReadable({ normalize }, { reports: [root] }, coned)).toThrow(
      /no record's cust_a can be read.*root 1: cust_a\.val "unknown"/,
    );
    // data.json's headline itself must be readable.
    const bad = { summaryFileData: { total_cust_a: { val: 'unknown' }, total_cust_s: 300 } };
    expect(() => normalize({ summary: bad, reports: [tree({ val: 1 })] }, coned)).toThrow(
      /headline total total_cust_a\.val cannot be read/,
    );
  });

  it('thematic: a county whose count cannot be read makes no county; with none readable the poll fails', () => {
    const thematic = {
      file_data: [
        { title: 'NC-WAKE', desc: [{ cust_a: '12', cust_s: '1,000' }] },
        { title: 'NC-DURHAM', desc: [{ cust_a: 'unknown', cust_s: '900' }] },
      ],
    };
    const ncsc = sourceDef({ connector: 'ifactor' as never, states: ['NC', 'SC'] });
    // No headline: the total is the sum of the counties that can be read, the other noted and left out.
    const summed = normalizeReadable({ normalize }, { thematic }, ncsc);
    expect(summed.counties.map((c) => [c.fips, c.customers_out])).toEqual([['37183', 12]]);
    expect(summed.customers_out).toBe(Number(thematic.file_data[0].desc[0].cust_a));
    // No county readable: the poll fails naming the field.
    const none = { file_data: thematic.file_data.map((r) => ({ ...r, desc: [{ ...r.desc[0], cust_a: 'unknown' }] })) };
    expect(() => normalizeReadable({ normalize }, { thematic: none }, ncsc)).toThrow(
      /no record's cust_a can be read.*NC-WAKE: cust_a "unknown"/,
    );
    const summary = { summaryFileData: { total_cust_a: { val: 20 }, total_cust_s: 1900 } };
    const snap = normalize({ summary, thematic }, ncsc);
    expect(snap.counties.map((c) => [c.fips, c.customers_out])).toEqual([['37183', 12]]);
    expect(snap.unreadable).toEqual(['NC-DURHAM: cust_a "unknown"']);
    expect(snap.customers_out).toBe(20);
    // The note stands once without the headline too (the summed records' notes are not added to themselves).
    expect(summed.unreadable).toEqual(['NC-DURHAM: cust_a "unknown"']);
  });

  it('rejects a payload of the wrong shape as a schema failure', () => {
    expect(() => normalize({ reports: [{ file_data: { areas: 'nope' } }] }, coned)).toThrow(
      /unexpected shape: file_data\.areas/,
    );
    expect(() => normalize({ hello: 1 }, coned)).toThrow(/neither `reports`/);
  });
});

describe.skipIf(!hasSharedData)('ifactor normalize: legacy thematic areas (2017)', () => {
  type Thematic = { file_data: Array<{ title: string; desc: Array<{ cust_a: string; cust_s: string }> }> };
  const num = (s: string) => (/^[\d,]+$/.test(s) ? Number(s.replace(/,/g, '')) : 1); // "Less than 5" counts as 1

  it('Georgia Power: a county drawn as several polygons counts once; "Less than 5" is masked', () => {
    const raw = sharedJson('payloads/ifactor-thematic/georgiapower-2017-11.json') as Thematic;
    const first = new Map<string, { cust_a: string; cust_s: string }>();
    for (const r of raw.file_data) if (!first.has(r.title)) first.set(r.title, r.desc[0]);
    expect(first.size).toBeLessThan(raw.file_data.length); // there are repeats
    const snap = normalize({ thematic: raw }, sourceDef({ connector: 'ifactor' as never, states: ['GA'] }));
    expect(snap.unmatched).toEqual([]);
    expect(snap.counties.length).toBe(first.size);
    expect(snap.customers_out).toBe([...first.values()].reduce((s, d) => s + num(d.cust_a), 0));
    expect(snap.customers_served).toBe([...first.values()].reduce((s, d) => s + num(d.cust_s), 0));
    expect(snap.counties.find((c) => c.fips === '13177')).toEqual({
      fips: '13177',
      customers_out: 580,
      customers_served: 6508,
    }); // LEE, listed twice
  });

  it('Duke Carolinas: "NC-" / "SC-" prefixes choose the state', () => {
    const raw = sharedJson('payloads/ifactor-thematic/duke-ncsc-2017-11.json') as Thematic;
    const snap = normalize({ thematic: raw }, sourceDef({ connector: 'ifactor' as never, states: ['NC', 'SC'] }));
    expect(snap.unmatched).toEqual([]);
    expect(snap.counties.find((c) => c.fips === '45091')?.customers_out).toBe(24); // SC-YORK
    expect(snap.counties.find((c) => c.fips === '37133')?.customers_out).toBe(1038); // NC-ONSLOW "1,038"
    expect(snap.customers_out).toBe(raw.file_data.reduce((s, r) => s + num(r.desc[0].cust_a), 0));
  });

  it('Duke Florida', () => {
    const raw = sharedJson('payloads/ifactor-thematic/duke-fl-2017-11.json') as Thematic;
    const snap = normalize({ thematic: raw }, sourceDef({ connector: 'ifactor' as never, states: ['FL'] }));
    expect(snap.counties.map((c) => c.fips)).toEqual(['12095', '12103', '12105']); // Orange, Pinellas, Polk
    expect(snap.customers_out).toBe(44);
  });
});
