// Issue 38 part 1: a store written the old way (each cycle stamped with the NEXT quarter mark, so its newest quarter
// was ahead of the clock) is re-stamped when it is opened: every quarter becomes the one its cycle was made in, the
// later cycle winning where two fall in one; a second open changes nothing; and through the real pipeline the days
// are published again with the new names, the episodes grown from them grown again, and the map at a time is the
// quarter containing it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { manualClock } from '../src/clock.ts';
import { loadCountyModel } from '../src/geo/county-model.ts';
import { growEpisodes } from '../src/history/derive.ts';
import { Pipeline } from '../src/pipeline.ts';
import { parseRegistry } from '../src/registry/registry.ts';
import { startServer } from '../src/serve/server.ts';
import { Simulator } from '../src/simulator/server.ts';
import { LOOPBACK_HTTP } from '../src/sources/http.ts';
import { Db } from '../src/state/db.ts';
import { closeAll, makeTempDir, removeTempDir } from './clean-machine.ts';

const Q = 900_000;
const ORANGE = '12095';
/** The old rule, written out here: a cycle at t was stamped with the first quarter mark at or after t. */
const oldMark = (c: string) => new Date(Math.ceil(Date.parse(c) / Q) * Q).toISOString();
/** The rule now: the quarter containing t, named by its start. */
const ownQuarter = (c: string) => new Date(Math.floor(Date.parse(c) / Q) * Q).toISOString();
/** Each cycle's figure for Orange County, so a row tells which cycle wrote it. */
const outAt = (c: string) => 5_000 + new Date(c).getUTCHours() * 60 + new Date(c).getUTCMinutes();

/** The old deployment's cycles: on a mark, two in one old quarter, one across midnight, the last on day 2. */
const CYCLES = [
  '2026-09-01T10:00:00.000Z',
  '2026-09-01T10:05:00.000Z',
  '2026-09-01T10:14:00.000Z',
  '2026-09-01T10:16:00.000Z',
  '2026-09-01T23:50:00.000Z',
  '2026-09-02T00:05:00.000Z',
];

/** What the old store held: per old mark, the last cycle stamped with it. */
const oldStore = () => new Map(CYCLES.map((c) => [oldMark(c), c]));
/** What the store must hold once re-stamped: per quarter, the latest of the old store's cycles made in it. */
function expectedQuarters(): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of oldStore().values()) {
    const q = ownQuarter(c);
    if (!out.has(q) || out.get(q)! < c) out.set(q, c);
  }
  return new Map([...out].sort());
}

/** Writes the old store: its four archive tables, day 1 published, and the episodes grown through day 1. */
async function writeOldStore(stateDir: string): Promise<void> {
  const db = await Db.open(stateDir);
  try {
    for (const [q, c] of oldStore()) {
      await db.run('INSERT INTO archive_quarters VALUES (?, ?, 1, 1, 1000000, ?, true)', [q, c, outAt(c)]);
      await db.run(
        `INSERT INTO archive_county VALUES (?, '${ORANGE}', 'Orange', 'FL', ?, 1000000, NULL, 0.5, 1, 2, 0.5, 1, false)`,
        [q, outAt(c)],
      );
      await db.run("INSERT INTO archive_state VALUES (?, 'FL', ?, 1000000, 0.5, 1, 2, 0.5)", [q, outAt(c)]);
      await db.run("INSERT INTO archive_source VALUES (?, 'old-source', ?, 1000000, true)", [q, outAt(c)]);
    }
    await db.run(
      "INSERT INTO archive_files VALUES ('2026-09-01', 4, 4, 1, 'old', 1, 'old', '2026-09-02T00:05:00.000Z')",
    );
    await growEpisodes(db, loadCountyModel());
  } finally {
    db.close();
  }
}

const dump = (db: Db) =>
  Promise.all(
    ['archive_quarters', 'archive_county', 'archive_state', 'archive_source', 'archive_files', 'meta'].map((t) =>
      db.all(`SELECT * FROM ${t} ORDER BY ALL`),
    ),
  );

/** Runs of quarters at most 60 minutes apart (the episode rule), as [start, end = last + 15 minutes]. */
function runsOf(quarters: string[]): Array<[string, string]> {
  const runs: Array<[number, number]> = [];
  for (const t of quarters.map(Date.parse)) {
    const last = runs.at(-1);
    if (last && t - last[1] <= 60 * 60_000) last[1] = t;
    else runs.push([t, t]);
  }
  return runs.map(([s, e]) => [new Date(s).toISOString(), new Date(e + Q).toISOString()]);
}

describe('a store written the old way', () => {
  const dir = makeTempDir('archive-restamp');
  const stateDir = path.join(dir, 'state');
  afterAll(() => removeTempDir(dir));

  it('is re-stamped on open: each quarter its cycle’s own, the later cycle kept where two share one', async () => {
    await writeOldStore(stateDir);
    const db = await Db.open(stateDir);
    try {
      const want = expectedQuarters();
      expect(db.restamped).toEqual({
        moved: [...oldStore()].filter(([q, c]) => q !== ownQuarter(c) && want.get(ownQuarter(c)) === c).length,
        dropped: oldStore().size - want.size,
        fromDay: '2026-09-01',
      });
      const quarters = await db.all<{ q: string; c: string; n: number }>(
        'SELECT quarter_at AS q, cycle_at AS c, customers_out AS n FROM archive_quarters ORDER BY 1',
      );
      expect(quarters).toEqual([...want].map(([q, c]) => ({ q, c, n: outAt(c) })));
      // every table's rows moved with their quarter (each carries its cycle's figure)
      for (const t of ['archive_county', 'archive_state', 'archive_source']) {
        const rows = await db.all<{ q: string; n: number }>(
          `SELECT quarter_at AS q, customers_out AS n FROM ${t} ORDER BY 1`,
        );
        expect(rows, t).toEqual([...want].map(([q, c]) => ({ q, n: outAt(c) })));
      }
      for (const { q, c } of quarters) expect(q <= c, q).toBe(true);
      // the published days from the first touched are written again, their episodes grown again
      expect(await db.all('SELECT day FROM archive_files')).toEqual([]);
      expect(await db.all("SELECT value FROM meta WHERE key = 'history_archive_day'")).toEqual([{ value: '' }]);
    } finally {
      db.close();
    }
  });

  it('is left as it is by a second open', async () => {
    const first = await Db.open(stateDir);
    const rows = await dump(first);
    first.close();
    const again = await Db.open(stateDir);
    try {
      expect(again.restamped).toBeNull();
      expect(await dump(again)).toEqual(rows);
    } finally {
      again.close();
    }
  });
});

describe('a store written the old way, through the pipeline', () => {
  const dir = makeTempDir('archive-restamp-pipeline');
  const clock = manualClock(new Date('2026-09-03T00:05:00Z'));
  let sim: Simulator;
  let p: Pipeline | undefined;
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  beforeAll(async () => {
    await writeOldStore(path.join(dir, 'state'));
    sim = new Simulator({ clock, seed: 3, epoch: new Date('2026-09-01T00:00:00Z'), sources: 5 });
    await sim.start();
    p = await Pipeline.open({
      stateDir: path.join(dir, 'state'),
      outDir: path.join(dir, 'public'),
      sources: parseRegistry(sim.registryCsv()).sources,
      clock,
      simulated: true,
      http: LOOPBACK_HTTP,
    });
    await p.cycle({ all: true });
    server = await startServer({ outDir: path.join(dir, 'public'), port: 0 });
  });
  afterAll(() =>
    closeAll(
      () => server?.close(),
      () => p?.close(),
      () => sim?.stop(),
      () => removeTempDir(dir),
    ),
  );
  const api = async (q: string) => (await fetch(`${server!.url}${q}`)).json();

  it('publishes the finished days again under the new names', async () => {
    expect(p!.db.restamped).toMatchObject({ fromDay: '2026-09-01' }); // the pipeline's own open re-stamped it
    const want = expectedQuarters();
    for (const day of ['2026-09-01', '2026-09-02']) {
      const csv = fs
        .readFileSync(path.join(dir, `public/api/v1/archive/days/${day}.csv`), 'utf8')
        .trim()
        .split('\n');
      const header = csv[0].split(',');
      const rows = csv.slice(1).map((l) => Object.fromEntries(l.split(',').map((v, i) => [header[i], v])));
      const mine = [...want].filter(([q]) => q.startsWith(day));
      expect(rows.map((r) => [r.run_start_time, Number(r.customers_out)])).toEqual(
        mine.map(([q, c]) => [q.slice(0, 19).replace('T', ' '), outAt(c)]),
      );
    }
    const index = (await api('/api/v1/archive')).data;
    expect(index.days.map((d: { day: string }) => d.day)).toEqual(['2026-09-01', '2026-09-02']);
    expect(index.first_quarter).toBe([...want.keys()][0]);
    expect(index.last_quarter).toBe('2026-09-03T00:00:00.000Z'); // this cycle's own quarter, not 00:15
    expect(Date.parse(index.last_quarter)).toBeLessThanOrEqual(Date.parse(index.generated_at));
  });

  it('answers the map at a time with the quarter containing it', async () => {
    for (const [q, c] of expectedQuarters()) {
      const at = new Date(Date.parse(q) + 7 * 60_000).toISOString();
      const body = (await api(`/api/v1/archive/map?at=${at}`)).data;
      expect(body.quarter_at, at).toBe(q);
      expect(body.coverage.cycle_at).toBe(c);
      expect(body.map[ORANGE]?.[0]).toBe(outAt(c));
    }
  });

  it("grows the episodes again from the re-stamped days: none starts or ends at an old quarter's name", async () => {
    const rows = await p!.db.all<{ s: string; e: string }>(
      `SELECT strftime(start_at, '%Y-%m-%dT%H:%M:%S.000Z') AS s, strftime(end_at, '%Y-%m-%dT%H:%M:%S.000Z') AS e
         FROM episodes WHERE fips = ? ORDER BY 1`,
      [ORANGE],
    );
    expect(rows.map((r) => [r.s, r.e])).toEqual(runsOf([...expectedQuarters().keys()]));
  });
});
