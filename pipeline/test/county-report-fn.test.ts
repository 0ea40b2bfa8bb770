// The county report (`reports.county`) answered by the function layer is byte for byte the file the publisher used to
// prebuild: over a small SIMULATED history (two years, every county), a sample of county-years × every table × every
// declared format is compared with the old publisher's output, rebuilt here by its own loop (putJson/putCsv into a
// memory writer). Also: headers, ETag/304, HEAD, the errors, and a county without rows that year.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fs from 'node:fs';
import path from 'node:path';
import { CACHE_CONTROL, CONTENT_TYPE, endpoint, REPORT_TABLES } from '../src/contract/catalogue.ts';
import { fileFor, urlFor } from '../src/contract/urls.ts';
import { REPORT_COLUMNS } from '../src/contract/report-columns.ts';
import { SCHEMAS } from '../src/contract/schemas.ts';
import { Db } from '../src/state/db.ts';
import { loadAtlas } from '../src/geo/counties.ts';
import { countyModel, loadCountyModel } from '../src/geo/county-model.ts';
import { writeSimulatedHistory } from '../src/simulator/history.ts';
import { writeSimulatedEia861, writeSimulatedOe417 } from '../src/simulator/reference-files.ts';
import { importEagleI, importEia861, importOe417 } from '../src/history/import.ts';
import { deriveEpisodes } from '../src/history/derive.ts';
import { computeReports, type Reports, type Row } from '../src/history/reports.ts';
import { publishHistoryTree, reportDoc } from '../src/publish/reports.ts';
import { putCsv, putJson } from '../src/publish/formats.ts';
import { MemoryTreeWriter } from '../src/publish/tree-writer.ts';
import { readManifest } from '../src/publish/tree-parts.ts';
import { createApp } from '../src/serve/app.ts';
import { closeAll, makeTempDir, removeTempDir } from './clean-machine.ts';

const NOW = new Date('2026-11-22T00:00:00Z');
/** Kent County, Delaware: its 2024 rows are dropped from the simulated file, so it has no rows that year. */
const NO_ROWS = { fips: '10001', year: 2024 };
let dir = '';
let db: Db | undefined;
let reports: Reports;
let out = '';

beforeAll(async () => {
  dir = makeTempDir('county-report');
  out = path.join(dir, 'public');
  db = await Db.open(':memory:');
  const model = await countyModel(db, loadCountyModel());
  const files = await writeSimulatedHistory(db, path.join(dir, 'files'), model, {
    seed: 5,
    firstYear: 2023,
    lastYear: 2024,
    episodesPerYear: 1,
  });
  const last = files.at(-1)!;
  const lines = fs.readFileSync(last, 'utf8').split('\n');
  fs.writeFileSync(last, lines.filter((l) => !l.startsWith(`${NO_ROWS.fips},`)).join('\n'));
  expect(lines.length - fs.readFileSync(last, 'utf8').split('\n').length).toBeGreaterThan(0);
  for (const f of files) await importEagleI(db, f);
  for (const f of writeSimulatedOe417(path.join(dir, 'files'), 5, 2023, 2024)) await importOe417(db, f);
  for (const f of writeSimulatedEia861(path.join(dir, 'files'), 5, 2024, model)) await importEia861(db, f);
  await deriveEpisodes(db, model);
  reports = await computeReports(db, model, NOW);
  await publishHistoryTree(db, out, { now: NOW });
});

afterAll(() =>
  closeAll(
    () => db?.close(),
    () => removeTempDir(dir),
  ),
);

const E = () => endpoint('reports.county');

/** The old publisher's county files for `keys` (its loop, verbatim but for the sample), in a memory writer. */
async function prebuiltCountyFiles(keys: string[]): Promise<MemoryTreeWriter> {
  const w = new MemoryTreeWriter(NOW);
  const atlas = loadAtlas();
  const ctx = { simulated: true, sources: { eaglei_years: [], oe417_years: [], eia861_years: [] } };
  for (const key of keys) {
    const [yy, fips] = key.split('|');
    const c = reports.countyTables(Number(yy), fips)!;
    const county = atlas.byFips.get(fips)!;
    const params = { year: yy, state: county.state.toLowerCase(), county: fips };
    const scope = { year: Number(yy), state: county.state, fips, name: county.name };
    for (const table of REPORT_TABLES.county) {
      const rows = table === 'summary' ? null : c[table];
      const doc = reportDoc(ctx, scope, table, REPORT_TABLES.county, true, rows ? { rows } : { summary: c.summary });
      for (const f of E().formats) {
        if (f === 'json') putJson(w, fileFor(E(), params, 'json', table), doc);
        else if (f === 'csv' && rows) {
          const columns = REPORT_COLUMNS.county[table as keyof typeof REPORT_COLUMNS.county];
          putCsv(w, fileFor(E(), params, 'csv', table), columns, () =>
            rows.map((r: Row) => columns.map((col) => r[col] ?? null)),
          );
        }
      }
    }
  }
  await w.commit({ simulated: true, notice: '' });
  return w;
}

/** The public URL of a prebuilt county file: the first table and format implicit, as clients ask for them. */
function urlOf(rel: string): string {
  const m = /^api\/v1\/reports\/(\d{4})\/([a-z]{2})\/(\d{5})\.data\.(\w+)\.(\w+)$/.exec(rel)!;
  const [, year, state, county, table, format] = m;
  return urlFor(
    E(),
    { year, state, county },
    {
      ...(table === REPORT_TABLES.county[0] ? {} : { table }),
      ...(format === E().formats[0] ? {} : { format }),
    },
  );
}

describe('county reports from the function layer', () => {
  it('answers a sample of county-years × every table × every format byte for byte as the prebuilt file', async () => {
    const observed = reports.countyYears;
    expect(observed.length).toBeGreaterThan(6000); // two years of (nearly) every county
    expect(observed).not.toContain(`${NO_ROWS.year}|${NO_ROWS.fips}`);
    const sample = observed.filter((_, i) => i % 97 === 0);
    expect(new Set(sample.map((k) => k.split('|')[0]))).toEqual(new Set(['2023', '2024']));
    const w = await prebuiltCountyFiles(sample);
    expect(w.files.size).toBe(sample.length * REPORT_TABLES.county.length);
    const app = createApp({ outDir: out });
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'api', components: { schemas: SCHEMAS } });
    const validate = ajv.getSchema(`api#/components/schemas/${E().schema}`)!;
    for (const [rel, { body, entry }] of w.files) {
      const url = urlOf(rel);
      const res = await app.request(url);
      expect(res.status, url).toBe(200);
      const got = Buffer.from(await res.arrayBuffer());
      expect(got.equals(body), `${url}: ${got.subarray(0, 200)} ≠ ${body.subarray(0, 200)}`).toBe(true);
      expect(res.headers.get('etag'), url).toBe(`"${entry.object}"`);
      expect(res.headers.get('cache-control'), url).toBe(CACHE_CONTROL.history);
      expect(res.headers.get('content-type'), url).toBe(CONTENT_TYPE[rel.endsWith('.csv') ? 'csv' : 'json']);
      expect(res.headers.get('last-modified'), url).toBe(NOW.toUTCString());
      if (rel.endsWith('.json'))
        expect(validate(JSON.parse(got.toString())), `${url}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    // The explicit first table answers the same bytes.
    const [first] = w.files.keys();
    const explicit = await app.request(`${urlOf(first)}?table=summary`);
    expect(Buffer.from(await explicit.arrayBuffer()).equals(w.files.get(first)!.body)).toBe(true);
  });

  it('answers 304 to its own ETag, HEAD without a body, and nothing else from a prebuilt county file', async () => {
    const app = createApp({ outDir: out });
    const url = '/api/v1/reports/2024/fl/12086/data?table=events';
    const res = await app.request(url);
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await app.request(url, { headers: { 'If-None-Match': etag } });
    expect([again.status, await again.text(), again.headers.get('etag')]).toEqual([304, '', etag]);
    const head = await app.request(url, { method: 'HEAD' });
    expect([head.status, await head.text(), head.headers.get('etag')]).toEqual([200, '', etag]);
    const files = Object.keys(readManifest(out, 'history')!.files);
    expect(files.filter((f) => /^api\/v1\/reports\/\d{4}\/[a-z]{2}\/\d{5}\./.test(f))).toEqual([]);
    expect(files.filter((f) => f.startsWith('api/v1/reports/_counties/')).length).toBeGreaterThan(3000);
  });

  it.each([
    ['/api/v1/reports/24/de/10003/data', 400, 'invalid_year'],
    ['/api/v1/reports/2013/de/10003/data', 404, 'unknown_year'],
    ['/api/v1/reports/2031/de/10003/data', 404, 'unknown_year'],
    ['/api/v1/reports/2024/zz/10003/data', 404, 'unknown_state'],
    ['/api/v1/reports/2024/de/1000/data', 400, 'invalid_fips'],
    ['/api/v1/reports/2024/de/12086/data', 404, 'unknown_county'],
    ['/api/v1/reports/2024/de/10003/data?table=states', 400, 'invalid_parameter'],
    ['/api/v1/reports/2024/de/10003/data?format=xml', 400, 'invalid_format'],
  ])('%s → %i %s', async (url, status, code) => {
    const res = await createApp({ outDir: out }).request(url);
    expect(res.status).toBe(status);
    expect((await res.json()).data.error).toMatchObject({ status, code });
  });

  it('answers a county without rows that year, and a year not loaded, from the state tables as before', async () => {
    const app = createApp({ outDir: out });
    const get = async (url: string) => {
      const res = await app.request(url);
      expect([url, res.status, res.headers.get('cache-control')]).toEqual([url, 200, CACHE_CONTROL.history]);
      return (await res.json()).data;
    };
    const kent = await get(`/api/v1/reports/${NO_ROWS.year}/de/${NO_ROWS.fips}/data`);
    expect(kent).toMatchObject({ fips: NO_ROWS.fips, loaded: true, summary: { coverage: 'zero', episodes: 0 } });
    expect(kent.note).toMatch(/No EAGLE-I rows/);
    const years = (await get(`/api/v1/reports/${NO_ROWS.year}/de/${NO_ROWS.fips}/data?table=years`)).rows;
    const y2023 = reports.countyTables(2023, NO_ROWS.fips)!.summary as { episodes: number };
    expect(years.find((r: Row) => r.year === 2023)).toMatchObject({ loaded: true, episodes: y2023.episodes });
    const old = await get('/api/v1/reports/2019/de/10003/data');
    expect([old.loaded, old.note]).toEqual([false, '2019 is not loaded.']);
  });
});
