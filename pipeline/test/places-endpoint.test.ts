// /api/v1/places through the local server's app (createApp(...).request): each table a prebuilt file with its ETag and
// cache class, valid against the PlaceIndex schema and in the OpenAPI document; a bad `table` or `format` answers the
// v1 error shape; a second publish with the same tables writes nothing new.
import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHE_CONTROL, CONTENT_TYPE, endpoint, PLACE_TABLES } from '../src/contract/catalogue.ts';
import { SCHEMAS } from '../src/contract/schemas.ts';
import { loadPlaceTables } from '../src/geo/places.ts';
import { buildOpenApi } from '../src/publish/openapi.ts';
import { publishPlaces } from '../src/publish/places.ts';
import { FsTreeWriter } from '../src/publish/tree-writer.ts';
import { readManifest } from '../src/publish/tree-parts.ts';
import { createApp } from '../src/serve/app.ts';
import { makeTempDir, removeTempDir } from './clean-machine.ts';

const NOW = new Date('2026-11-01T00:00:00Z');
let dir: string;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  dir = makeTempDir('places-endpoint');
  const w = new FsTreeWriter(dir, NOW);
  publishPlaces(w);
  await w.commit({ simulated: false, notice: 'test' });
  app = createApp({ outDir: dir });
});
afterAll(() => removeTempDir(dir));

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
ajv.addSchema({ $id: 'api', components: { schemas: SCHEMAS } });

describe('/api/v1/places', () => {
  it('answers each table from its prebuilt file: schema-valid, cached as static, with the ETag of the stored object', async () => {
    const manifest = readManifest(dir)!;
    const validate = ajv.getSchema('api#/components/schemas/PlaceIndex')!;
    const tables = loadPlaceTables();
    for (const table of PLACE_TABLES) {
      const url = table === 'counties' ? '/api/v1/places' : `/api/v1/places?table=${table}`;
      const res = await app.request(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toBe(CONTENT_TYPE.json);
      expect(res.headers.get('cache-control')).toBe(CACHE_CONTROL.static);
      const entry = manifest.files[`api/v1/places.${table}.json`];
      expect(res.headers.get('etag')).toBe(`"${entry.object}"`);
      const body = (await res.json()) as { data: Record<string, unknown> };
      expect(validate(body), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
      expect(body.data.table).toBe(table);
      expect(body.data.generated_at).toBe(NOW.toISOString());
      expect(body.data[table]).toEqual(tables[table]);
      const again = await app.request(url, { headers: { 'If-None-Match': `"${entry.object}"` } });
      expect(again.status).toBe(304);
    }
    const zips = (await (await app.request('/api/v1/places?table=zips')).json()) as {
      data: { zips: Record<string, Array<[string, number | null]>> };
    };
    expect(zips.data.zips['33101']).toEqual([['12086', 1]]);
    expect(zips.data.zips['77494'].map(([f]) => f)).toEqual(['48157', '48473', '48201']);
  });

  it('answers a bad table or format with the v1 error shape, naming the allowed values', async () => {
    const table = await app.request('/api/v1/places?table=cities');
    expect(table.status).toBe(400);
    expect(await table.json()).toEqual({
      data: {
        error: {
          status: 400,
          code: 'invalid_parameter',
          param: 'table',
          allowed: [...PLACE_TABLES],
          message: expect.stringContaining('`cities`'),
        },
      },
    });
    const format = await app.request('/api/v1/places?format=csv');
    expect(format.status).toBe(400);
    const body = (await format.json()) as { data: { error: { code: string; param: string } } };
    expect(body.data.error).toMatchObject({ code: 'invalid_format', param: 'format' });
  });

  it('is in the OpenAPI document with its tables', () => {
    const op = (buildOpenApi(false) as { paths: Record<string, { get: { parameters: Array<{ name: string }> } }> })
      .paths[endpoint('places').path].get;
    const table = op.parameters.find((p) => p.name === 'table') as unknown as { schema: { enum: string[] } };
    expect(table.schema.enum).toEqual([...PLACE_TABLES]);
  });

  it('writes nothing new when the tables have not changed', async () => {
    const w = new FsTreeWriter(dir, new Date(NOW.getTime() + 60_000));
    publishPlaces(w);
    const stats = await w.commit({ simulated: false, notice: 'test' });
    expect(stats.written).toBe(0);
    expect(stats.unchanged).toBe(PLACE_TABLES.length);
    expect(fs.existsSync(path.join(dir, 'api/v1/places.zips.json'))).toBe(true);
  });
});
