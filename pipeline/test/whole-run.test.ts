// Whole run: the simulator over real HTTP → poll cycles on an injected clock → the published tree → the real server.
// Also the contract tests (OpenAPI validity, every prebuilt JSON against its schema), bad input, and the host config.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { Validator } from '@seriousme/openapi-schema-validator';
import { parse } from 'csv-parse/sync';
import { manualClock } from '../src/clock.ts';
import { Simulator } from '../src/simulator/server.ts';
import { countyStates } from '../src/simulator/formats.ts';
import { parseRegistry } from '../src/registry/registry.ts';
import type { SourceDef } from '../src/sources/source-def.ts';
import { Pipeline } from '../src/pipeline.ts';
import type { CycleSummary } from '../src/cycle/summary.ts';
import { LOOPBACK_HTTP } from '../src/sources/http.ts';
import { DEFAULT_RETRY } from '../src/sources/retry.ts';
import { createApp, resolve } from '../src/serve/app.ts';
import { startServer } from '../src/serve/server.ts';
import { CATALOGUE } from '../src/contract/catalogue.ts';
import { SCHEMAS } from '../src/contract/schemas.ts';
import { fileFor, fileRoute, urlFor } from '../src/contract/urls.ts';
import { readManifest } from '../src/publish/tree-parts.ts';
import { vercelConfig } from '../src/publish/host-config.ts';
import { HOST_CONFIG_REQUESTS } from './host-requests.ts';
import { routeLikeHost } from './host-router.ts';
import { importEagleI, importEia861, importOe417 } from '../src/history/import.ts';
import { deriveEpisodes } from '../src/history/derive.ts';
import { countyModel, loadCountyModel } from '../src/geo/county-model.ts';
import { publishHistoryTree } from '../src/publish/reports.ts';
import { hasSharedData, sharedPath } from './shared-data.ts';
import { closeAll, makeTempDir, removeTempDir } from './clean-machine.ts';

const T0 = new Date('2026-09-01T08:00:00Z');
const clock = manualClock(T0);
const dir = makeTempDir('whole-run');
const out = path.join(dir, 'public');
const stateDir = path.join(dir, 'state');
let sim: Simulator;
let sources: SourceDef[];
let pipeline: Pipeline;
let first: CycleSummary;

const readJson = (rel: string) => JSON.parse(fs.readFileSync(path.join(out, rel), 'utf8'));
const countyFile = (fips: string, format: 'json' | 'csv' = 'json') =>
  fileFor(CATALOGUE.find((e) => e.id === 'live.county')!, { fips }, format);

/** What the simulator says is out in each county right now (all utilities added up). */
function truth(at: Date): Map<string, number> {
  const m = new Map<string, number>();
  for (const u of sim.utilities)
    for (const c of countyStates(sim.scenario, u, at)) m.set(c.fips, (m.get(c.fips) ?? 0) + c.out);
  return m;
}

beforeAll(async () => {
  sim = new Simulator({ clock, seed: 2, epoch: new Date('2026-09-01T00:00:00Z'), sources: 60, areasPerCounty: 3 });
  await sim.start();
  const reg = parseRegistry(sim.registryCsv());
  sources = reg.sources;
  pipeline = await Pipeline.open({
    stateDir,
    outDir: out,
    sources,
    clock,
    simulated: true,
    // The 'timeout' fault never answers: its source fails after two requests of 5 s each (the production client
    // tries 4 of 30 s; retries have their own tests in retry-chain.test.ts), not after two minutes.
    http: {
      ...LOOPBACK_HTTP,
      bodyTimeoutMs: 8000,
      connectTimeoutMs: 8000,
      requestDeadlineMs: 5_000,
      retry: { ...DEFAULT_RETRY, attempts: 2 },
    },
  });
  first = await pipeline.cycle();
  // History through the real importers on real files: the Harris County Beryl slice, OE-417 2020, EIA-861 2018.
  // Without the shared data the history tree is published with no year loaded, and the test that reads the imported
  // rows is skipped.
  if (hasSharedData) {
    await importEagleI(pipeline.db, sharedPath('history/eaglei/eaglei_outages_2024_harris_beryl_slice.csv'));
    await importOe417(pipeline.db, sharedPath('history/oe417/2020_Annual_Summary.xls'));
    for (const f of ['Service_Territory_2018.xlsx', 'Reliability_2018.xlsx'])
      await importEia861(pipeline.db, sharedPath(`reference/eia861/${f}`));
    await deriveEpisodes(pipeline.db, await countyModel(pipeline.db, loadCountyModel()));
    await pipeline.db.run("INSERT OR REPLACE INTO meta VALUES ('history_version', 'imported')");
  }
  await publishHistoryTree(pipeline.db, out, { now: clock() });
  await pipeline.build(); // the county profile and history of Harris County
});

afterAll(() =>
  closeAll(
    () => pipeline?.close(),
    () => sim?.stop(),
    () => removeTempDir(dir),
  ),
);

describe('whole run', () => {
  it('polls every source over HTTP and publishes every county', () => {
    expect(first.failed, JSON.stringify(first.failures.slice(0, 3))).toBe(0);
    expect(first.ok).toBe(sources.length);
    expect(
      sim.utilities.some((u) => u.connector === 'kubra') &&
        sim.utilities.some((u) => u.connector === 'nisc') &&
        sim.utilities.some((u) => u.connector === 'arcgis'),
    ).toBe(true);
    const manifest = readManifest(out)!;
    expect(manifest.simulated).toBe(true);
    expect(
      Object.keys(manifest.files).filter((f) => /^api\/v1\/live\/counties\/\d{5}\.json$/.test(f)).length,
    ).toBeGreaterThanOrEqual(3143);
  });

  it('publishes exactly what the simulated utilities report, overlapping sources added up', () => {
    const expected = truth(clock());
    const mapData = readJson('api/v1/live/map.json').data;
    let checked = 0;
    for (const [fips, n] of expected) {
      const doc = readJson(countyFile(fips)).data;
      expect(doc.customers_out, fips).toBe(n);
      if (n > 0) expect(mapData[fips][0]).toBe(n);
      else expect(mapData[fips]).toBeUndefined();
      checked += 1;
    }
    expect(checked).toBeGreaterThan(3000);
    const shared = Object.values(mapData).length;
    expect(shared).toBeGreaterThan(51);
    const overlap = [...expected.keys()].find((f) => readJson(countyFile(f)).data.sources.length > 1);
    expect(overlap, 'a county covered by two sources').toBeDefined();
  });

  it('applies the rules on every map entry', () => {
    const { data } = readJson('api/v1/live/map.json');
    // Every member is an entry (no generated_at among them): five values, keyed by a FIPS or a USPS code.
    expect(Object.keys(data).filter((k) => !/^(\d{5}|[A-Z]{2})$/.test(k))).toEqual([]);
    for (const [key, entry] of Object.entries(data)) {
      expect(entry, key).toHaveLength(5);
      const [outN, pct, , band] = entry as [number, number | null, number, number, number];
      if (pct === null) expect(band).toBe(-1);
      else expect(pct).toBeLessThanOrEqual(100);
      if (/^\d{5}$/.test(key)) expect(outN).toBeGreaterThan(0);
    }
    const states = Object.keys(data).filter((k) => /^[A-Z]{2}$/.test(k));
    expect(states.length).toBeGreaterThanOrEqual(51);
  });

  it('serves the tree over a real socket with the v1 headers, ETag and 304', async () => {
    const server = await startServer({ outDir: out, port: 0 });
    try {
      const res = await fetch(`${server.url}/api/v1/live/map`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-api-version')).toBe('1');
      expect(res.headers.get('x-data-notice')).toMatch(/SIMULATED/);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const id1 = res.headers.get('x-request-id');
      const etag = res.headers.get('etag')!;
      expect((await res.json()).data).toEqual(readJson('api/v1/live/map.json').data);
      const again = await fetch(`${server.url}/api/v1/live/map`, { headers: { 'If-None-Match': etag } });
      expect(again.status).toBe(304);
      expect(again.headers.get('x-request-id')).not.toBe(id1);
      const csv = await (await fetch(`${server.url}/api/v1/live/counties/12086?format=csv`)).text();
      const rows = parse(csv, { columns: true }) as Array<Record<string, string>>;
      expect(rows).toHaveLength(1);
      expect(Number(rows[0].customers_out)).toBe(readJson(countyFile('12086')).data.customers_out);
    } finally {
      await server.close();
    }
  });

  it('records a broken source with its reason and goes on with the rest', async () => {
    const victims = sources.slice(0, 4);
    const faults = ['timeout', 'http500', 'garbage', 'schema'] as const;
    for (const [i, s] of victims.entries()) sim.setFault(s.id, faults[i]);
    clock.advance(16 * 60_000);
    const s = await pipeline.cycle({ all: true });
    for (const v of victims) sim.setFault(v.id, null);
    expect(s.ok).toBe(sources.length - 4);
    expect(Object.fromEntries(s.failures.map((f) => [f.source, f.reason]))).toEqual({
      [victims[0].id]: 'timeout',
      [victims[1].id]: 'http_status',
      [victims[2].id]: 'bad_body',
      [victims[3].id]: 'schema',
    });
    const list = readJson('api/v1/live/sources.json').data.sources as Array<{
      id: string;
      last_error: { reason: string } | null;
      freshness: string;
    }>;
    expect(list.find((x) => x.id === victims[1].id)?.last_error?.reason).toBe('http_status');
  });

  it('marks sources stale after 2 × interval + 5 minutes (minimum 20) without a successful fetch', async () => {
    const victim = sources.find((s) => s.connector === 'nisc')!;
    type Entry = {
      id: string;
      freshness: string;
      updated_at: string;
      last_success_at: string;
      stale_after_min: number;
    };
    const entryOf = () =>
      (readJson('api/v1/live/sources.json').data.sources as Entry[]).find((x) => x.id === victim.id)!;
    const lastSuccess = Date.parse(entryOf().last_success_at);
    sim.setFault(victim.id, 'http500');
    const limit = entryOf().stale_after_min;
    expect(limit).toBe(Math.max(20, 2 * victim.interval_min + 5));
    clock.set(new Date(lastSuccess + limit * 60_000)); // exactly at the limit: still fresh
    await pipeline.cycle({ all: true });
    expect(entryOf().freshness).toBe('fresh');
    clock.advance(60_000); // one minute past the limit: stale
    await pipeline.cycle({ all: true });
    sim.setFault(victim.id, null);
    const entry = entryOf();
    expect(entry.freshness).toBe('stale');
    expect(entry.updated_at).toBe(clock().toISOString());
    expect(entry.last_success_at).toBe(new Date(lastSuccess).toISOString());
    const county = readJson(
      countyFile(
        sim.utilities
          .find((u) => u.id === victim.id)!
          .counties.keys()
          .next().value!,
      ),
    ).data;
    expect(county.stale).toBe(true);
    await pipeline.cycle({ all: true });
    const back = (readJson('api/v1/live/sources.json').data.sources as Array<{ id: string; freshness: string }>).find(
      (x) => x.id === victim.id,
    )!;
    expect(back.freshness).toBe('fresh');
  });

  it('rewrites nothing but the sources document when nothing upstream changed', async () => {
    const s = await pipeline.cycle({ all: true });
    expect(s.changed).toBe(0);
    expect(s.publish.written, JSON.stringify(s.publish)).toBeLessThanOrEqual(1);
  });

  it('survives a restart: the state is file-backed and build republishes the same tree', async () => {
    const before = readJson('api/v1/live/map.json');
    await pipeline.close();
    pipeline = await Pipeline.open({ stateDir, outDir: out, sources, clock, simulated: true, http: LOOPBACK_HTTP });
    const stats = await pipeline.build();
    expect(stats.written).toBeLessThanOrEqual(1);
    expect(readJson('api/v1/live/map.json')).toEqual(before);
  });
});

describe('contract', () => {
  it('the OpenAPI document is valid OpenAPI 3.1', async () => {
    const doc = readJson('api/v1/openapi.json');
    const v = new Validator();
    const res = await v.validate(doc);
    expect(res.errors ?? []).toEqual([]);
    expect(res.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    for (const e of CATALOGUE) expect(doc.paths[e.path], e.path).toBeDefined();
  });

  it('every prebuilt JSON file matches its response schema', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'api', components: { schemas: SCHEMAS } });
    let checked = 0;
    for (const file of [
      ...Object.keys(readManifest(out)!.files),
      ...Object.keys(readManifest(out, 'history')!.files),
    ]) {
      const route = fileRoute(file);
      if (route?.format !== 'json' || route.endpoint.id === 'openapi') continue;
      const e = route.endpoint;
      const validate = ajv.getSchema(`api#/components/schemas/${e.schema}`)!;
      const ok = validate(readJson(file));
      expect(ok, `${file}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(3143 + 13 * 56 * 4);
  });
});

describe('bad input and the function layer', () => {
  const app = () => createApp({ outDir: out });
  const err = async (res: Response) => (await res.json()).data.error;

  it.each([
    ['GET', '/api/v1/live/counties/1234', 400, 'invalid_fips'],
    ['GET', '/api/v1/live/counties/abcde', 400, 'invalid_fips'],
    ['GET', '/api/v1/live/counties/99999', 404, 'unknown_county'],
    ['GET', '/api/v1/live/counties/12086?format=xml', 400, 'invalid_format'],
    ['GET', '/api/v1/live/map?format=csv', 400, 'invalid_format'],
    ['GET', '/api/v1/nothing-here', 404, 'not_found'],
    ['POST', '/api/v1/live/map', 405, 'method_not_allowed'],
    ['GET', '/api/v1/alerts/subscribe', 405, 'method_not_allowed'],
    ['GET', '/api/v1/live/timeline?hours=0', 400, 'invalid_parameter'],
    ['GET', '/api/v1/live/timeline?hours=169', 400, 'invalid_parameter'],
    ['GET', '/api/v1/live/timeline?hours=two', 400, 'invalid_parameter'],
    ['POST', '/api/v1/alerts/subscribe', 410, 'gone'],
    ['GET', '/api/v1/reports/data?table=counties', 400, 'invalid_parameter'],
    ['GET', '/api/v1/reports/24/data', 400, 'invalid_year'],
    ['GET', '/api/v1/reports/2013/data', 404, 'unknown_year'],
    ['GET', '/api/v1/reports/2031/tx/data', 404, 'unknown_year'],
    ['GET', '/api/v1/reports/2024/data?table=summary', 400, 'invalid_parameter'],
    ['GET', '/api/v1/reports/2024/data?format=xml', 400, 'invalid_format'],
    ['GET', '/api/v1/reports/2024/zz/data', 404, 'unknown_state'],
    ['GET', '/api/v1/reports/2024/texas/data', 404, 'unknown_state'],
    ['GET', '/api/v1/reports/2024/tx/12086/data', 404, 'unknown_county'],
    ['GET', '/api/v1/reports/2024/tx/4820/data', 400, 'invalid_fips'],
    ['GET', '/api/v1/reports/2024/tx/48201/data?table=states', 400, 'invalid_parameter'],
    ['GET', '/api/v1/reports/2024/tx/48201/data?format=csv', 400, 'invalid_format'],
    ['GET', '/api/v1/rules', 503, 'accounts_unavailable'],
    ['PUT', '/api/v1/rules', 405, 'method_not_allowed'],
    ['GET', '/api/v1/rules/rule_x/channels/ch_y/enable', 405, 'method_not_allowed'],
  ])('%s %s → %i %s', async (method, url, status, code) => {
    const res = await app().request(url, { method });
    expect(res.status).toBe(status);
    expect(res.headers.get('x-api-version')).toBe('1');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const body = await err(res);
    expect(body).toMatchObject({ status, code });
    expect(typeof body.message).toBe('string');
    if (status === 405) expect(res.headers.get('allow')).toBeTruthy();
    if (code === 'invalid_format') expect(body.allowed.length).toBeGreaterThan(0);
  });

  it.skipIf(!hasSharedData)(
    'serves the report tables: prebuilt files, a county without rows from its state table, upper-case states redirected',
    async () => {
      const get = async (url: string) => {
        const res = await app().request(url);
        expect(res.status, url).toBe(200);
        return (await res.json()).data;
      };
      const harris = await get('/api/v1/reports/2024/tx/48201/data');
      expect(harris.summary).toMatchObject({
        fips: '48201',
        coverage: 'observed',
        episodes: 1,
        max_out: 1_660_703,
        episodes_by_size: { major: 1 },
      });
      expect(harris.summary.utilities.length).toBeGreaterThan(0);
      const dallas = await get('/api/v1/reports/2024/tx/48113/data?table=summary');
      expect(dallas).toMatchObject({ loaded: true, summary: { coverage: 'zero', episodes: 0 } });
      expect((await get('/api/v1/reports/2019/tx/48113/data')).loaded).toBe(false);
      const years = (await get('/api/v1/reports/2024/tx/48113/data?table=years')).rows;
      expect(years.map((r: { year: number }) => r.year)).toEqual(
        Array.from({ length: years.length }, (_, i) => 2014 + i),
      );
      expect(years.find((r: { year: number }) => r.year === 2024)).toMatchObject({
        loaded: true,
        coverage: 'zero',
        episodes: 0,
      });
      expect(years.find((r: { year: number }) => r.year === 2020)).toMatchObject({ loaded: false, episodes: null });
      expect((await get('/api/v1/reports/data')).rows.find((r: { year: number }) => r.year === 2024)).toMatchObject({
        loaded: true,
        peak_out: 1_660_703,
      });
      expect((await get('/api/v1/reports/2020/data?table=disturbances')).rows.length).toBe(383);
      const redirect = await app().request('/api/v1/reports/2024/TX/data?table=months');
      expect(redirect.status).toBe(308);
      expect(redirect.headers.get('location')).toBe('/api/v1/reports/2024/tx/data?table=months');
      const csv = await app().request('/api/v1/reports/2024/tx/data?table=counties&format=csv');
      expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
      expect(
        (parse(await csv.text(), { columns: true }) as Array<{ fips: string }>).find((r) => r.fips === '48201'),
      ).toMatchObject({ episodes: '1', coverage: 'observed' });
      const chart = await app().request('/api/v1/reports/2017/ak/chart'); // no file: drawn on request
      expect(chart.headers.get('content-type')).toBe('image/png');
    },
  );

  it('answers CORS preflight', async () => {
    const res = await app().request('/api/v1/live/counties/12086', { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-methods')).toMatch(/GET/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers other timeline windows from prebuilt frames', async () => {
    const res = await app().request('/api/v1/live/timeline?hours=1');
    const { data } = await res.json();
    expect(data.hours).toBe(1);
    expect(data.frames.length).toBeGreaterThan(0);
    const last = Date.parse(data.frames.at(-1).at);
    for (const f of data.frames) expect(last - Date.parse(f.at)).toBeLessThan(3_600_000);
  });
});

describe('host config', () => {
  it('serves a prebuilt site page with or without its trailing slash, and only when it exists', () => {
    const { routes } = vercelConfig(true);
    const page = (p: string, exists: boolean) =>
      routeLikeHost(routes, 'GET', p, new URLSearchParams(), (f) => exists && f === 'counties/12086/index.html');
    expect(page('/counties/12086', true)).toMatchObject({ kind: 'file', file: 'counties/12086/index.html' });
    expect(page('/counties/12086', false).kind).toBe('function');
    expect(page('/api/v1/live/counties/12086', true).kind).not.toBe('file');
  });
  it('routes every request the way the local server does', () => {
    const { routes } = vercelConfig(true);
    const exists = (f: string) => fs.existsSync(path.join(out, f));
    const requests: Array<[string, string]> = [
      ...HOST_CONFIG_REQUESTS,
      ['GET', '/healthz'], // routed only: its body carries the time it was asked
      ...Object.keys(readManifest(out, 'history')!.files)
        .filter((f, i) => i % 40 === 0 && !f.includes('/_'))
        .map((f) => {
          const r = fileRoute(f)!;
          return [
            'GET',
            urlFor(r.endpoint, r.params, {
              ...(r.format === r.endpoint.formats[0] ? {} : { format: r.format }),
              ...(r.table ? { table: r.table } : {}),
            }),
          ] as [string, string];
        }),
      ...Object.keys(readManifest(out)!.files)
        .filter((f) => !f.includes('/_'))
        .slice(0, 400)
        .map((f) => {
          const r = fileRoute(f)!;
          return [
            'GET',
            urlFor(r.endpoint, r.params, r.format === r.endpoint.formats[0] ? {} : { format: r.format }),
          ] as [string, string];
        }),
    ];
    for (const [method, url] of requests) {
      const u = new URL(url, 'http://x');
      const host = routeLikeHost(routes, method, u.pathname, u.searchParams, exists);
      const local = resolve(method, u.pathname, u.searchParams);
      const localKind = local.kind === 'file' && exists(local.file) ? 'file' : 'function';
      expect(host.kind, `${method} ${url}`).toBe(localKind);
      if (host.kind === 'file' && local.kind === 'file') {
        expect(host.file).toBe(local.file);
        expect(host.headers['X-API-Version']).toBe('1');
        expect(host.headers['Content-Type']).toBeDefined();
      }
    }
  });
});
