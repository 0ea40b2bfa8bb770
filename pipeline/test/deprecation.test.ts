// Deprecation machinery (spec: Versioning, Limits — 90-day notice): a test-only catalogue entry and function route
// flagged `deprecated` carry Deprecation (RFC 9745) and Sunset (RFC 8594) on every response of the local server and of
// the host config, and `deprecated: true` in OpenAPI. No real entry is deprecated.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createApp } from '../src/serve/app.ts';
import { vercelConfig } from '../src/publish/host-config.ts';
import { buildOpenApi } from '../src/publish/openapi.ts';
import { FsTreeWriter } from '../src/publish/tree-writer.ts';
import { checkDeprecation } from '../src/contract/v1-headers.ts';
import { routeLikeHost } from './host-router.ts';

const T = vi.hoisted(() => ({
  since: '2026-10-01',
  sunset: '2027-01-15',
  link: 'https://outage.example/docs/migrating',
}));
vi.mock('../src/contract/catalogue.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/contract/catalogue.ts')>();
  const entry = {
    ...real.endpoint('live.summary'),
    id: 'test.deprecated',
    path: '/api/v1/test/deprecated',
    summary: 'Test-only deprecated entry',
    deprecated: T,
  };
  const fn = {
    ...real.FUNCTION_ENDPOINTS.find((f) => f.id === 'keys.list')!,
    id: 'test.deprecated.fn',
    path: '/api/v1/test/deprecated-fn',
    deprecated: T,
  };
  return { ...real, CATALOGUE: [...real.CATALOGUE, entry], FUNCTION_ENDPOINTS: [...real.FUNCTION_ENDPOINTS, fn] };
});

// Worked out by hand: 2026-10-01T00:00:00Z is 1790812800 s after the epoch; 2027-01-15 is a Friday, 106 days later.
const EXPECTED = {
  deprecation: '@1790812800',
  sunset: 'Fri, 15 Jan 2027 00:00:00 GMT',
  link: '<https://outage.example/docs/migrating>; rel="deprecation"; type="text/html"',
};
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deprecation-'));
const files = ['api/v1/test/deprecated.json', 'api/v1/live/summary.json'];
const app = createApp({ outDir: dir });

beforeAll(async () => {
  const w = new FsTreeWriter(dir, new Date('2026-11-01T00:00:00Z'));
  const body = Buffer.from(JSON.stringify({ data: { generated_at: '2026-11-01T00:00:00Z' } }));
  for (const f of files) w.put(f, () => body, body);
  await w.commit({ simulated: false, notice: 'test' });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const deprecationOf = (h: Headers | Record<string, string>) => {
  const get = (k: string) => (h instanceof Headers ? h.get(k) : h[k]) ?? null;
  return { deprecation: get('Deprecation'), sunset: get('Sunset'), link: get('Link') };
};

/** The generated OpenAPI document, as far as these tests read it. */
type OpenApi = { info: { description: string }; paths: Record<string, { get: Operation }> };
type Operation = {
  deprecated?: boolean;
  description: string;
  responses: Record<string, { headers: Record<string, unknown> }>;
};

describe('a deprecated entry', () => {
  it('carries Deprecation, Sunset and Link on the local server, file and function alike', async () => {
    const file = await app.request('/api/v1/test/deprecated');
    const head = await app.request('/api/v1/test/deprecated', { method: 'HEAD' });
    const fn = await app.request('/api/v1/test/deprecated-fn');
    expect([file.status, head.status, fn.status]).toEqual([200, 200, 503]);
    for (const r of [file, head, fn]) expect(deprecationOf(r.headers)).toEqual(EXPECTED);
    expect(file.headers.get('access-control-expose-headers')).toMatch(/Deprecation, Sunset, Link/);
  });

  it('leaves every other entry alone', async () => {
    const r = await app.request('/api/v1/live/summary');
    expect(r.status).toBe(200);
    expect(deprecationOf(r.headers)).toEqual({ deprecation: null, sunset: null, link: null });
  });

  it('carries the same headers through the host config', () => {
    const { routes } = vercelConfig(false);
    const exists = (f: string) => files.includes(f);
    const file = routeLikeHost(routes, 'GET', '/api/v1/test/deprecated', new URLSearchParams(), exists);
    const fn = routeLikeHost(routes, 'GET', '/api/v1/test/deprecated-fn', new URLSearchParams(), exists);
    const other = routeLikeHost(routes, 'GET', '/api/v1/live/summary', new URLSearchParams(), exists);
    expect([file.kind, fn.kind, other.kind]).toEqual(['file', 'function', 'file']);
    expect(deprecationOf(file.headers)).toEqual(EXPECTED);
    expect(deprecationOf(fn.headers)).toEqual(EXPECTED);
    expect(deprecationOf(other.headers)).toEqual({ deprecation: null, sunset: null, link: null });
  });

  it('is `deprecated: true` in a valid OpenAPI document, with the headers documented', async () => {
    const doc = buildOpenApi(false) as OpenApi;
    const op = doc.paths['/api/v1/test/deprecated'].get;
    const fnOp = doc.paths['/api/v1/test/deprecated-fn'].get;
    expect([op.deprecated, fnOp.deprecated, doc.paths['/api/v1/live/summary'].get.deprecated]).toEqual([
      true,
      true,
      undefined,
    ]);
    expect(Object.keys(op.responses['200'].headers)).toEqual(
      expect.arrayContaining(['Deprecation', 'Sunset', 'Link', 'X-Request-Id']),
    );
    expect(op.description).toContain('answers until 2027-01-15');
    expect(doc.info.description).toMatch(/\*\*Deprecation\.\*\*[^\n]*at least 90 days before its sunset/);
    const res = await new Validator().validate(doc);
    expect(res.errors ?? []).toEqual([]);
  });
});

describe('the notice policy', () => {
  it('refuses a sunset less than 90 days after the deprecation', () => {
    expect(() => checkDeprecation('x', { ...T, sunset: '2026-12-29' })).toThrow(
      /89 days after the deprecation; v1 promises at least 90. Move `sunset` to 2026-12-30/,
    );
    expect(() => checkDeprecation('x', { ...T, sunset: '2026-12-30' })).not.toThrow();
    expect(() => checkDeprecation('x', { ...T, since: 'soon' })).toThrow(/expected ISO dates/);
  });

  it('is documented in docs/guardrails.md, and no current endpoint is deprecated', async () => {
    const readme = fs.readFileSync(new URL('../../docs/guardrails.md', import.meta.url), 'utf8');
    expect(readme).toMatch(/## Deprecation[\s\S]*`Sunset: <HTTP-date>`[\s\S]*at least 90 days after the\s+deprecation/);
    const real = await vi.importActual<typeof import('../src/contract/catalogue.ts')>('../src/contract/catalogue.ts');
    expect(real.CATALOGUE.length).toBeGreaterThan(20);
    expect([...real.CATALOGUE, ...real.FUNCTION_ENDPOINTS].filter((e) => e.deprecated).map((e) => e.id)).toEqual([]);
  });
});
