// The event stream end to end: a simulated storm over HTTP → cycles on the injected clock → events in DuckDB →
// /api/v1/events and the feeds through the real server (prebuilt and function layer), while cycles keep running.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import Parser from 'rss-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { manualClock } from '../src/clock.ts';
import { Simulator } from '../src/simulator/server.ts';
import { parseRegistry } from '../src/registry/registry.ts';
import type { SourceDef } from '../src/sources/source-def.ts';
import { Pipeline } from '../src/pipeline.ts';
import { LOOPBACK_HTTP } from '../src/sources/http.ts';
import { startServer } from '../src/serve/server.ts';
import { EVENT_SELECT, type EventRow } from '../src/state/events.ts';
import type { PublicEvent } from '../src/contract/events.ts';
import { closeAll, makeTempDir, removeTempDir } from './clean-machine.ts';

const T0 = new Date('2026-09-01T04:00:00Z');
const clock = manualClock(T0);
const dir = makeTempDir('events');
let sim: Simulator;
let sources: SourceDef[];
let pipeline: Pipeline;
let server: Awaited<ReturnType<typeof startServer>>;

const get = async (p: string) => {
  const res = await fetch(`${server.url}${p}`);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
};
const getJson = async (p: string) => {
  const r = await get(p);
  return { status: r.status, body: JSON.parse(r.text) };
};

beforeAll(async () => {
  sim = new Simulator({ clock, seed: 1, epoch: new Date('2026-09-01T00:00:00Z'), sources: 40, areasPerCounty: 2 });
  await sim.start();
  sources = parseRegistry(sim.registryCsv()).sources;
  pipeline = await Pipeline.open({
    stateDir: path.join(dir, 'state'),
    outDir: path.join(dir, 'public'),
    sources,
    clock,
    simulated: true,
    http: LOOPBACK_HTTP,
  });
  server = await startServer({ outDir: path.join(dir, 'public'), port: 0 });
  for (let i = 0; i < 4; i++) {
    await pipeline.cycle({ all: true });
    clock.advance(30 * 60_000);
  }
});

afterAll(() =>
  closeAll(
    () => server?.close(),
    () => pipeline?.close(),
    () => sim?.stop(),
    () => removeTempDir(dir),
  ),
);

describe('event stream', () => {
  it('records outages opening in every scope as the storm arrives', async () => {
    const rows = await pipeline.db.all<{ scope: string; kind: string; n: number }>(
      'SELECT scope, kind, count(*)::INT AS n FROM events GROUP BY ALL',
    );
    const began = Object.fromEntries(rows.filter((r) => r.kind === 'outage_began').map((r) => [r.scope, r.n]));
    expect(began.county).toBeGreaterThan(0);
    expect(began.municipality).toBeGreaterThan(0);
    expect(began.utility).toBeGreaterThan(0);
    const open = await pipeline.db.all<{ n: number }>('SELECT count(*)::INT AS n FROM outages WHERE closed_at IS NULL');
    expect(open[0].n).toBeGreaterThan(0);
  });

  it('serves the prebuilt latest page and filtered pages from the function layer', async () => {
    const { body } = await getJson('/api/v1/events');
    const [{ max }] = await pipeline.db.all<{ max: number }>('SELECT max(id)::INT AS max FROM events');
    expect(body.data.events[0].id).toBe(max);
    expect(body.data.events.length).toBe(Math.min(100, max));
    const county = body.data.events.find((e: PublicEvent) => e.scope === 'county');
    const filtered = await getJson(`/api/v1/events?fips=${county.fips}&kind=outage_began`);
    expect(filtered.status).toBe(200);
    expect(filtered.body.data.events.length).toBeGreaterThan(0);
    expect(
      filtered.body.data.events.every((e: PublicEvent) => e.fips === county.fips && e.kind === 'outage_began'),
    ).toBe(true);
    expect(filtered.body.data.filters).toEqual({ fips: county.fips, kind: ['outage_began'] });
    const byState = await getJson(`/api/v1/events?state=${county.state.toLowerCase()}&limit=5`);
    expect(byState.body.data.events.length).toBeGreaterThan(0); // the county's own events are in its state
    expect(byState.body.data.events.every((e: PublicEvent) => e.state === county.state)).toBe(true);
  });

  it('pages newest first: has_more while older events exist, next_cursor to them, latest_cursor to newer ones', async () => {
    // An answer without `scope` holds the county, municipality and utility events (incident events are asked for).
    const newest = async (where = "WHERE scope <> 'incident'") =>
      (await pipeline.db.all<{ id: number }>(`SELECT id FROM events ${where} ORDER BY id DESC`)).map((r) => r.id);
    const ids = await newest();
    expect(ids.length).toBeGreaterThan(100); // more than the prebuilt page holds
    const page = async (q: string) => (await getJson(`/api/v1/events?${q}`)).body.data;
    const first = await page('limit=5');
    expect(first.order).toBe('newest_first');
    expect(first.events.map((e: PublicEvent) => e.id)).toEqual(ids.slice(0, 5));
    expect(first.has_more).toBe(true);
    // The prebuilt latest page (no query) says the same of its 100.
    const prebuilt = (await getJson('/api/v1/events')).body.data;
    expect(prebuilt.events.map((e: PublicEvent) => e.id)).toEqual(ids.slice(0, 100));
    expect(prebuilt.has_more).toBe(true);
    // Following next_cursor reads every event once, newest first, and ends with has_more false.
    const walk = async (q: string) => {
      const seen: number[] = [];
      for (let p = await page(q), cursor = ''; ; p = await page(`${q}&after=${cursor}`)) {
        seen.push(...p.events.map((e: PublicEvent) => e.id));
        if (!p.has_more) return seen;
        cursor = p.next_cursor;
      }
    };
    expect(await walk('limit=37')).toEqual(ids);
    expect(await walk('kind=outage_began&limit=7')).toEqual(
      await newest("WHERE kind = 'outage_began' AND scope <> 'incident'"),
    );
    const incidents = await newest("WHERE scope = 'incident'");
    expect(incidents.length).toBeGreaterThan(0); // the simulated storm's incidents of ≥ 100 customers
    expect(await walk('scope=incident&limit=50')).toEqual(incidents);
    expect(await walk('scope=county,municipality,utility,incident&limit=200')).toEqual(await newest(''));
    // latest_cursor: the events of the next cycle, oldest first, and nothing more.
    clock.advance(30 * 60_000);
    await pipeline.cycle({ all: true });
    const newer = await page(`after=${first.latest_cursor}&limit=500`);
    expect(newer.order).toBe('oldest_first');
    expect(newer.events.map((e: PublicEvent) => e.id)).toEqual(
      (await newest(`WHERE id > ${ids[0]} AND scope <> 'incident'`)).reverse(),
    );
    expect(newer.has_more).toBe(false);
  });

  it('answers bad input with documented 4xx bodies, never a 500', async () => {
    for (const [q, status, param] of [
      ['kind=explosion', 400, 'kind'],
      ['min_customers=ten', 400, 'min_customers'],
      ['limit=501', 400, 'limit'],
      ['after=garbage!!', 400, 'after'],
      ['since=last%20tuesday', 400, 'since'],
      ['utility=No%20Such%20Power', 400, 'utility'],
    ] as const) {
      const r = await getJson(`/api/v1/events?${q}`);
      expect(r.status, q).toBe(status);
      expect(r.body.data.error.param, q).toBe(param);
      const feed = await getJson(`/feeds/events.rss?${q}`);
      expect(feed.status, `feed ${q}`).toBe(status);
    }
  });

  it('hands every event to a client following cursors exactly once, in order, while cycles run', async () => {
    const seen: number[] = [];
    let cursor = (await getJson('/api/v1/events?limit=1')).body.data.first_cursor;
    const follow = async () => {
      const { body } = await getJson(`/api/v1/events?after=${cursor}&limit=37`);
      seen.push(...body.data.events.map((e: PublicEvent) => e.id));
      cursor = body.data.next_cursor;
      return body.data.has_more as boolean;
    };
    for (let i = 0; i < 3; i++) {
      clock.advance(30 * 60_000);
      const running = pipeline.cycle({ all: true });
      while (await follow());
      await running;
    }
    while (await follow());
    await follow();
    const all = (
      await pipeline.db.all<{ id: number }>("SELECT id FROM events WHERE scope <> 'incident' ORDER BY id")
    ).map((r) => r.id);
    expect(all.length).toBeGreaterThan(0);
    expect(seen).toEqual(all);
  });

  it('publishes feeds a real parser reads back, and JSON Feed 1.1 that validates', async () => {
    const parser = new Parser();
    for (const p of [
      '/feeds/events.rss',
      '/api/v1/feeds/events.rss',
      '/feeds/events.atom',
      '/feeds/events.rss?kind=outage_began&limit=5',
    ]) {
      const r = await get(p);
      expect(r.status, p).toBe(200);
      const feed = await parser.parseString(r.text);
      expect(feed.items.length, p).toBeGreaterThan(0);
      // each item links to a page a person opens: its county's, its state's, or the sources page (not raw JSON)
      for (const item of feed.items)
        expect(item.link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/(counties\/\d{5}|states\/[a-z]{2}|sources)$/);
      if (p.includes('kind=')) expect(feed.items.length).toBeLessThanOrEqual(5);
    }
    expect((await get('/feeds/events.rss')).type).toMatch(/application\/rss\+xml/);
    expect((await get('/feeds/events.atom')).type).toMatch(/application\/atom\+xml/);
    const ajv = new Ajv2020({ strict: false });
    addFormats.default(ajv);
    const validate = ajv.compile(
      JSON.parse(fs.readFileSync(new URL('./jsonfeed-1.1.schema.json', import.meta.url), 'utf8')),
    );
    for (const p of ['/feeds/events.json', '/api/v1/feeds/events.json?state=FL']) {
      const r = await get(p);
      expect(r.type).toMatch(/application\/feed\+json/);
      const doc = JSON.parse(r.text);
      expect(validate(doc), `${p}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(doc.version).toBe('https://jsonfeed.org/version/1.1');
      const ids = doc.items.map((i: { _outage: PublicEvent }) => i._outage.id);
      expect(ids, `${p}: newest first`).toEqual([...ids].sort((a, b) => b - a));
    }
  });

  it('never changes a published event, and ids survive a restart', async () => {
    const before = await pipeline.db.all<EventRow>(`${EVENT_SELECT} ORDER BY id`);
    expect(before.length).toBeGreaterThan(0);
    await pipeline.close();
    pipeline = await Pipeline.open({
      stateDir: path.join(dir, 'state'),
      outDir: path.join(dir, 'public'),
      sources,
      clock,
      simulated: true,
      http: LOOPBACK_HTTP,
    });
    clock.advance(30 * 60_000);
    await pipeline.cycle({ all: true });
    const after = await pipeline.db.all<EventRow>(`${EVENT_SELECT} ORDER BY id`);
    expect(after.slice(0, before.length)).toEqual(before);
    const ids = after.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
