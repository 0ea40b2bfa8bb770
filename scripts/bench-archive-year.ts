// A year of the archive (part of `npm run bench`; issue 25 part 6): one county's 15-minute series over a whole year
// through the function layer, from the month documents the publisher writes, and a year of national history rebuilt
// from the archive (episodes derived from a year of county quarters).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadAtlas } from '../pipeline/src/geo/counties.ts';
import { countyModel, loadCountyModel } from '../pipeline/src/geo/county-model.ts';
import { deriveEpisodes } from '../pipeline/src/history/derive.ts';
import { Db } from '../pipeline/src/state/db.ts';
import { FsTreeWriter } from '../pipeline/src/publish/tree-writer.ts';
import { ArchivePublisher } from '../pipeline/src/publish/archive.ts';
import { createApp } from '../pipeline/src/serve/app.ts';

type Row = { metric: string; value: string | number; target: string };
const YEAR_START = '2025-09-01';
const DAYS = 365;
/** counties with someone out at every quarter of the year: the largest month documents a county can have */
const SERIES_COUNTIES = 12;

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

/** Every quarter of the year reached, and `counties` (fips) with `share` of them out at a quarter, in SQL. */
async function fillYear(db: Db, counties: string[], share: number): Promise<number> {
  await db.run(`CREATE TEMP TABLE bench_counties AS SELECT unnest(?::VARCHAR[]) AS fips`, [`[${counties.join(',')}]`]);
  await db.run(`CREATE TEMP TABLE bench_quarters AS
    SELECT strftime(TIMESTAMP '${YEAR_START}' + i * INTERVAL 15 MINUTE, '%Y-%m-%dT%H:%M:%S.000Z') AS q, i
      FROM range(0, ${DAYS * 96}) t(i)`);
  await db.run(`INSERT INTO archive_quarters SELECT q, q, 1000, 990, 160000000, 0, false FROM bench_quarters`);
  await db.run(`INSERT INTO archive_county
    SELECT q.q, c.fips, 'County', 'TX', (hash(c.fips, q.i) % 20000)::BIGINT + 10, 40000, 30000, 0.5, 2, 3, 1.5, 1, false
      FROM bench_quarters q, bench_counties c
     WHERE (hash(c.fips, q.i // 96) % 1000) < ${Math.round(share * 1000)}`);
  const [{ n }] = await db.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM archive_county');
  return n;
}

/** A year of a dozen always-out counties, published day by day; the one-year series answer's latency. */
async function yearSeries(dir: string): Promise<Row[]> {
  const db = await Db.open(path.join(dir, 'series-state'));
  try {
    const counties = loadAtlas()
      .counties.slice(0, SERIES_COUNTIES)
      .map((c) => c.fips);
    await fillYear(db, counties, 1);
    const out = path.join(dir, 'public');
    const publisher = new ArchivePublisher((now) => new FsTreeWriter(out, now, 'archive'));
    const done = new Date(Date.parse(`${YEAR_START}T00:00:00Z`) + DAYS * 86_400_000 + 60_000);
    const t = performance.now();
    const w = new FsTreeWriter(out, done);
    await publisher.publish(w, db, done, false);
    await w.commit({ simulated: false, notice: 'bench' });
    const publishMs = performance.now() - t;
    const app = createApp({ outDir: out });
    // The function's process start (the county atlas it checks `fips` against) is not a request's cost.
    await app.request(`/api/v1/archive/counties/${loadAtlas().counties.at(-1)!.fips}`);
    const ms: number[] = [];
    let points = 0;
    for (let i = 0; i < 200; i++) {
      const to = new Date(done.getTime() - (i % 7) * 86_400_000 - 60_000).toISOString();
      const from = new Date(Date.parse(to) - 365 * 86_400_000).toISOString();
      const start = performance.now();
      const res = await app.request(`/api/v1/archive/counties/${counties[i % counties.length]}?from=${from}&to=${to}`);
      const body = (await res.json()) as { data: { series: unknown[] } };
      ms.push(performance.now() - start);
      points = body.data.series.length;
    }
    return [
      {
        metric: `archive: one-year county series (${points.toLocaleString('en-US')} quarters, someone out at each), p50 / p99 (ms)`,
        value: `${pct(ms, 0.5).toFixed(1)} / ${pct(ms, 0.99).toFixed(1)}`,
        target: '≤ 200 (p99)',
      },
      {
        metric: `archive: publish ${DAYS} finished days at once (files + month documents), s`,
        value: (publishMs / 1000).toFixed(1),
        target: '',
      },
    ];
  } finally {
    db.close();
  }
}

/** A year of national history (a tenth of the counties out on any day) rebuilt from the archive. */
async function yearHistory(dir: string): Promise<Row[]> {
  const db = await Db.open(path.join(dir, 'history-state'));
  try {
    const rows = await fillYear(
      db,
      loadAtlas().counties.map((c) => c.fips),
      0.1,
    );
    await db.run(
      `INSERT INTO archive_files SELECT DISTINCT substr(q, 1, 10), 0, 96, 0, '', 0, '', '' FROM bench_quarters`,
    );
    const model = await countyModel(db, loadCountyModel());
    const t = performance.now();
    const episodes = await deriveEpisodes(db, model);
    const ms = performance.now() - t;
    return [
      {
        metric: `archive: a year of history rebuilt from ${(rows / 1e6).toFixed(1)} M archived county quarters (${episodes.toLocaleString('en-US')} episodes), s`,
        value: (ms / 1000).toFixed(1),
        target: '',
      },
    ];
  } finally {
    db.close();
  }
}

export async function benchArchiveYear(): Promise<Row[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-archive-year-'));
  try {
    return [...(await yearSeries(dir)), ...(await yearHistory(dir))];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await benchArchiveYear());
