// History grows from the archive (issue 25 part 3): the archive's finished days join the county series history is
// derived from, under one rule where EAGLE-I also covers a period (EAGLE-I wins up to its last time in a loaded year);
// episodes grown day by day equal a full derivation and the test's own computation; every row says where its figures
// come from; a year only the archive covers is loaded with its coverage and period stated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { Db } from '../src/state/db.ts';
import { importEagleI } from '../src/history/import.ts';
import { countyHistories, deriveEpisodes, growEpisodes } from '../src/history/derive.ts';
import { computeReports } from '../src/history/reports.ts';
import { historyCredit } from '../src/publish/chart-specs.ts';
import { closeAll, makeTempDir, removeTempDir } from './clean-machine.ts';

const dir = makeTempDir('history-grows');
let db: Db;

// Orange County FL (1,000,000 customers: threshold 1,000) and Leon County FL (100,000: threshold 100).
const ORANGE = '12095';
const LEON = '12073';
const model = new Map([
  [ORANGE, 1_000_000],
  [LEON, 100_000],
]);
const threshold = (fips: string) => Math.max(50, Math.ceil(model.get(fips)! * 0.001));

const Q = 15 * 60_000;
const iso = (t: number) => new Date(t).toISOString();
const at = (s: string) => Date.parse(s);

/** The archive's series: per quarter, the counties' customers out (a quarter absent: the poller did not reach it). */
function archiveSeries(): Map<string, Record<string, number>> {
  const series = new Map<string, Record<string, number>>();
  // 2026-12-31 06:00 … 2027-01-01 23:45, every quarter reached except 2027-01-01 03:00 … 04:45 (a gap of 2 hours).
  for (let t = at('2026-12-31T06:00:00Z'); t < at('2027-01-02T00:00:00Z'); t += Q) {
    if (t >= at('2027-01-01T03:00:00Z') && t < at('2027-01-01T05:00:00Z')) continue;
    const h = (t - at('2026-12-31T06:00:00Z')) / 3_600_000;
    series.set(iso(t), {
      // a storm from 10:00 on the 31st to 02:00 on the 1st, across midnight and the new year
      [ORANGE]: h >= 4 && h < 20 ? 5_000 + Math.round(1_000 * Math.sin(h)) : 20,
      // two bursts: 11:00–13:00 on the 31st (across EAGLE-I's last time, 12:00), and 05:00–06:00 on the 1st
      [LEON]: (h >= 5 && h < 7) || (h >= 23 && h < 24) ? 400 : 0,
    });
  }
  return series;
}

/** EAGLE-I's 2026 file: the 31st until 12:00 (its last time), Orange a little different from the archive. */
function eagleiRows(): Array<[string, string, number]> {
  const rows: Array<[string, string, number]> = [];
  for (let t = at('2026-12-31T00:00:00Z'); t <= at('2026-12-31T12:00:00Z'); t += Q) {
    const h = (t - at('2026-12-31T06:00:00Z')) / 3_600_000;
    if (h >= 4) rows.push([ORANGE, iso(t), 6_000]);
    if (h >= 5) rows.push([LEON, iso(t), 300]);
  }
  return rows;
}

async function insertArchive(series: Map<string, Record<string, number>>, simulatedAt: Set<string>): Promise<void> {
  for (const [q, counts] of series) {
    await db.run('INSERT INTO archive_quarters VALUES (?, ?, 3, 3, 1100000, 0, ?)', [q, q, simulatedAt.has(q)]);
    for (const [fips, n] of Object.entries(counts)) {
      if (n <= 0) continue;
      await db.run(`INSERT INTO archive_county VALUES (?, ?, ?, 'FL', ?, ?, NULL, NULL, 0, 0, 0, 1, false)`, [
        q,
        fips,
        fips === ORANGE ? 'Orange' : 'Leon',
        n,
        model.get(fips)!,
      ]);
    }
    await db.run(`INSERT INTO archive_state VALUES (?, 'FL', 0, ?, NULL, 0, 0, 0)`, [
      q,
      q < '2027' ? 900_000 : 1_050_000,
    ]);
  }
}
const publishDay = (day: string) =>
  db.run(`INSERT INTO archive_files VALUES (?, 0, 96, 0, '', 0, '', '2027-01-02T00:00:00Z')`, [day]);

interface Ep {
  fips: string;
  start_at: string;
  end_at: string;
  peak: number;
  customer_hours: number;
  origin: string;
}

/** The episode rule of history/derive.ts, written again: counting quarters ≤ 60 minutes apart form one episode. */
function episodesOf(series: Array<{ fips: string; t: string; n: number; origin: string }>): Ep[] {
  const out: Ep[] = [];
  const byCounty = new Map<string, typeof series>();
  for (const r of series)
    if (r.n >= threshold(r.fips)) (byCounty.get(r.fips) ?? byCounty.set(r.fips, []).get(r.fips)!).push(r);
  for (const [fips, rows] of byCounty) {
    rows.sort((a, b) => a.t.localeCompare(b.t));
    let cur: typeof rows = [];
    const close = () => {
      if (!cur.length) return;
      const origins = new Set(cur.map((r) => r.origin));
      out.push({
        fips,
        start_at: iso(at(cur[0].t)),
        end_at: iso(at(cur.at(-1)!.t) + Q),
        peak: Math.max(...cur.map((r) => r.n)),
        customer_hours: cur.reduce((s, r) => s + r.n * 0.25, 0),
        origin: origins.size > 1 ? 'both' : [...origins][0],
      });
      cur = [];
    };
    for (const r of rows) {
      if (cur.length && at(r.t) - at(cur.at(-1)!.t) > 60 * 60_000) close();
      cur.push(r);
    }
    close();
  }
  return out.sort((a, b) => a.fips.localeCompare(b.fips) || a.start_at.localeCompare(b.start_at));
}

const stored = () =>
  db.all<Ep>(
    `SELECT fips, strftime(start_at, '%Y-%m-%dT%H:%M:%S.000Z') AS start_at, strftime(end_at, '%Y-%m-%dT%H:%M:%S.000Z') AS end_at,
            peak, customer_hours, origin FROM episodes ORDER BY fips, start_at`,
  );

/** The series as the rule says history reads it, built by the test from its own inputs. */
function expectedSeries(days: string[], eaglei: Array<[string, string, number]> | null, simulated: Set<string>) {
  const last = eaglei
    ? eaglei
        .map((r) => r[1])
        .sort()
        .at(-1)!
    : null;
  const rows: Array<{ fips: string; t: string; n: number; origin: string }> = [];
  for (const [fips, t, n] of eaglei ?? []) rows.push({ fips, t, n, origin: 'eaglei' });
  for (const [q, counts] of archiveSeries()) {
    if (!days.includes(q.slice(0, 10)) || simulated.has(q)) continue;
    if (last && q.slice(0, 4) === last.slice(0, 4) && q <= last) continue; // EAGLE-I's year, up to its last time
    for (const [fips, n] of Object.entries(counts)) if (n > 0) rows.push({ fips, t: q, n, origin: 'archive' });
  }
  return rows;
}

// One quarter of the 1st came from the simulator (a test run beside the real poller): it never joins real history.
const simulatedAt = new Set(['2027-01-01T12:00:00.000Z']);

beforeAll(async () => {
  db = await Db.open(path.join(dir, 'state'));
  await insertArchive(archiveSeries(), simulatedAt);
});

afterAll(() =>
  closeAll(
    () => db?.close(),
    () => removeTempDir(dir),
  ),
);

describe('history grows from the archive', () => {
  it('derives the finished days, one at a time, as a full derivation and the rule written again would', async () => {
    expect(await growEpisodes(db, model)).toBe(false); // nothing published yet: nothing to grow from
    await publishDay('2026-12-31');
    expect(await growEpisodes(db, model)).toBe(true);
    expect(await stored()).toEqual(episodesOf(expectedSeries(['2026-12-31'], null, simulatedAt)));
    expect(await growEpisodes(db, model)).toBe(false); // grown once per day
    await publishDay('2027-01-01');
    expect(await growEpisodes(db, model)).toBe(true);
    const grown = await stored();
    // The storm across midnight is one episode, not two; the 2-hour gap on the 1st splits Orange's.
    const expected = episodesOf(expectedSeries(['2026-12-31', '2027-01-01'], null, simulatedAt));
    expect(grown).toEqual(expected);
    expect(grown.filter((e) => e.fips === ORANGE).map((e) => [e.start_at, e.end_at])).toEqual([
      ['2026-12-31T10:00:00.000Z', '2027-01-01T02:00:00.000Z'],
    ]);
    expect(grown.every((e) => e.origin === 'archive')).toBe(true);
    await deriveEpisodes(db, model);
    expect(await stored()).toEqual(grown);
  });

  it('lets EAGLE-I win where both cover a quarter, and says which rows are whose', async () => {
    const file = path.join(dir, 'eaglei_outages_2026.csv');
    const rows = eagleiRows();
    fs.writeFileSync(
      file,
      `fips_code,county,state,customers_out,run_start_time\n${rows.map(([f, t, n]) => `${f},X,Florida,${n},${t.slice(0, 19).replace('T', ' ')}`).join('\n')}\n`,
    );
    await importEagleI(db, file);
    await deriveEpisodes(db, model);
    const expected = episodesOf(expectedSeries(['2026-12-31', '2027-01-01'], rows, simulatedAt));
    expect(await stored()).toEqual(expected);
    // Orange's storm starts in EAGLE-I (10:00–12:00) and goes on in the archive: both.
    expect(expected.find((e) => e.fips === ORANGE)?.origin).toBe('both');
    const h = (await countyHistories(db)).get(ORANGE)!;
    expect(h.years.map((y) => [y.year, y.source])).toEqual([[2026, 'both']]);
    expect(h.worst[0].source).toBe('both');
    expect(historyCredit(h.years, false)).toBe('EAGLE-I (ORNL), CC BY 4.0 + live archive of utility outage feeds');
    expect(historyCredit(h.years, true)).toMatch(/^SIMULATED/);
  });

  it('loads a year only the archive covers with its period and coverage stated', async () => {
    const reports = await computeReports(db, model, new Date('2027-01-02T00:30:00Z'));
    const year = (y: number) => reports.national.find((r) => r.year === y)!;
    expect(year(2026)).toMatchObject({
      loaded: true,
      source: 'both',
      period_start: '2026-12-31T10:00:00Z', // EAGLE-I's first row (it omits zeros)
      period_end: '2027-01-01T00:00:00Z',
    });
    const archived = [...archiveSeries().keys()].filter((q) => q >= '2027' && !simulatedAt.has(q)).sort();
    expect(year(2027)).toMatchObject({
      loaded: true,
      source: 'archive',
      period_start: archived[0].replace('.000Z', 'Z'),
      period_end: iso(at(archived.at(-1)!) + Q).replace('.000Z', 'Z'),
      coverage_customers: 1_100_000, // Florida's modelled customers: the test's model
      coverage_min: 1_050_000,
      coverage_max: 1_050_000,
    });
    expect(year(2025)).toMatchObject({ loaded: false, source: null });
    const fl2027 = reports.states.find((r) => r.year === 2027 && r.state === 'FL')!;
    expect(fl2027).toMatchObject({
      source: 'archive',
      coverage_pct: Math.round((1_050_000 / 1_100_000) * 10_000) / 100,
    });
    const events = reports.byYear.get(2027)!.events;
    expect(events.map((e) => e.source)).toEqual(events.map(() => 'archive'));
  });
});
