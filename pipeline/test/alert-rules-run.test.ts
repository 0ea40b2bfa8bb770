// Alert rules in a running pipeline: the simulator over HTTP → a cycle → the cycle's events delivered to a rule's
// signed webhook, a scheduled sync push with the county snapshot, and a watched county whose sources are polled
// hardened.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { manualClock } from '../src/clock.ts';
import { Simulator } from '../src/simulator/server.ts';
import { parseRegistry } from '../src/registry/registry.ts';
import type { SourceDef } from '../src/sources/source-def.ts';
import { Pipeline } from '../src/pipeline.ts';
import { LOOPBACK_HTTP } from '../src/sources/http.ts';
import { AccountsRuntime, newestEventId } from '../src/accounts/runtime.ts';
import { logMailer } from '../src/accounts/mailer.ts';
import { verifySignature } from '../src/accounts/signing.ts';
import { receiver, testDb } from './accounts-support.ts';
import type { Sql } from '../src/accounts/sql.ts';
import { closeAll, makeTempDir, removeTempDir } from './clean-machine.ts';
import { until } from './scripted-feed.ts';

const clock = manualClock(new Date('2026-09-01T08:00:00Z'));
const dir = makeTempDir('rules-run');
const out = path.join(dir, 'public');
let sim: Simulator;
let sources: SourceDef[];
let pipeline: Pipeline;
let rt: AccountsRuntime;
let sql: Sql;
let drop: () => Promise<void>;
let hook: Awaited<ReturnType<typeof receiver>>;

beforeAll(async () => {
  sim = new Simulator({ clock, seed: 3, epoch: new Date('2026-09-01T00:00:00Z'), sources: 30, areasPerCounty: 2 });
  await sim.start();
  sources = parseRegistry(sim.registryCsv()).sources;
  ({ sql, drop } = await testDb());
  hook = await receiver();
  rt = await AccountsRuntime.open({
    stateDir: dir,
    outDir: out,
    baseUrl: 'https://outage.test',
    clock,
    log: () => {},
    mailer: logMailer(() => {}),
    sql,
    safety: { allowLoopback: true },
  });
  pipeline = await Pipeline.open({
    stateDir: path.join(dir, 'state'),
    outDir: out,
    sources,
    clock,
    simulated: true,
    http: LOOPBACK_HTTP,
    watchedCounties: () => rt.watched,
  });
  await rt.attach(await newestEventId(pipeline.db)); // an empty event stream: the cursor starts at 0
});

afterAll(() =>
  closeAll(
    () => pipeline?.close(),
    () => rt?.close(),
    () => hook?.close(),
    () => sim?.stop(),
    () => drop?.(),
    () => removeTempDir(dir),
  ),
);

describe('alert rules in a running pipeline', () => {
  it("delivers the cycle's events and a sync push for the rule's county, and hardens the watched county's sources", async () => {
    await pipeline.cycle({ all: true });
    // the county with the most customers out
    const map = JSON.parse(fs.readFileSync(path.join(out, 'api/v1/live/map.json'), 'utf8')).data as Record<
      string,
      number[]
    >;
    const [fips] = Object.entries(map)
      .filter(([k]) => /^\d{5}$/.test(k))
      .sort((a, b) => b[1][0] - a[1][0])[0];
    const now = clock();
    await sql.query('INSERT INTO accounts (id, email, created_at, verified_at) VALUES ($1, $2, $3, $3)', [
      'acct_run',
      'run@example.org',
      now,
    ]);
    const account = {
      id: 'acct_run',
      email: 'run@example.org',
      created_at: now.toISOString(),
      verified_at: now.toISOString(),
    };
    const rule = await rt.service.createRule(account, {
      name: 'Worst county',
      scope: { kind: 'county', fips },
      watch: true,
      sync_interval_min: 15,
      channels: [{ type: 'webhook', url: hook.url }],
    });
    const secret = rule.channel_status[0].signing_secret!;
    const d = await rt.afterCycle(pipeline.db);
    expect(d.events).toBeGreaterThan(0);
    const bodies = hook.hits.map((h) => ({ h, b: JSON.parse(h.body) }));
    for (const { h } of bodies)
      expect(
        verifySignature(
          h.headers['service-signature'] as string,
          h.body,
          [secret],
          Math.floor(clock().getTime() / 1000),
        ),
      ).toBe(true);
    const events = bodies.filter(({ b }) => b.type.startsWith('event.'));
    expect(events.length).toBeGreaterThan(0);
    expect(events.every(({ b }) => b.data.fips === fips)).toBe(true);
    expect(events.some(({ b }) => b.type === 'event.outage_began' && b.data.scope === 'county')).toBe(true);
    const sync = bodies.find(({ b }) => b.type === 'sync.snapshot')!.b;
    expect(sync.data.counties[0]).toMatchObject({ fips, customers_out: map[fips][0] });
    expect(sync.data.states[0].state).toBe(sync.data.counties[0].state);
    expect(Array.isArray(sync.data.areas)).toBe(true);
    // the next cycle polls the sources covering the watched county hardened
    expect(rt.watched).toEqual(new Set([fips]));
    clock.advance(60_000);
    await pipeline.cycle({ all: true });
    const doc = JSON.parse(fs.readFileSync(path.join(out, 'api/v1/live/sources.json'), 'utf8')).data;
    const covering = JSON.parse(
      fs.readFileSync(path.join(out, `api/v1/live/counties/${fips}.json`), 'utf8'),
    ).data.sources.map((s: { source_id: string }) => s.source_id);
    const rows = doc.sources.filter((s: { id: string }) => covering.includes(s.id));
    expect(rows.length).toBeGreaterThan(0);
    for (const s of rows)
      expect(s.interval_min).toBe(Math.max(2, Math.ceil(sources.find((x) => x.id === s.id)!.interval_min / 3)));
    // the second cycle's deliveries carry only events the first batch did not
    const firstIds = new Set(hook.hits.map((h) => h.headers['service-event-id']));
    const firstCount = hook.hits.length;
    await rt.afterCycle(pipeline.db);
    const secondIds = hook.hits.slice(firstCount).map((h) => h.headers['service-event-id']);
    expect(secondIds.filter((id) => firstIds.has(id))).toEqual([]);
    // every delivery names its event, and no event id arrives twice
    const ids = hook.hits.map((h) => h.headers['service-event-id']);
    expect(ids.every((id) => typeof id === 'string' && /^(evt_\d+|sync:)/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    // nothing new since: nothing is read, queued or sent again
    const settled = hook.hits.length;
    const again = await rt.afterCycle(pipeline.db);
    expect(again).toMatchObject({ events: 0, enqueued: 0 });
    expect(hook.hits.length).toBe(settled);
  });

  it("starts a new account database at the newest stored event: the stream's history is not delivered to today's rules", async () => {
    const fresh = await testDb();
    const rt2 = await AccountsRuntime.open({
      stateDir: dir,
      outDir: out,
      baseUrl: 'https://outage.test',
      clock,
      log: () => {},
      mailer: logMailer(() => {}),
      sql: fresh.sql,
      safety: { allowLoopback: true },
    });
    try {
      const now = clock();
      await fresh.sql.query('INSERT INTO accounts (id, email, created_at, verified_at) VALUES ($1, $2, $3, $3)', [
        'acct_new',
        'new@example.org',
        now,
      ]);
      await rt2.service.createRule(
        { id: 'acct_new', email: 'new@example.org', created_at: now.toISOString(), verified_at: now.toISOString() },
        {
          name: 'Everything in every state',
          scope: { kind: 'state', state: 'FL' },
          channels: [{ type: 'webhook', url: hook.url }],
        },
      );
      await rt2.attach(await newestEventId(pipeline.db));
      const [{ max }] = await pipeline.db.all<{ max: number }>('SELECT max(id)::INT AS max FROM events');
      expect(max).toBeGreaterThan(0);
      expect(await rt2.engine.cursor()).toBe(max);
      expect((await rt2.afterCycle(pipeline.db)).events).toBe(0);
    } finally {
      await rt2.close();
      await fresh.drop();
    }
  });

  it('hands the sending to its own run: the cycle is not held by a receiver that never answers (issue 37 part 3)', async () => {
    const stuck = await receiver(() => ({ status: 200, delayMs: 3_600_000 })); // never answers within the test
    const now = clock();
    await sql.query('INSERT INTO accounts (id, email, created_at, verified_at) VALUES ($1, $2, $3, $3)', [
      'acct_stuck',
      'stuck@example.org',
      now,
    ]);
    try {
      const account = {
        id: 'acct_stuck',
        email: 'stuck@example.org',
        created_at: now.toISOString(),
        verified_at: now.toISOString(),
      };
      const fips = [...rt.watched][0];
      await rt.service.createRule(account, {
        name: 'A receiver that never answers',
        scope: { kind: 'county', fips },
        sync_interval_min: 15,
        channels: [{ type: 'webhook', url: stuck.url }],
      });
      const cycle = rt.afterCycle(pipeline.db, { wait: false });
      let returned = false;
      void cycle.then(() => (returned = true));
      // The sync push reaches the receiver, which holds it; the cycle's part has already returned.
      await until(() => stuck.hits.length > 0, 600_000);
      await new Promise((r) => setImmediate(r));
      expect(returned).toBe(true);
      expect((await cycle).stats).toBeNull();
    } finally {
      await stuck.close(); // the held request ends; the run records it as a failure to retry
      await rt.send(); // after the run in progress, so nothing is recorded against a rule deleted under it
      await sql.query("DELETE FROM rules WHERE account_id = 'acct_stuck'");
    }
  });
});
