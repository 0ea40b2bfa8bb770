// County areas, incidents and alerts: prebuilt files and filtered variants through the real server, read back by
// independent readers (DuckDB read_csv, a GeoJSON checker).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { check } from '@placemarkio/check-geojson';
import { manualClock } from '../src/clock.ts';
import { Simulator } from '../src/simulator/server.ts';
import { parseRegistry } from '../src/registry/registry.ts';
import { Pipeline } from '../src/pipeline.ts';
import { LOOPBACK_HTTP } from '../src/sources/http.ts';
import { startServer } from '../src/serve/server.ts';
import { Db } from '../src/state/db.ts';
import { closeAll, makeTempDir, removeTempDir } from './clean-machine.ts';

const clock = manualClock(new Date('2026-09-01T10:00:00Z'));
const dir = makeTempDir('detail');
let sim: Simulator;
let pipeline: Pipeline;
let server: Awaited<ReturnType<typeof startServer>>;
let kubraCounty = '';
let incidentCounty = '';
let quietCounty = '';

const get = async (p: string) => {
  const res = await fetch(`${server.url}${p}`);
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
};
const json = async (p: string) => {
  const r = await get(p);
  return { status: r.status, body: JSON.parse(r.text) };
};

beforeAll(async () => {
  sim = new Simulator({ clock, seed: 1, epoch: new Date('2026-09-01T00:00:00Z'), sources: 60, areasPerCounty: 4 });
  await sim.start();
  const { sources } = parseRegistry(sim.registryCsv());
  pipeline = await Pipeline.open({
    stateDir: path.join(dir, 'state'),
    outDir: path.join(dir, 'public'),
    sources,
    clock,
    simulated: true,
    http: LOOPBACK_HTTP,
  });
  await pipeline.cycle({ all: true });
  server = await startServer({ outDir: path.join(dir, 'public'), port: 0 });
  const pick = async (sql: string) => (await pipeline.db.all<{ fips: string }>(sql))[0]?.fips ?? '';
  kubraCounty = await pick(
    'SELECT a.fips FROM obs_area a GROUP BY a.fips HAVING sum(a.customers_out) > 0 AND bool_or(a.masked) ORDER BY sum(a.customers_out) DESC LIMIT 1',
  );
  if (!kubraCounty)
    kubraCounty = await pick('SELECT fips FROM obs_area GROUP BY fips ORDER BY sum(customers_out) DESC LIMIT 1');
  incidentCounty = await pick('SELECT fips FROM obs_incident GROUP BY fips ORDER BY count(*) DESC LIMIT 1');
  quietCounty = await pick(
    'SELECT fips FROM obs_county GROUP BY fips HAVING sum(customers_out) = 0 ORDER BY fips LIMIT 1',
  );
});

afterAll(() =>
  closeAll(
    () => server?.close(),
    () => pipeline?.close(),
    () => sim?.stop(),
    () => removeTempDir(dir),
  ),
);

describe('county areas', () => {
  it('lists municipalities with masked counts kept honest, with meta', async () => {
    const { status, body } = await json(`/api/v1/live/counties/${kubraCounty}/areas`);
    expect(status).toBe(200);
    expect(body.meta.filters).toEqual({});
    expect(body.meta.notice).toMatch(/<5/);
    expect(body.data.count).toBe(body.data.areas.length);
    const masked = body.data.areas.filter((a: { masked: boolean }) => a.masked);
    expect(masked.length).toBeGreaterThan(0);
    for (const a of masked) expect([a.out_display, a.out_lower, a.out_upper, a.customers_out]).toEqual(['<5', 1, 4, 1]);
    const active = await json(`/api/v1/live/counties/${kubraCounty}/areas?active=true&min_customers=2`);
    expect(active.body.meta.filters).toEqual({ active: true, min_customers: 2 });
    // the filter keeps exactly the unfiltered rows it should, and some (but not all) of them
    const expected = body.data.areas.filter(
      (a: { active: boolean; out_lower: number }) => a.active && a.out_lower >= 2,
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(body.data.areas.length);
    expect(active.body.data.areas).toEqual(expected);
  });

  it('CSV reads back in DuckDB with the same rows', async () => {
    const csv = await get(`/api/v1/live/counties/${kubraCounty}/areas?format=csv`);
    expect(csv.type).toMatch(/text\/csv/);
    const file = path.join(dir, 'areas.csv');
    fs.writeFileSync(file, csv.text);
    const db = await Db.open(':memory:');
    const rows = await db.all<{ n: number; out: number }>(
      `SELECT count(*)::INT AS n, sum(customers_out)::INT AS out FROM read_csv('${file}', header = true)`,
    );
    db.close();
    const { body } = await json(`/api/v1/live/counties/${kubraCounty}/areas`);
    expect(rows[0].n).toBe(body.data.areas.length);
    expect(rows[0].out).toBe(
      body.data.areas.reduce((s: number, a: { customers_out: number }) => s + a.customers_out, 0),
    );
  });

  it('GeoJSON is valid RFC 7946 with a metadata block', async () => {
    const g = await get(`/api/v1/live/counties/${kubraCounty}/areas?format=geojson`);
    expect(g.type).toMatch(/application\/geo\+json/);
    const doc = check(g.text) as unknown as { features: unknown[]; metadata: { count: number; generated: string } };
    expect(doc.metadata.count).toBe(doc.features.length);
    expect(Date.parse(doc.metadata.generated)).not.toBeNaN();
  });
});

describe('county incidents', () => {
  it('lists incidents with ETR, crew status and cause, and filters them', async () => {
    const { body } = await json(`/api/v1/live/counties/${incidentCounty}/incidents`);
    expect(body.data.incidents.length).toBeGreaterThan(0);
    const i = body.data.incidents[0];
    expect(i.etr).toMatch(/^\d{4}-/);
    expect(typeof i.crew_status).toBe('string');
    expect(typeof i.cause).toBe('string');
    // a threshold from the data itself (the median), so the filter keeps some incidents and drops others
    const counts = body.data.incidents
      .map((x: { customers_out: number }) => x.customers_out)
      .sort((a: number, b: number) => a - b);
    const min = counts[Math.floor(counts.length / 2)];
    const expected = body.data.incidents.filter((x: { customers_out: number }) => x.customers_out >= min);
    expect(counts[0]).toBeLessThan(min);
    const big = await json(`/api/v1/live/counties/${incidentCounty}/incidents?min_customers=${min}`);
    expect(big.body.data.incidents.length).toBeGreaterThan(0);
    expect(big.body.data.incidents).toEqual(expected);
  });

  it('GeoJSON points validate and CSV reads back in DuckDB', async () => {
    const g = await get(`/api/v1/live/counties/${incidentCounty}/incidents?format=geojson&min_customers=1`);
    const doc = check(g.text) as unknown as { features: Array<{ geometry: { type: string; coordinates: number[] } }> };
    expect(doc.features.length).toBeGreaterThan(0);
    expect(doc.features[0].geometry.type).toBe('Point');
    const csv = await get(`/api/v1/live/counties/${incidentCounty}/incidents?format=csv`);
    const file = path.join(dir, 'incidents.csv');
    fs.writeFileSync(file, csv.text);
    const db = await Db.open(':memory:');
    const rows = await db.all<{ n: number }>(
      `SELECT count(*)::INT AS n FROM read_csv('${file}', header = true) WHERE etr IS NOT NULL`,
    );
    db.close();
    expect(rows[0].n).toBeGreaterThan(0);
  });
});

describe('county alerts', () => {
  it('evaluates the county, each utility and each municipality', async () => {
    const { body } = await json(`/api/v1/live/counties/${kubraCounty}/alerts`);
    expect(body.data.thresholds).toEqual({ min_customers: 100, min_pct: 1 });
    expect(body.data.county.scope).toBe('county');
    expect(body.data.utilities.length).toBeGreaterThan(0);
    expect(typeof body.data.utilities[0].major_event_line).toBe('boolean');
    const strict = await json(`/api/v1/live/counties/${kubraCounty}/alerts?min_customers=1&min_pct=0`);
    expect(strict.body.data.county.alert).toBe(strict.body.data.county.customers_out >= 1);
    expect(strict.body.meta.filters).toEqual({ min_customers: 1, min_pct: 0 });
  });
});

describe('counties without an outage, and bad input', () => {
  it('answers a quiet county with a valid empty answer', async () => {
    for (const kind of ['areas', 'incidents']) {
      const { status, body } = await json(`/api/v1/live/counties/${quietCounty}/${kind}`);
      expect(status).toBe(200);
      expect(body.data[kind]).toEqual([]);
      expect(body.meta.notice).toBeTruthy();
    }
    const csv = await get(`/api/v1/live/counties/${quietCounty}/incidents?format=csv`);
    expect(csv.status).toBe(200);
    const alerts = await json(`/api/v1/live/counties/${quietCounty}/alerts`);
    expect(alerts.body.data.alert).toBe(false);
  });

  it.each([
    ['/api/v1/live/counties/99999/areas', 404, 'unknown_county'],
    ['/api/v1/live/counties/1234/incidents', 400, 'invalid_fips'],
    ['/api/v1/live/counties/12086/areas?active=yes', 400, 'invalid_parameter'],
    ['/api/v1/live/counties/12086/areas?min_customers=-1', 400, 'invalid_parameter'],
    ['/api/v1/live/counties/12086/alerts?min_pct=200', 400, 'invalid_parameter'],
    ['/api/v1/live/counties/12086/incidents?utility=Nobody%20Electric', 400, 'invalid_parameter'],
    ['/api/v1/live/counties/12086/areas?format=kml', 400, 'invalid_format'],
  ])('%s → %i %s', async (url, status, code) => {
    const r = await json(url);
    expect(r.status).toBe(status);
    expect(r.body.data.error.code).toBe(code);
  });
});
