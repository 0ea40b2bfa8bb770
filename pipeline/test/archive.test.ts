// The archive (issue 25 part 1) through the real pipeline and the simulator: each quarter hour named by its start and
// holding the latest cycle made in it (issue 38 part 1), kept across restarts, gaps left as gaps, stale sources marked;
// the day's rows in EAGLE-I's layout read back from Parquet by DuckDB (run_start_time a UTC timestamp there); the map at
// a past time equal to the map published by the quarter's latest cycle.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { manualClock } from '../src/clock.ts';
import { Simulator } from '../src/simulator/server.ts';
import { parseRegistry } from '../src/registry/registry.ts';
import type { SourceDef } from '../src/sources/source-def.ts';
import { Pipeline } from '../src/pipeline.ts';
import { LOOPBACK_HTTP } from '../src/sources/http.ts';
import { Db } from '../src/state/db.ts';
import { startServer } from '../src/serve/server.ts';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { archivedDays, daySql } from '../src/state/archive-read.ts';
import { closeAll, makeTempDir, removeTempDir } from './clean-machine.ts';

const dir = makeTempDir('archive');
const clock = manualClock(new Date('2026-09-01T10:00:00Z'));
let sim: Simulator;
let sources: SourceDef[];
let server: Awaited<ReturnType<typeof startServer>>;
/** The published map after each quarter's latest cycle, by the quarter (its start) the cycle was made in. */
const published = new Map<string, Record<string, unknown>>();

const open = () =>
  Pipeline.open({
    stateDir: path.join(dir, 'state'),
    outDir: path.join(dir, 'public'),
    sources,
    clock,
    simulated: true,
    http: LOOPBACK_HTTP,
  });
const mapNow = () =>
  JSON.parse(fs.readFileSync(path.join(dir, 'public/api/v1/live/map.json'), 'utf8')).data as Record<string, unknown>;

/** Cycles at these minutes after 10:00 (the storm moving before each), in one pipeline process. */
async function cyclesAt(p: Pipeline, minutes: number[]): Promise<void> {
  for (const m of minutes) {
    clock.set(new Date(Date.parse('2026-09-01T10:00:00Z') + m * 60_000));
    await p.cycle({ all: true });
    const q = new Date(Math.floor(clock().getTime() / 900_000) * 900_000).toISOString();
    const { generated_at: _, ...map } = mapNow();
    published.set(q, map);
  }
}

beforeAll(async () => {
  sim = new Simulator({ clock, seed: 3, epoch: new Date('2026-09-01T00:00:00Z'), sources: 30 });
  await sim.start();
  sources = parseRegistry(sim.registryCsv()).sources;
  const p1 = await open();
  await cyclesAt(p1, [0, 5, 14]); // all three in the 10:00 quarter: 10:14, the latest, wins
  await p1.close();
  const p2 = await open(); // a restart
  await cyclesAt(p2, [15, 29, 91]); // 10:15 (10:29 wins), then a gap (10:30 … 11:15 not reached), 11:30
  await cyclesAt(p2, [14 * 60 + 5]); // the next day, 00:05 (quarter 00:00): 2026-09-01 is finished and published
  await p2.close();
  server = await startServer({ outDir: path.join(dir, 'public'), port: 0 });
});

afterAll(() =>
  closeAll(
    () => server?.close(),
    () => sim?.stop(),
    () => removeTempDir(dir),
  ),
);

const withDb = async <T>(fn: (db: Db) => Promise<T>): Promise<T> => {
  const db = await Db.open(path.join(dir, 'state'));
  try {
    return await fn(db);
  } finally {
    db.close();
  }
};

describe('the archive', () => {
  it('keeps the value in force at each quarter reached, across a restart; a gap stays a gap', async () => {
    const quarters = await withDb((db) =>
      db.all<{ q: string; c: string }>('SELECT quarter_at AS q, cycle_at AS c FROM archive_quarters ORDER BY 1'),
    );
    expect(quarters).toEqual([
      { q: '2026-09-01T10:00:00.000Z', c: '2026-09-01T10:14:00.000Z' },
      { q: '2026-09-01T10:15:00.000Z', c: '2026-09-01T10:29:00.000Z' },
      { q: '2026-09-01T11:30:00.000Z', c: '2026-09-01T11:31:00.000Z' },
      { q: '2026-09-02T00:00:00.000Z', c: '2026-09-02T00:05:00.000Z' },
    ]);
    // No quarter is named after a time later than the cycle that wrote it.
    for (const r of quarters) expect(r.q <= r.c, r.q).toBe(true);
  });

  it("writes the day's rows in EAGLE-I's layout; its published Parquet has the same rows, run_start_time a UTC timestamp", async () => {
    const parquetFile = path.join(dir, 'public/api/v1/archive/days/2026-09-01.parquet');
    const csvFile = path.join(dir, 'public/api/v1/archive/days/2026-09-01.csv');
    const { days, csv, parquet, schema, csvFileRows } = await withDb(async (db) => ({
      days: await archivedDays(db),
      csv: await db.all<Record<string, unknown>>(daySql('2026-09-01')),
      // the instant as epoch milliseconds: whatever zone the reader's session is in
      parquet: await db.all<Record<string, unknown>>(
        `SELECT * REPLACE (epoch_ms(run_start_time) AS run_start_time) FROM read_parquet('${parquetFile}')`,
      ),
      schema: await db.all<{ name: string; logical_type: string }>(
        `SELECT name, logical_type FROM parquet_schema('${parquetFile}') WHERE name = 'run_start_time'`,
      ),
      csvFileRows: await db.all<Record<string, unknown>>(`SELECT * FROM read_csv('${csvFile}', all_varchar = true)`),
    }));
    expect(days[0]).toEqual({ day: '2026-09-01', rows: csv.length, quarters: 3 });
    expect(Object.keys(csv[0]).slice(0, 5)).toEqual(['fips', 'county', 'state', 'customers_out', 'run_start_time']);
    // EAGLE-I's text in the CSV, as published
    expect(csvFileRows.map((r) => r.run_start_time)).toEqual(csv.map((r) => r.run_start_time));
    expect(csv[0].run_start_time).toBe('2026-09-01 10:00:00');
    // a UTC timestamp in Parquet: the same instants, the same other columns
    expect(schema[0].logical_type).toMatch(/^TimestampType\(isAdjustedToUTC=1,/);
    expect(parquet).toEqual(
      csv.map((r) => ({ ...r, run_start_time: Date.parse(`${String(r.run_start_time).replace(' ', 'T')}Z`) })),
    );
    const counted = [...published]
      .filter(([q]) => q < '2026-09-02')
      .map(([, m]) => m)
      .reduce((n, m) => n + Object.keys(m).filter((k) => /^\d{5}$/.test(k)).length, 0);
    expect(csv.length).toBe(counted);
    expect(
      csv.every((r) => r.simulated === true && typeof r.state === 'string' && (r.state as string).length > 2),
    ).toBe(true);
  });
});

describe('the archive, published and queried', () => {
  const api = async (p: string) => {
    const res = await fetch(`${server.url}${p}`);
    return {
      res,
      body: res.headers.get('content-type')?.includes('json') ? await res.json() : await res.arrayBuffer(),
    };
  };

  it("keeps finished days in the tree's archive part, written once, out of every cycle's live manifest", async () => {
    const manifest = (part: string) =>
      JSON.parse(fs.readFileSync(path.join(dir, 'public', `.manifest${part}.json`), 'utf8')).files as Record<
        string,
        unknown
      >;
    const [live, archive] = [manifest(''), manifest('-archive')];
    const finished = Object.keys(archive).sort();
    expect(finished).toContain('api/v1/archive/days/2026-09-01.parquet');
    expect(finished).toContain('api/v1/archive/_months/2026-09.json');
    expect(finished.some((f) => f.startsWith('api/v1/archive/_counties/'))).toBe(true);
    expect(finished.filter((f) => f in live)).toEqual([]);
    expect(Object.keys(live)).toContain('api/v1/archive/_days/2026-09-02/0000.json'); // the day in progress, by quarter
  });

  it('describes the finished days as a Frictionless Data Package that loads and casts every row', async () => {
    const { body } = await api('/api/v1/archive/datapackage.json');
    expect(body.data).toBeUndefined(); // a descriptor, not the envelope
    expect(body.resources.map((r: { path: string }) => r.path)).toEqual(['days/2026-09-01.csv']);
    const { Package } = createRequire(import.meta.url)('datapackage') as {
      Package: {
        load(
          d: string,
        ): Promise<{ valid: boolean; errors: Error[]; resources: Array<{ read(o: object): Promise<unknown[][]> }> }>;
      };
    };
    const pkg = await Package.load(path.join(dir, 'public/api/v1/archive/datapackage.json'));
    expect(pkg.errors.map(String)).toEqual([]);
    expect(pkg.valid).toBe(true);
    const rows = await pkg.resources[0].read({ cast: true });
    const archived = await withDb((db) =>
      db.all<{ n: number }>(`SELECT count(*)::INT AS n FROM (${daySql('2026-09-01')})`),
    );
    expect(rows).toHaveLength(archived[0].n);
    expect(rows[0][4]).toBeInstanceOf(Date); // run_start_time cast as a datetime
  });

  it('lists the finished day with the bytes and sha256 of the files it serves, immutable', async () => {
    const { body } = await api('/api/v1/archive');
    const day = body.data.days.find((d: { day: string }) => d.day === '2026-09-01');
    expect(day).toMatchObject({ quarters: 3 });
    expect(body.data.today).toMatchObject({ day: '2026-09-02', quarters: 1 });
    expect(body.data.columns.slice(0, 5).map((c: { name: string }) => c.name)).toEqual([
      'fips',
      'county',
      'state',
      'customers_out',
      'run_start_time',
    ]);
    for (const f of ['csv', 'parquet'] as const) {
      const { res, body: bytes } = await api(day[f].url);
      expect(res.status, f).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const buf = Buffer.from(bytes as ArrayBuffer);
      expect(buf.length).toBe(day[f].bytes);
      expect(createHash('sha256').update(buf).digest('hex')).toBe(day[f].sha256);
    }
  });

  it('answers the map at a past quarter as it was published, and says why it cannot', async () => {
    for (const [q, map] of published) {
      const at = new Date(Date.parse(q) + 7 * 60_000).toISOString(); // any time in the quarter: the quarter's start
      const { res, body } = await api(`/api/v1/archive/map?at=${at}`);
      expect(res.status, q).toBe(200);
      expect(body.data.quarter_at).toBe(q);
      expect(Date.parse(body.data.quarter_at)).toBeLessThanOrEqual(Date.parse(body.data.coverage.cycle_at));
      expect(Date.parse(body.data.coverage.cycle_at)).toBeLessThanOrEqual(Date.parse(body.data.generated_at));
      expect(body.data.map).toEqual(map);
      expect(body.data.simulated).toBe(true);
      expect(body.data.coverage.sources_total).toBe(sources.length);
    }
    const gap = await api('/api/v1/archive/map?at=2026-09-01T11:00:00Z');
    expect(gap.res.status).toBe(404);
    expect(gap.body.data.error.message).toMatch(/did not reach it.*starts at 2026-09-01T10:00:00.000Z/);
    expect((await api('/api/v1/archive/map')).res.status).toBe(400);
    expect((await api('/api/v1/archive/map?at=yesterday')).res.status).toBe(400);
  });

  it("answers a county's series as JSON and CSV, over finished days and the day in progress, within a year", async () => {
    const fips = Object.keys(published.get('2026-09-01T10:00:00.000Z')!).find((k) => /^\d{5}$/.test(k))!;
    const range = 'from=2026-09-01T00:00:00Z&to=2026-09-02T06:00:00Z';
    const { body } = await api(`/api/v1/archive/counties/${fips}?${range}`);
    expect(body.data.series.map((s: { at: string }) => s.at)).toEqual([...published.keys()]);
    for (const s of body.data.series)
      expect(s.customers_out, s.at).toBe((published.get(s.at)?.[fips] as number[] | undefined)?.[0] ?? 0);
    const csv = await api(`/api/v1/archive/counties/${fips}?${range}&format=csv`);
    const lines = Buffer.from(csv.body as ArrayBuffer)
      .toString()
      .trim()
      .split('\n');
    expect(lines[0]).toBe('at,customers_out,customers_tracked,stale');
    expect(lines).toHaveLength(published.size + 1);
    expect(
      (await api(`/api/v1/archive/counties/${fips}?from=2025-01-01T00:00:00Z&to=2026-03-01T00:00:00Z`)).res.status,
    ).toBe(400);
    const year = await api(`/api/v1/archive/counties/${fips}?from=2025-09-02T06:00:00Z&to=2026-09-02T06:00:00Z`);
    expect(year.body.data.series).toEqual(body.data.series);
    expect((await api('/api/v1/archive/counties/99999')).res.status).toBe(404);
    const backwards = await api(`/api/v1/archive/counties/${fips}?from=2026-09-02T00:00:00Z&to=2026-09-01T00:00:00Z`);
    expect(backwards.res.status).toBe(400);
    expect(backwards.body.data.error).toMatchObject({ code: 'invalid_parameter', param: 'from' });
  });
});
