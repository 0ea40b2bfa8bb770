// The archive proven on real storms (issue 25 part 7): recorded sequences (../shared/data/sequences) replayed over HTTP
// on 127.0.0.1 through the real poll, one version per cycle at its commit time, then one cycle past midnight so every
// day they span is finished and published. The archived quarters equal the test's own reading of the payloads in force
// at each quarter mark; each finished day's published Parquet reads back in DuckDB with the archive's rows; the
// episodes of the worst counties equal the rule computed here from those quarters.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/clock.ts';
import { endpoint } from '../src/contract/catalogue.ts';
import { fileFor, urlFor } from '../src/contract/urls.ts';
import { countyModel, loadCountyModel } from '../src/geo/county-model.ts';
import { deriveEpisodes } from '../src/history/derive.ts';
import { Pipeline } from '../src/pipeline.ts';
import { MemoryTreeWriter } from '../src/publish/tree-writer.ts';
import { LOOPBACK_HTTP } from '../src/sources/http.ts';
import { parseRegistry } from '../src/registry/registry.ts';
import { type Episode, episodesOf, type Reading, STORMS, type Storm } from './archive-replay-storms.ts';
import { closeAll, testTempDir } from './clean-machine.ts';
import { replayServer, type ReplayServer, type Version, versionBytes, versions } from './sequence-server.ts';
import { hasSharedData } from './shared-data.ts';

const QUARTER_MS = 15 * 60_000;
const DAY_MS = 86_400_000;
/** The quarter a cycle at `ms` writes: the one containing it, named by its start, as the archive keys it. */
const markOf = (ms: number) => new Date(Math.floor(ms / QUARTER_MS) * QUARTER_MS).toISOString();
const HEADER = 'id,utility,state,connector,url,interval_min,tier,options';

/**
 * Every `stride`-th version and the last, and a version that writes the same quarter as the picked one before it (so
 * the replay keeps the quarters where a later cycle replaces an earlier one).
 */
const pick = (all: Version[], stride: number): Version[] =>
  all.filter(
    (v, i) =>
      i % stride === 0 ||
      i === all.length - 1 ||
      ((i - 1) % stride === 0 && markOf(Date.parse(all[i - 1].at)) === markOf(Date.parse(v.at))),
  );

interface Cycle {
  at: string;
  file: string;
}

/** What the test expects of the archive, from its own reading of the version each cycle polled. */
class Expected {
  /** quarter mark → the cycles that wrote it, in order (the last is in force) */
  readonly quarters = new Map<string, Cycle[]>();
  private readonly readings = new Map<string, Reading>();
  constructor(
    private readonly storm: Storm,
    cycles: Cycle[],
  ) {
    for (const c of cycles) {
      const q = markOf(Date.parse(c.at));
      this.quarters.set(q, [...(this.quarters.get(q) ?? []), c]);
    }
  }
  reading(file: string): Reading {
    let r = this.readings.get(file);
    if (!r) this.readings.set(file, (r = this.storm.read(versionBytes(this.storm.seq, file))));
    return r;
  }
  /** the reading in force at a quarter mark */
  at(q: string): Reading {
    return this.reading(this.quarters.get(q)!.at(-1)!.file);
  }
  /** the days before the last cycle's: finished, published, and the only ones history is derived from */
  finishedDays(): string[] {
    const days = [...new Set([...this.quarters.keys()].map((q) => q.slice(0, 10)))].sort();
    return days.slice(0, -1);
  }
}

const rowsBy = <T extends { q: string }>(rows: T[]) => {
  const m = new Map<string, T[]>();
  for (const r of rows) m.set(r.q, [...(m.get(r.q) ?? []), r]);
  return m;
};

for (const storm of STORMS) {
  describe.skipIf(!hasSharedData)(`the archive replaying ${storm.title}`, () => {
    const all = versions(storm.seq);
    const picked = pick(all, storm.stride);
    let server: ReplayServer | undefined;
    let p: Pipeline | undefined;
    const mem = new MemoryTreeWriter(new Date(0));
    const cycles: Cycle[] = [];
    let expected: Expected;

    beforeAll(async () => {
      server = await replayServer(storm.seq, storm.wrap ?? ((raw) => raw));
      const clock = manualClock(new Date(picked[0].at));
      const { sources, problems } = parseRegistry(`${HEADER}\n${storm.row(server.base)}\n`);
      expect(problems).toEqual([]);
      p = await Pipeline.open({
        stateDir: ':memory:',
        outDir: '',
        sources,
        clock,
        simulated: false,
        http: LOOPBACK_HTTP,
        writer: (now) => {
          mem.now = now;
          return mem;
        },
      });
      // Every picked version at its commit time, then the last one again just after the next midnight.
      const last = picked.at(-1)!;
      const end = new Date((Math.floor(Date.parse(last.at) / DAY_MS) + 1) * DAY_MS + 5 * 60_000).toISOString();
      for (const c of [
        ...picked.map((v) => ({ at: new Date(v.at).toISOString(), file: v.file })),
        { at: end, file: last.file },
      ]) {
        server.state.file = c.file;
        clock.set(new Date(c.at));
        const s = await p.cycle({ all: true });
        expect(s.failures, `cycle at ${c.at} (${c.file})`).toEqual([]);
        cycles.push(c);
      }
      expected = new Expected(storm, cycles);
    }, 300_000); // a guard against a hang, sized for the longest replay (150 cycles) on a busy 2-core machine
    afterAll(() =>
      closeAll(
        () => p?.close(),
        () => server?.close(),
      ),
    );

    it("archives the feed's own counts in force at every quarter mark", async () => {
      const db = p!.db;
      const quarters = await db.all<{ q: string; c: string }>(
        'SELECT quarter_at AS q, cycle_at AS c FROM archive_quarters ORDER BY quarter_at',
      );
      expect(quarters.map((r) => r.q)).toEqual([...expected.quarters.keys()].sort());
      // the cycle in force wrote it (one of the quarter's own: a later cycle that found nothing new writes nothing)
      for (const r of quarters)
        expect(
          expected.quarters.get(r.q)!.map((c) => c.at),
          r.q,
        ).toContain(r.c);

      const counties = rowsBy(
        await db.all<{ q: string; fips: string; n: number }>(
          'SELECT quarter_at AS q, fips, customers_out AS n FROM archive_county ORDER BY quarter_at, fips',
        ),
      );
      const states = new Map(
        (
          await db.all<{ q: string; n: number }>(
            'SELECT quarter_at AS q, customers_out AS n FROM archive_state WHERE state = ?',
            [storm.state],
          )
        ).map((r) => [r.q, r.n]),
      );
      const sources = new Map(
        (
          await db.all<{ q: string; n: number | null; fresh: boolean }>(
            'SELECT quarter_at AS q, customers_out AS n, fresh FROM archive_source WHERE source_id = ?',
            [storm.source],
          )
        ).map((r) => [r.q, r]),
      );
      for (const q of expected.quarters.keys()) {
        const want = expected.at(q);
        const nonzero = [...want.counties].filter(([, n]) => n > 0).sort(([a], [b]) => a.localeCompare(b));
        const got = (counties.get(q) ?? []).map((r) => [r.fips, r.n]);
        expect(got, `counties at ${q}`).toEqual(nonzero);
        expect(states.get(q), `${storm.state} at ${q}`).toBe(nonzero.reduce((s, [, n]) => s + n, 0));
        expect(sources.get(q), `${storm.source} at ${q}`).toEqual({ q, n: want.total, fresh: true });
      }
    });

    it("publishes each finished day as Parquet that reads back in DuckDB with the archive's rows", async () => {
      const days = expected.finishedDays();
      const index = JSON.parse(mem.files.get(fileFor(endpoint('archive'), {}, 'json'))!.body.toString('utf8')).data as {
        days: Array<{ day: string; rows: number; parquet: { url: string; bytes: number; sha256: string } }>;
      };
      expect(index.days.map((d) => d.day)).toEqual(days);
      const dir = testTempDir('archive-replay');
      const duck = await DuckDBInstance.create(':memory:');
      const conn = await duck.connect();
      try {
        for (const d of index.days) {
          expect(d.parquet.url).toBe(urlFor(endpoint('archive.day'), { date: d.day }));
          const rel = fileFor(endpoint('archive.day'), { date: d.day }, 'parquet');
          const bytes = mem.files.get(rel)!.body;
          expect(bytes.length).toBe(d.parquet.bytes);
          expect(createHash('sha256').update(bytes).digest('hex')).toBe(d.parquet.sha256);
          const file = path.join(dir, `${d.day}.parquet`);
          fs.writeFileSync(file, bytes);
          // run_start_time is a UTC timestamp in Parquet: read as its instant, whatever the session's zone
          const read = await conn.runAndReadAll(
            `SELECT fips, customers_out, epoch_ms(run_start_time) AS run_start_time FROM read_parquet('${file}')
              ORDER BY run_start_time, fips`,
          );
          const parquet = read.getRowObjectsJS().map((r) => ({
            fips: r.fips,
            customers_out: Number(r.customers_out),
            run_start_time: new Date(Number(r.run_start_time)).toISOString(),
          }));
          const archived = (
            await p!.db.all<{ fips: string; customers_out: number; q: string }>(
              `SELECT fips, customers_out, quarter_at AS q FROM archive_county
                WHERE quarter_at >= ? AND quarter_at < ? ORDER BY quarter_at, fips`,
              [d.day, new Date(Date.parse(d.day) + DAY_MS).toISOString().slice(0, 10)],
            )
          ).map((r) => ({
            fips: r.fips,
            customers_out: r.customers_out,
            run_start_time: r.q,
          }));
          expect(parquet.length, d.day).toBe(d.rows);
          expect(parquet, d.day).toEqual(archived);
          // and so the payloads' own counts of the day's quarters
          const ours = [...expected.quarters.keys()]
            .filter((q) => q.startsWith(d.day))
            .sort()
            .flatMap((q) =>
              [...expected.at(q).counties]
                .filter(([, n]) => n > 0)
                .sort(([a], [b]) => a.localeCompare(b))
                .map(([fips, n]) => ({ fips, customers_out: n, run_start_time: q })),
            );
          expect(parquet, d.day).toEqual(ours);
          const codecs = await conn.runAndReadAll(`SELECT DISTINCT compression FROM parquet_metadata('${file}')`);
          // a day with no county row (a headline-only feed) has no row group to compress
          expect(codecs.getRowObjectsJS().map((r) => r.compression)).toEqual(d.rows ? ['ZSTD'] : []);
        }
      } finally {
        conn.closeSync();
        duck.closeSync();
      }
    });

    it("derives the worst counties' episodes as the rule computed here from the payloads", async () => {
      const db = p!.db;
      const model = await countyModel(db, loadCountyModel());
      // the county series of the finished days, from the test's own readings
      const finished = new Set(expected.finishedDays());
      const series = new Map<string, Array<[number, number]>>();
      for (const q of expected.quarters.keys()) {
        if (!finished.has(q.slice(0, 10))) continue;
        for (const [fips, n] of expected.at(q).counties)
          if (n > 0) series.set(fips, [...(series.get(fips) ?? []), [Date.parse(q), n]]);
      }
      const peak = (fips: string) => Math.max(...series.get(fips)!.map(([, n]) => n));
      const worst = [...series.keys()].sort((a, b) => peak(b) - peak(a) || a.localeCompare(b)).slice(0, 3);
      const ours: Episode[] = worst.flatMap((f) => episodesOf(f, series.get(f)!, model.get(f)));
      const stored = () =>
        db.all<Episode & { origin: string }>(
          `SELECT fips, strftime(start_at, '%Y-%m-%dT%H:%M:%SZ') AS start_at, strftime(end_at, '%Y-%m-%dT%H:%M:%SZ') AS end_at,
                  peak, customer_hours, duration_h, size_class, threshold, origin
             FROM episodes WHERE origin = 'archive' AND list_contains(?::VARCHAR[], fips) ORDER BY fips, start_at`,
          [`[${worst.join(',')}]`],
        );
      const sorted = ours.map((e) => ({ ...e, origin: 'archive' })).sort((a, b) => a.fips.localeCompare(b.fips));
      // as the poll loop grew them, day by day, from each day it published
      expect(await stored()).toEqual(sorted);
      // and as a whole derivation makes them
      await deriveEpisodes(db, model);
      expect(await stored()).toEqual(sorted);
      const [{ other }] = await db.all<{ other: number }>(
        "SELECT count(*)::INT AS other FROM episodes WHERE origin <> 'archive'",
      );
      expect(other).toBe(0);
      if (series.size > 0) expect(ours.length).toBeGreaterThan(0);
      else {
        // a feed read for its headline only (DTE's summary) places no one in a county: no county has an episode
        const [{ n }] = await db.all<{ n: number }>('SELECT count(*)::INT AS n FROM episodes');
        expect(n).toBe(0);
      }
    });
  });
}
