// One archived UTC day in the forms it is published in (issue 25 parts 2 and 4): Parquet (zstd; run_start_time a UTC
// timestamp) and CSV (run_start_time EAGLE-I's text) of its rows in EAGLE-I's layout, written by DuckDB's COPY, and the compact document the function layer answers the past map and
// county series from (each quarter's coverage; per county and state, its values at the quarters it had anyone out).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Db } from './db.ts';
import { daySql, nextDay } from './archive-read.ts';
import { QUARTER_MS } from './archive.ts';
import type { MapEntry } from './rollup.ts';

export interface DayFiles {
  csv: Buffer;
  parquet: Buffer;
  rows: number;
}

/** The day's rows as CSV and Parquet bytes (through temporary files DuckDB writes; removed after). */
export async function dayFiles(db: Db, day: string): Promise<DayFiles> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outage-archive-day-'));
  try {
    const csv = path.join(dir, `${day}.csv`);
    const parquet = path.join(dir, `${day}.parquet`);
    const sql = daySql(day);
    await db.run(`COPY (${sql}) TO '${csv}' (FORMAT csv, HEADER true)`);
    await db.run(`COPY (${daySql(day, 'parquet')}) TO '${parquet}' (FORMAT parquet, COMPRESSION zstd)`);
    const [{ n }] = await db.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM (${sql})`);
    return { csv: fs.readFileSync(csv), parquet: fs.readFileSync(parquet), rows: n };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** A quarter's coverage in the day document: [at, cycle_at, sources_total, sources_fresh, customers_tracked]. */
export type QuarterCoverage = [string, string, number, number, number | null];
/** A county's or state's value at one quarter: [quarter index, ...MapEntry, customers_tracked, stale]. */
export type DayValue = [number, ...MapEntry, number | null, boolean];

export interface DayDoc {
  day: string;
  simulated: boolean;
  quarters: QuarterCoverage[];
  counties: Record<string, DayValue[]>;
  states: Record<string, DayValue[]>;
}

/** The function layer's document of one finished day. */
export const dayDoc = (db: Db, day: string): Promise<DayDoc> => rangeDoc(db, day, day, nextDay(day));

/**
 * The document of one quarter of the day in progress: the day document's shape with that quarter alone, so each
 * cycle rebuilds only the quarter it writes (a whole storm day's document took ~1.1 s a cycle by its end).
 */
export const quarterDoc = (db: Db, quarter: string): Promise<DayDoc> =>
  rangeDoc(db, quarter.slice(0, 10), quarter, new Date(Date.parse(quarter) + QUARTER_MS).toISOString());

/** The values archived from `from` (inclusive) to `to` (exclusive), as a document of `day`. */
async function rangeDoc(db: Db, day: string, from: string, to: string): Promise<DayDoc> {
  const range = [from, to];
  const quarters = await db.all<{ at: string; c: string; t: number; f: number; k: number | null; s: boolean }>(
    `SELECT quarter_at AS "at", cycle_at AS c, sources_total AS t, sources_fresh AS f, customers_tracked AS k,
            simulated AS s FROM archive_quarters WHERE quarter_at >= ? AND quarter_at < ? ORDER BY quarter_at`,
    range,
  );
  const index = new Map(quarters.map((q, i) => [q.at, i]));
  const doc: DayDoc = {
    day,
    simulated: quarters.some((q) => q.s),
    quarters: quarters.map((q) => [q.at, q.c, q.t, q.f, q.k]),
    counties: {},
    states: {},
  };
  type R = {
    at: string;
    k: string;
    o: number;
    p: number | null;
    l: number;
    b: number;
    m: number;
    t: number | null;
    st: boolean;
  };
  const cols = 'quarter_at AS "at", customers_out AS o, pct_out AS p, level AS l, band AS b, magnitude AS m';
  const counties = await db.all<R>(
    `SELECT fips AS k, ${cols}, customers_tracked AS t, stale AS st FROM archive_county
      WHERE quarter_at >= ? AND quarter_at < ? ORDER BY fips, quarter_at`,
    range,
  );
  const states = await db.all<R>(
    `SELECT state AS k, ${cols}, customers_tracked AS t, false AS st FROM archive_state
      WHERE quarter_at >= ? AND quarter_at < ? ORDER BY state, quarter_at`,
    range,
  );
  for (const [rows, into] of [
    [counties, doc.counties],
    [states, doc.states],
  ] as const)
    for (const r of rows) (into[r.k] ??= []).push([index.get(r.at)!, r.o, r.p, r.l, r.b, r.m, r.t, r.st]);
  return doc;
}

/** A month as `YYYY-MM`, its first instant, and the index of a quarter hour within it. */
export const monthOf = (day: string): string => day.slice(0, 7);
export const monthStart = (month: string): number => Date.parse(`${month}-01T00:00:00Z`);
const quarterIndex = (month: string, at: string) => Math.round((Date.parse(at) - monthStart(month)) / QUARTER_MS);

/** The month's reached quarters (finished days only) as runs `[first index, count]`, and its simulated flag. */
export interface MonthDoc {
  month: string;
  simulated: boolean;
  quarters: Array<[number, number]>;
}
/** One county's values in a month: `[quarter index, customers out, customers tracked, stale]` where it had any out. */
export interface CountyMonthDoc {
  fips: string;
  month: string;
  values: Array<[number, number, number | null, boolean]>;
}

/**
 * The function layer's series documents of the month of a finished `day` (issue 25 part 6: a one-year county series
 * reads 12 of each, not 365 national day documents): the month's quarters through `day`, and the month so far of
 * every county with anyone out on `day` (a county without a document had no one out that month).
 */
export async function monthDocs(db: Db, day: string): Promise<{ month: MonthDoc; counties: CountyMonthDoc[] }> {
  const month = monthOf(day);
  const range = [`${month}-01`, nextDay(day)];
  const quarters = await db.all<{ at: string; s: boolean }>(
    'SELECT quarter_at AS "at", simulated AS s FROM archive_quarters WHERE quarter_at >= ? AND quarter_at < ? ORDER BY 1',
    range,
  );
  const runs: Array<[number, number]> = [];
  for (const q of quarters) {
    const i = quarterIndex(month, q.at);
    const last = runs.at(-1);
    if (last && last[0] + last[1] === i) last[1] += 1;
    else runs.push([i, 1]);
  }
  const rows = await db.all<{ k: string; at: string; o: number; t: number | null; st: boolean }>(
    `SELECT fips AS k, quarter_at AS "at", customers_out AS o, customers_tracked AS t, stale AS st FROM archive_county
      WHERE quarter_at >= ? AND quarter_at < ?
        AND fips IN (SELECT fips FROM archive_county WHERE quarter_at >= ? AND quarter_at < ?)
      ORDER BY fips, quarter_at`,
    [...range, day, nextDay(day)],
  );
  const byCounty = new Map<string, CountyMonthDoc>();
  for (const r of rows) {
    const doc = byCounty.get(r.k) ?? byCounty.set(r.k, { fips: r.k, month, values: [] }).get(r.k)!;
    doc.values.push([quarterIndex(month, r.at), r.o, r.t, r.st]);
  }
  return { month: { month, simulated: quarters.some((q) => q.s), quarters: runs }, counties: [...byCounty.values()] };
}
