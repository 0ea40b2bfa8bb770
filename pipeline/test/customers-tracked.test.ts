// Coverage you have (issue 36 part 5): customers_tracked is the customers served by the sources polled and fresh, per
// county (the feed's served count, else the row's customers over its EIA-861 territory), summed for states, the nation
// and the archive quarter; null where no fresh source serves. Expectations are computed here from the committed
// tables, never copied from output.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parse } from 'csv-parse/sync';
import { fromRoot } from '../src/package-root.ts';
import { loadRegistry } from '../src/registry/registry.ts';
import type { SourceDef } from '../src/sources/source-def.ts';
import { Db } from '../src/state/db.ts';
import { computeLive } from '../src/state/rollup.ts';
import { recordArchive } from '../src/state/archive.ts';
import { blankStatus, type SourceStatus } from '../src/state/status.ts';
import { loadCountyModel } from '../src/geo/county-model.ts';
import { makeTempDir, removeTempDir } from './clean-machine.ts';

const now = new Date('2026-09-01T10:07:00Z');
const sources = loadRegistry(fromRoot('data/sources.csv')).sources;
const model = loadCountyModel();
const fpl = sources.find((s) => s.id === 'fpl')!;
const cobb = sources.find((s) => s.id === 'cobb-emc')!;
const odin = sources.find((s) => s.connector === 'odin')!;

/** The territory table read on its own: FIPS of the utilities `ids` in `states`. */
const territoryRows = parse(fs.readFileSync(fromRoot('data/reference/eia861-territory.csv')), {
  columns: true,
}) as Array<{
  utility_number: string;
  state: string;
  fips: string;
}>;
const territoryOf = (s: SourceDef) => [
  ...new Set(
    territoryRows.filter((r) => s.eia_ids.includes(r.utility_number) && s.states.includes(r.state)).map((r) => r.fips),
  ),
];

/** A row's customers over its territory by modelled customers, capped at the county's customers (no feed counts). */
function expectedShares(s: SourceDef): Map<string, number> {
  const counties = territoryOf(s);
  const total = counties.reduce((n, f) => n + (model.get(f) ?? 0), 0);
  return new Map(counties.map((f) => [f, ((s.customers ?? 0) * (model.get(f) ?? 0)) / total]));
}
const published = (raw: number, fips: string) => Math.min(Math.round(raw), model.get(fips) ?? Infinity);

const status = (s: SourceDef, minutesAgo: number): SourceStatus => ({
  ...blankStatus(s.id),
  last_attempt_at: new Date(now.getTime() - minutesAgo * 60_000).toISOString(),
  last_success_at: new Date(now.getTime() - minutesAgo * 60_000).toISOString(),
  unit: s.connector === 'odin' ? 'meters' : 'customers',
});

let db: Db;
beforeAll(async () => {
  db = await Db.open(':memory:');
});
afterAll(() => db.close());

async function observe(rows: Array<[string, string, number, number | null]>): Promise<void> {
  await db.run('DELETE FROM obs_county');
  for (const r of rows)
    await db.run('INSERT INTO obs_county (source_id, fips, customers_out, customers_served) VALUES (?, ?, ?, ?)', r);
}

describe('customers_tracked with one FPL row polled', () => {
  it("is FPL's customers over its territory in Florida and the nation, not every county's customers", async () => {
    const shares = expectedShares(fpl);
    const [inside] = [...shares.keys()].sort();
    await observe([[fpl.id, inside, 120, null]]);
    const live = await computeLive(db, sources, new Map([[fpl.id, status(fpl, 1)]]), model, now);

    const florida = [...shares].reduce((n, [f, v]) => n + published(v, f), 0);
    expect(florida).toBeGreaterThan(fpl.customers! * 0.99);
    expect(florida).toBeLessThanOrEqual(fpl.customers! + shares.size);
    expect(live.states.find((s) => s.state === 'FL')!.customers_tracked).toBe(florida);
    expect(live.national.customers_tracked).toBe(florida);
    // the old meaning, every county's denominator, was about 30 times larger
    const allCustomers = live.counties.reduce((n, c) => n + (c.denominator ?? 0), 0);
    expect(allCustomers).toBeGreaterThan(florida * 20);

    const byFips = new Map(live.counties.map((c) => [c.fips, c]));
    for (const [f, v] of shares) expect(byFips.get(f)!.customers_tracked, f).toBe(published(v, f));
    const outsideFl = live.counties.find((c) => c.state === 'FL' && !shares.has(c.fips))!;
    expect(outsideFl.customers_tracked).toBeNull();
    expect(byFips.get('06037')!.customers_tracked).toBeNull();
    expect(live.states.find((s) => s.state === 'CA')!.customers_tracked).toBeNull();
    // pct_out keeps its meaning: the share of the county's (and the state's) customers
    expect(byFips.get(inside)!.pct_out).toBe(Math.round((120 / byFips.get(inside)!.denominator!) * 100 * 100) / 100);

    const q = await recordArchive(db, {
      live,
      sources,
      statuses: new Map([[fpl.id, status(fpl, 1)]]),
      now,
      simulated: false,
    });
    const [quarter] = await db.all<{ k: number }>(
      'SELECT customers_tracked AS k FROM archive_quarters WHERE quarter_at = ?',
      [q],
    );
    expect(quarter.k).toBe(florida);
    const states = await db.all<{ state: string; k: number | null }>(
      'SELECT state, customers_tracked AS k FROM archive_state WHERE quarter_at = ? ORDER BY state',
      [q],
    );
    expect(states.find((s) => s.state === 'FL')!.k).toBe(florida);
    expect(states.find((s) => s.state === 'TX')!.k).toBeNull();
    const [county] = await db.all<{ k: number }>(
      'SELECT customers_tracked AS k FROM archive_county WHERE quarter_at = ?',
      [q],
    );
    expect(county.k).toBe(published(shares.get(inside)!, inside));
  });

  it("takes the feed's own served count for a county where the feed gives one", async () => {
    const shares = expectedShares(fpl);
    const [inside] = [...shares.keys()].sort();
    const served = Math.round((model.get(inside) ?? 0) / 2);
    await observe([[fpl.id, inside, 120, served]]);
    const live = await computeLive(db, sources, new Map([[fpl.id, status(fpl, 1)]]), model, now);
    expect(live.counties.find((c) => c.fips === inside)!.customers_tracked).toBe(served);
    const florida = [...shares].reduce((n, [f, v]) => n + (f === inside ? served : published(v, f)), 0);
    expect(live.states.find((s) => s.state === 'FL')!.customers_tracked).toBe(florida);
  });
});

describe('customers_tracked and freshness', () => {
  it("drops a stale source's counties; none fresh is null, not 0", async () => {
    await observe([]);
    const fplShares = expectedShares(fpl);
    const florida = [...fplShares].reduce((n, [f, v]) => n + published(v, f), 0);
    const cobbCounties = territoryOf(cobb);
    expect(cobbCounties.length).toBeGreaterThan(0);
    const georgia = [...expectedShares(cobb)].reduce((n, [f, v]) => n + published(v, f), 0);
    expect(georgia).toBeGreaterThan(cobb.customers! * 0.99);

    // both fresh: Georgia's tracked customers are Cobb EMC's, the nation's FPL's and Cobb's
    const statuses = new Map([
      [fpl.id, status(fpl, 1)],
      [cobb.id, status(cobb, 2)],
    ]);
    const both = await computeLive(db, sources, statuses, model, now);
    expect(both.states.find((s) => s.state === 'GA')!.customers_tracked).toBe(georgia);
    expect(both.national.customers_tracked).toBe(florida + georgia);

    // a day since Cobb EMC's last good poll: stale, its counties drop out
    statuses.set(cobb.id, status(cobb, 24 * 60));
    const live = await computeLive(db, sources, statuses, model, now);
    const byFips = new Map(live.counties.map((c) => [c.fips, c]));
    for (const f of cobbCounties) expect(byFips.get(f)!.customers_tracked, f).toBeNull();
    expect(live.states.find((s) => s.state === 'GA')!.customers_tracked).toBeNull();
    expect(live.states.find((s) => s.state === 'FL')!.customers_tracked).toBe(florida);
    expect(live.national.customers_tracked).toBe(florida);

    const none = await computeLive(db, sources, new Map([[fpl.id, status(fpl, 24 * 60)]]), model, now);
    expect(none.national.customers_tracked).toBeNull();
    expect(none.states.every((s) => s.customers_tracked === null)).toBe(true);
    expect(none.counties.every((c) => c.customers_tracked === null)).toBe(true);
  });

  it('counts a fresh ODIN row only where it publishes a served count (it publishes none)', async () => {
    await observe([[odin.id, '06037', 500, null]]);
    const live = await computeLive(db, sources, new Map([[odin.id, status(odin, 1)]]), model, now);
    expect(live.counties.find((c) => c.fips === '06037')!.customers_out).toBe(500);
    expect(live.national.customers_tracked).toBeNull();
  });
});

describe('a state database from before customers_tracked could be null', () => {
  it('accepts a null customers_tracked in archive_quarters and archive_state once opened', async () => {
    const dir = makeTempDir('tracked-upgrade');
    try {
      const old = await DuckDBInstance.create(path.join(dir, 'outage.duckdb'));
      const conn = await old.connect();
      await conn.run(`CREATE TABLE archive_quarters (quarter_at VARCHAR PRIMARY KEY, cycle_at VARCHAR NOT NULL,
        sources_total INTEGER NOT NULL, sources_fresh INTEGER NOT NULL, customers_tracked BIGINT NOT NULL,
        customers_out BIGINT NOT NULL, simulated BOOLEAN NOT NULL)`);
      await conn.run(`CREATE TABLE archive_state (quarter_at VARCHAR NOT NULL, state VARCHAR NOT NULL,
        customers_out BIGINT NOT NULL, customers_tracked BIGINT NOT NULL, pct_out DOUBLE, band INTEGER NOT NULL,
        magnitude INTEGER NOT NULL, level DOUBLE NOT NULL)`);
      conn.closeSync();
      old.closeSync();
      const upgraded = await Db.open(dir);
      try {
        await upgraded.run("INSERT INTO archive_quarters VALUES ('q', 'c', 1, 0, NULL, 0, false)");
        await upgraded.run("INSERT INTO archive_state VALUES ('q', 'FL', 0, NULL, NULL, 0, 0, 0)");
        const rows = await upgraded.all<{ k: number | null }>('SELECT customers_tracked AS k FROM archive_state');
        expect(rows).toEqual([{ k: null }]);
      } finally {
        upgraded.close();
      }
    } finally {
      removeTempDir(dir);
    }
  });
});
