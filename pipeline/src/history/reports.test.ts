// Report tables checked against an independent computation over the same input: a hand-made EAGLE-I slice (two
// states, two years, known denominators via an MCC file), the real OE-417 workbook and the real EIA-861 files.
// The reference below recomputes episodes and every total in plain TypeScript from the rows written, not from the
// database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';
import { Db } from '../state/db.ts';
import { importCoverage, importEagleI, importEia861, importMcc, importOe417 } from './import.ts';
import { deriveEpisodes } from './derive.ts';
import { computeReports, type Reports, type Row } from './reports.ts';
import { countyModel, loadCountyModel } from '../geo/county-model.ts';
import { hasSharedData, sharedPath } from '../../test/shared-data.ts';
import { MemoryTreeWriter } from '../publish/tree-writer.ts';
import { countyReportsFile, countyTableOf, publishReports } from '../publish/reports.ts';
import { REPORT_COLUMNS } from '../contract/report-columns.ts';
import { REPORT_TABLES } from '../contract/catalogue.ts';
import { CHART_HEIGHT, CHART_WIDTH } from '../publish/charts.ts';
import { closeAll, makeTempDir, removeTempDir } from '../../test/clean-machine.ts';

const CUSTOMERS: Record<string, number> = {
  10001: 100_000,
  10003: 300_000,
  10005: 150_000,
  44001: 30_000,
  44003: 90_000,
  44005: 50_000,
  44007: 400_000,
  44009: 80_000,
};
const NAMES: Record<string, [string, string]> = {
  10001: ['Kent', 'Delaware'],
  10003: ['New Castle', 'Delaware'],
  10005: ['Sussex', 'Delaware'],
  44007: ['Providence', 'Rhode Island'],
  44003: ['Kent', 'Rhode Island'],
};

/** The input rows: [fips, 'YYYY-MM-DD HH:MM', customers_out]. */
const ROWS: Array<[string, string, number]> = [];
const series = (fips: string, start: string, counts: number[], stepMin = 15) => {
  counts.forEach((n, i) => {
    const t = new Date(Date.parse(`${start}:00Z`) + i * stepMin * 60_000).toISOString().slice(0, 16).replace('T', ' ');
    if (n > 0) ROWS.push([fips, t, n]);
  });
};
// 2022 — Kent DE: threshold 100; 800s with a 45-minute hole (bridged), then a lone 60 below the threshold.
series('10001', '2022-03-01 00:00', [800, 900, 0, 0, 700, 650]);
series('10001', '2022-03-01 06:00', [60]);
// Kent DE again in August 2022, after a gap of months: a second episode (small: peak 300).
series('10001', '2022-08-10 12:00', [300, 250]);
// New Castle DE in 2022: a medium one.
series('10003', '2022-11-20 10:00', [2_000, 5_000, 3_000]);
// 2023 — New Castle (threshold 300) and Providence RI (threshold 400) out at the same times: a large and a major episode.
series('10003', '2023-07-04 18:00', [4_000, 20_000, 15_000, 1_000]);
series('44007', '2023-07-04 18:15', [120_000, 90_000, 500]);
// Kent RI: a lone interval under its threshold (90): observed, but no episode.
series('44003', '2023-02-01 00:00', [40]);

const EPISODE_GAP_MS = 60 * 60_000;
interface RefEpisode {
  fips: string;
  start: number;
  last: number;
  peak: number;
  ch: number;
}

/** The documented episode rule, applied independently. */
function referenceEpisodes(): RefEpisode[] {
  const out: RefEpisode[] = [];
  const byCounty = new Map<string, Array<[number, number]>>();
  for (const [fips, t, n] of ROWS)
    (byCounty.get(fips) ?? byCounty.set(fips, []).get(fips)!).push([Date.parse(`${t.replace(' ', 'T')}:00Z`), n]);
  for (const [fips, rows] of byCounty) {
    const thr = Math.max(50, Math.ceil(CUSTOMERS[fips] * 0.001));
    let cur: RefEpisode | null = null;
    for (const [t, n] of rows.sort((a, b) => a[0] - b[0])) {
      if (n < thr) continue;
      if (cur && t - cur.last <= EPISODE_GAP_MS) {
        cur.last = t;
        cur.peak = Math.max(cur.peak, n);
        cur.ch += n * 0.25;
      } else {
        if (cur) out.push(cur);
        cur = { fips, start: t, last: t, peak: n, ch: n * 0.25 };
      }
    }
    if (cur) out.push(cur);
  }
  return out;
}

const year = (e: RefEpisode) => new Date(e.start).getUTCFullYear();
const round2 = (v: number) => Math.round(v * 100) / 100;

let db: Db;
let reports: Reports;
// Made in beforeAll: without the shared data every test here is skipped and no hook runs.
let dir = '';
afterAll(() =>
  closeAll(
    () => db?.close(),
    () => removeTempDir(dir),
  ),
);

beforeAll(async () => {
  dir = makeTempDir('reports');
  db = await Db.open(':memory:');
  const mcc = path.join(dir, 'MCC.csv');
  fs.writeFileSync(
    mcc,
    `\uFEFFCounty_FIPS,Customers\r\n${Object.entries(CUSTOMERS)
      .map(([f, n]) => `${Number(f)},${n}`)
      .join('\r\n')}\r\n`,
  );
  await importMcc(db, mcc);
  for (const y of [2022, 2023]) {
    const file = path.join(dir, `eaglei_outages_${y}.csv`);
    fs.writeFileSync(
      file,
      [
        'fips_code,county,state,customers_out,run_start_time',
        ...ROWS.filter((r) => r[1].startsWith(String(y))).map(
          ([f, t, n]) => `${Number(f)},${NAMES[f][0]},${NAMES[f][1]},${n},${t}:00`,
        ),
      ].join('\n'),
    );
    await importEagleI(db, file);
  }
  // Coverage: Rhode Island was not covered in 2022 (so its counties are not_covered, not zero).
  const cov = path.join(dir, 'coverage_history.csv');
  fs.writeFileSync(
    cov,
    'year,state,total_customers,min_covered,max_covered\n1/1/22,DE,550000,500000,540000\n1/1/22,RI,650000,0,0\n1/1/23,DE,552000,510000,545000\n1/1/23,RI,655000,600000,640000\n',
  );
  await importCoverage(db, cov);
  await importOe417(db, sharedPath('history/oe417/DOE_Electric_Disturbance_Events_2002-2023.xlsx'));
  for (const f of ['Service_Territory_2018.xlsx', 'Reliability_2018.xlsx', 'Sales_Ult_Cust_2018.xlsx'])
    await importEia861(db, sharedPath(`reference/eia861/${f}`));
  const model = await countyModel(db, loadCountyModel());
  await deriveEpisodes(db, model);
  reports = await computeReports(db, model, new Date('2026-11-22T00:00:00Z'));
});

describe.skipIf(!hasSharedData)('report tables against an independent computation', () => {
  const ref = referenceEpisodes();

  it('lists 2014 to the current year; only the imported years are loaded, the rest null', () => {
    expect(reports.range[0]).toBe(2014);
    expect(reports.range.at(-1)).toBe(2026);
    expect(reports.loaded).toEqual([2022, 2023]);
    const y2019 = reports.national.find((r) => r.year === 2019)!;
    expect(y2019).toMatchObject({
      loaded: false,
      episodes: null,
      customer_hours: null,
      peak_out: null,
      yoy_pct: null,
      disturbances: 278,
    });
  });

  it('county rows: episodes, customer-hours, peaks, hours per customer, coverage status', () => {
    expect(ref.length).toBe(5);
    for (const y of [2022, 2023]) {
      for (const fips of Object.keys(CUSTOMERS)) {
        const mine = ref.filter((e) => e.fips === fips && year(e) === y);
        const row = reports.byYear.get(y)!.counties.find((r) => r.fips === fips)!;
        const observed = ROWS.some(([f, t]) => f === fips && t.startsWith(String(y)));
        const stateCovered = fips.startsWith('10') || y === 2023;
        expect(row.coverage, `${fips} ${y}`).toBe(observed ? 'observed' : stateCovered ? 'zero' : 'not_covered');
        if (!observed && !stateCovered) {
          expect(row).toMatchObject({ episodes: null, customer_hours: null, max_out: null });
          continue;
        }
        const ch = mine.reduce((s, e) => s + e.ch, 0);
        expect(row).toMatchObject({
          episodes: mine.length,
          customer_hours: round2(ch),
          max_out: Math.max(0, ...mine.map((e) => e.peak)),
          hours_per_customer: round2(ch / CUSTOMERS[fips]),
          customers: CUSTOMERS[fips],
        });
      }
    }
    // The bridged Kent DE episode: 00:00–01:15 with a 45-minute hole → one episode ending 01:30, 1.5 h long.
    const kent = reports.countyTables(2022, '10001')!;
    expect(kent.events[0]).toMatchObject({
      start_at: '2022-03-01T00:00:00Z',
      end_at: '2022-03-01T01:30:00Z',
      peak: 900,
      duration_h: 1.5,
      size_class: 'small',
    });
    expect(kent.summary.longest_episode).toMatchObject({ duration_h: 1.5 });
  });

  it('state and national totals, simultaneous peaks and the year-over-year change', () => {
    for (const y of [2022, 2023]) {
      const eps = ref.filter((e) => year(e) === y);
      const nat = reports.national.find((r) => r.year === y)!;
      const ch = eps.reduce((s, e) => s + e.ch, 0);
      // the simultaneous peak: the largest sum over counties at one time
      const at = new Map<string, number>();
      for (const [, t, n] of ROWS.filter((r) => r[1].startsWith(String(y)))) at.set(t, (at.get(t) ?? 0) + n);
      expect(nat).toMatchObject({
        loaded: true,
        episodes: eps.length,
        customer_hours: round2(ch),
        peak_out: Math.max(...at.values()),
        major_episodes: eps.filter((e) => e.peak >= 100_000).length,
      });
      for (const [code, prefix] of [
        ['DE', '10'],
        ['RI', '44'],
      ] as const) {
        const st = reports.states.find((r) => r.year === y && r.state === code)!;
        const sEps = eps.filter((e) => e.fips.startsWith(prefix));
        const covered = code === 'DE' || y === 2023;
        const customers = covered
          ? Object.entries(CUSTOMERS)
              .filter(([f]) => f.startsWith(prefix))
              .reduce((s, [, n]) => s + n, 0)
          : 0;
        expect(st, `${code} ${y}`).toMatchObject({
          episodes: sEps.length,
          customer_hours: round2(sEps.reduce((s, e) => s + e.ch, 0)),
          customers,
        });
        expect(st.disturbances).toBe(reportsDisturbances(y, code));
      }
    }
    // the 2023 peak: 18:15 (20,000 + 120,000)
    expect(reports.national.find((r) => r.year === 2023)!.peak_out).toBe(140_000);
    const [a, b] = [2022, 2023].map((y) => ref.filter((e) => year(e) === y).reduce((s, e) => s + e.ch, 0));
    expect(reports.national.find((r) => r.year === 2023)!.yoy_pct).toBe(
      round2(((round2(b) - round2(a)) / round2(a)) * 100),
    );
    expect(reports.national.find((r) => r.year === 2022)!.coverage_pct).toBe(
      round2((540_000 / (550_000 + 650_000)) * 100),
    );
  });

  it('ranks counties by hours per customer, in the state and nationally', () => {
    const rows = reports.byYear.get(2023)!.counties.filter((r) => r.hours_per_customer !== null);
    const sorted = [...rows].sort((x, y) => (y.hours_per_customer as number) - (x.hours_per_customer as number));
    expect(sorted[0].rank_national).toBe(1);
    const s = reports.countyTables(2023, '44007')!.summary as {
      national_comparison: { rank: number };
      state_comparison: { rank: number; counties_ranked: number };
    };
    const expected = sorted.findIndex((r) => r.fips === '44007') + 1;
    expect(s.national_comparison.rank).toBe(expected);
    expect(s.state_comparison.rank).toBe(1);
    expect(s.state_comparison.counties_ranked).toBe(5);
  });

  it('months: twelve rows, episodes by the month they started', () => {
    const months = reports.byYear.get(2022)!.months;
    expect(months.map((m) => m.month)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    for (const m of months)
      expect(m.episodes).toBe(
        ref.filter((e) => year(e) === 2022 && new Date(e.start).getUTCMonth() + 1 === m.month).length,
      );
  });

  it('causes and disturbances from OE-417, per state by the states its areas name', async () => {
    const causes = reports.byYear.get(2022)!.causes;
    const [{ n }] = await db.all<{ n: number }>('SELECT count(*)::INT AS n FROM oe417_events WHERE year = 2022');
    expect(causes.reduce((s, c) => s + (c.events as number), 0)).toBe(n);
    expect(reports.byYear.get(2022)!.disturbances.length).toBe(n);
    const weather = await db.all<{ n: number }>(
      "SELECT count(*)::INT AS n FROM oe417_events WHERE year = 2022 AND cause = 'weather'",
    );
    expect(causes.find((c) => c.cause === 'weather')!.events).toBe(weather[0].n);
  });

  it('the county report names the serving utilities with their EIA-861 SAIDI/SAIFI', async () => {
    const kent = reports.countyTables(2022, '10001')!;
    // independent: the IMMM join of the same Service_Territory file lists Kent County DE's utilities
    const immm = fs
      .readFileSync(sharedPath('reference/eia861/service_territory_2018.csv'), 'utf8')
      .split('\n')
      .filter((l) => /,10001,/.test(l))
      .map((l) => Number(l.split(',')[0]));
    expect(kent.utilities.map((u) => u.utility_number).sort()).toEqual([...new Set(immm)].sort());
    for (const u of kent.utilities) {
      const rel = await db.all<Record<string, number>>(
        "SELECT saidi_with_med, saifi_with_med FROM eia861_reliability WHERE utility_number = ? AND state = 'DE' ORDER BY standard",
        [u.utility_number as number],
      );
      if (rel.length)
        expect([u.saidi_with_med, u.saifi_with_med]).toEqual([rel[0].saidi_with_med, rel[0].saifi_with_med]);
      expect(u).toMatchObject({ territory_year: 2018 });
    }
    expect(kent.utilities.some((u) => u.saidi_with_med !== null)).toBe(true);
  });

  it('every table row carries exactly its documented columns', () => {
    const check = (rows: Row[], cols: readonly string[]) => {
      for (const r of rows) expect(Object.keys(r).sort()).toEqual([...cols].sort());
    };
    check(reports.national, REPORT_COLUMNS.national.national);
    check(reports.states, REPORT_COLUMNS.national.states);
    check(reports.causes, REPORT_COLUMNS.causes);
    check(reports.trend, REPORT_COLUMNS.trend);
    const y = reports.byYear.get(2023)!;
    for (const t of ['counties', 'events', 'states', 'months', 'causes', 'disturbances'] as const)
      check(y[t], REPORT_COLUMNS.year[t]);
    const s = reports.byState.get('2023|RI')!;
    for (const t of ['counties', 'events', 'months', 'causes'] as const) check(s[t], REPORT_COLUMNS.state[t]);
    const c = reports.countyTables(2023, '44007')!;
    for (const t of ['years', 'months', 'events', 'causes', 'utilities'] as const)
      check(c[t], REPORT_COLUMNS.county[t]);
  });
});

function reportsDisturbances(y: number, code: string): number {
  return reports.byYear.get(y)!.disturbances.filter((d) => String(d.states).split(',').includes(code)).length;
}

describe.skipIf(!hasSharedData)('report publishing', () => {
  it('keeps county reports in one internal file per county with rows, and prebuilds decade charts that show the data', async () => {
    const w = new MemoryTreeWriter(new Date('2026-11-22T00:00:00Z'));
    const { charts } = await publishReports(w, reports, {
      simulated: false,
      now: new Date('2026-11-22T00:00:00Z'),
      renderCharts: true,
    });
    await w.commit({ simulated: false, notice: '' });
    expect([...w.files.keys()].filter((f) => /reports\/\d{4}\/[a-z]{2}\/\d{5}\./.test(f))).toEqual([]);
    const county = (fips: string) => JSON.parse(w.files.get(countyReportsFile(fips))?.body.toString() ?? 'null')?.data;
    const counties = [...w.files.keys()].filter((f) => f.startsWith('api/v1/reports/_counties/'));
    expect(counties.map((f) => f.slice(-10, -5)).sort()).toEqual(['10001', '10003', '44003', '44007']);
    expect(Object.keys(county('10001').years)).toEqual(['2022']);
    expect(Object.keys(county('10003').years)).toEqual(['2022', '2023']);
    expect(county('44007')).toMatchObject({ simulated: false, generated_at: '2026-11-22T00:00:00.000Z' });
    // Each table comes back whole: `years` (the same in every year) is held once, `utilities` is the summary's.
    expect(county('10003').years_table).toEqual(JSON.parse(JSON.stringify(reports.countyTables(2023, '10003')!.years)));
    for (const [fips, year] of [
      ['44007', 2023],
      ['10003', 2022],
      ['10003', 2023],
    ] as const) {
      const tables = JSON.parse(JSON.stringify(reports.countyTables(year, fips)));
      for (const t of REPORT_TABLES.county)
        expect(countyTableOf(county(fips), String(year), t)).toEqual(
          t === 'summary' ? { summary: tables.summary } : { rows: tables[t] },
        );
    }
    expect(charts).toBe((2026 - 2022 + 1) * 3); // from the first loaded year: the nation, DE and RI
    const png = PNG.sync.read(w.files.get('api/v1/reports/2023.chart.png')!.body);
    expect([png.width, png.height]).toEqual([CHART_WIDTH, CHART_HEIGHT]);
    // Spot check: two bars (2022, 2023); the taller one (2023, the maximum) is drawn red, the other amber.
    const colours = new Set<string>();
    for (let y = 200; y < 520; y += 4)
      for (let x = 48; x < CHART_WIDTH - 48; x += 4) {
        const i = (y * png.width + x) * 4;
        colours.add(`${png.data[i]},${png.data[i + 1]},${png.data[i + 2]}`);
      }
    expect(colours.has('185,28,28')).toBe(true); // #b91c1c
    expect(colours.has('245,158,11')).toBe(true); // #f59e0b
    const csv = w.files.get('api/v1/reports/data.national.csv')!.body.toString();
    expect(csv.split('\n')[0]).toBe(REPORT_COLUMNS.national.national.join(','));
    // the ETR record (table=etr) in JSON and CSV: no incidents in this history, so no rows
    const etrCsv = w.files.get('api/v1/reports/data.etr.csv')!.body.toString();
    expect(etrCsv.split('\n')[0]).toBe(REPORT_COLUMNS.national.etr.join(','));
    expect(JSON.parse(w.files.get('api/v1/reports/data.etr.json')!.body.toString()).data).toMatchObject({
      table: 'etr',
      rows: [],
    });
    // a second publish with the same data renders nothing
    const again = await publishReports(w, reports, {
      simulated: false,
      now: new Date('2026-11-23T00:00:00Z'),
      renderCharts: true,
    });
    expect(again.charts).toBe(0);
  });
});
