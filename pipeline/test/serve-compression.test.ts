// Compressed answers through the real local server on 127.0.0.1 (issue 28 part 3), read as raw bytes off the socket
// (fetch would decode them): Accept-Encoding negotiation with q-values and identity, the decoded body byte for byte
// the identity body, a strong ETag per coding with 304s for each, precompressed siblings sent as they are, and no
// coding for PNG, Parquet, small bodies or HEAD.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { startServer } from '../src/serve/server.ts';
import { FsTreeWriter } from '../src/publish/tree-writer.ts';
import { MANIFEST, objectPath, readManifest } from '../src/publish/tree-parts.ts';
import { FRAMES_FILE } from '../src/publish/publish.ts';
import { closeAll, makeTempDir, removeTempDir } from './clean-machine.ts';

const T0 = new Date('2026-09-01T08:00:00Z');
const SUMMARY = 'api/v1/live/summary.json'; // text with siblings
const SOURCES = 'api/v1/live/sources.json'; // text published without siblings (before they existed)
const CSV = 'api/v1/live/counties/12086.incidents.csv';
const MAP = 'api/v1/live/map.json'; // under 1 KB
const PNG = 'api/v1/reports/2024.chart.png';
const PARQUET = 'api/v1/archive/days/2026-08-31.parquet';

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ fips: String(12000 + i), customers_out: i * 7 }));
const BODIES: Record<string, Buffer> = {
  [SUMMARY]: Buffer.from(JSON.stringify({ data: { generated_at: T0.toISOString(), states: rows(300) } })),
  [SOURCES]: Buffer.from(JSON.stringify({ data: { generated_at: T0.toISOString(), sources: rows(200) } })),
  [CSV]: Buffer.from(
    `id,customers_out\n${rows(300)
      .map((r) => `${r.fips},${r.customers_out}`)
      .join('\n')}\n`,
  ),
  [MAP]: Buffer.from(JSON.stringify({ data: { 12086: [10, 0.1, 1, 0, 0] } })),
  [PNG]: Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(6000, 1)]),
  [PARQUET]: Buffer.concat([Buffer.from('PAR1'), Buffer.alloc(6000, 2), Buffer.from('PAR1')]),
};
const frames = Array.from({ length: 96 }, (_, i) =>
  ['fl', 'ga', 'al', 'tx'].map((state) => ({
    at: new Date(T0.getTime() - (95 - i) * 900_000).toISOString(),
    state,
    customers_out: i * 13,
    pct_out: null,
    band: 1,
  })),
).flat();
BODIES[FRAMES_FILE] = Buffer.from(JSON.stringify({ data: { generated_at: T0.toISOString(), frames } }));

const dir = makeTempDir('serve-compression');
let server: Awaited<ReturnType<typeof startServer>> | undefined;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** the bytes on the wire */
  body: Buffer;
}

/** One request, the body as sent (no decoding). */
function ask(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${server!.url}${url}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function decoded(a: Answer): Buffer {
  const coding = a.headers['content-encoding'];
  if (coding === 'br') return zlib.brotliDecompressSync(a.body);
  if (coding === 'gzip') return zlib.gunzipSync(a.body);
  expect(coding).toBeUndefined();
  return a.body;
}

beforeAll(async () => {
  const w = new FsTreeWriter(dir, T0);
  for (const [rel, body] of Object.entries(BODIES)) w.put(rel, () => body, body);
  await w.commit({ simulated: false, notice: 'test' });
  // sources.json as a generation published before siblings existed lists it: no `encodings`
  const manifest = readManifest(dir)!;
  delete manifest.files[SOURCES].encodings;
  fs.writeFileSync(path.join(dir, MANIFEST), JSON.stringify(manifest));
  server = await startServer({ outDir: dir, port: 0 });
});
afterAll(() =>
  closeAll(
    () => server?.close(),
    () => removeTempDir(dir),
  ),
);

const urlOf = (rel: string) => `/${rel.replace(/\.json$/, '')}`;
const etagOf = (rel: string) => `"${readManifest(dir)!.files[rel].object}"`;

describe('Accept-Encoding negotiation', () => {
  it.each([
    ['', undefined],
    ['identity', undefined],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['gzip, deflate, br', 'br'], // equal weights: the server prefers br
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'br'],
    ['*;q=0.1, br;q=0', 'gzip'],
    ['identity;q=1, br;q=0.5', undefined], // identity weighed above every coding
    ['br;q=0, gzip;q=0', undefined],
    ['deflate', undefined],
  ])('Accept-Encoding `%s` → %s, decoding to the identity bytes', async (accept, coding) => {
    const a = await ask(urlOf(SUMMARY), accept ? { 'Accept-Encoding': accept } : {});
    expect(a.status).toBe(200);
    expect(a.headers['content-encoding']).toBe(coding);
    expect(a.headers.vary).toBe('Accept-Encoding');
    expect(Number(a.headers['content-length'])).toBe(a.body.length);
    expect(decoded(a).equals(BODIES[SUMMARY])).toBe(true);
    expect(a.headers.etag).toBe(coding ? etagOf(SUMMARY).replace(/"$/, `-${coding}"`) : etagOf(SUMMARY));
  });

  it('sends a prebuilt file’s precompressed sibling as it is, and codes a file without one per request', async () => {
    const object = objectPath(dir, readManifest(dir)!.files[SUMMARY].object);
    // Siblings made at another level than the server's: the bytes sent must be these, not a fresh compression.
    const other = {
      br: zlib.brotliCompressSync(BODIES[SUMMARY], { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } }),
      gzip: zlib.gzipSync(BODIES[SUMMARY], { level: 1 }),
    };
    for (const [coding, suffix] of [
      ['br', '.br'],
      ['gzip', '.gz'],
    ] as const) {
      expect(other[coding].equals(fs.readFileSync(object + suffix))).toBe(false);
      fs.writeFileSync(`${object + suffix}.tmp`, other[coding]);
      fs.renameSync(`${object + suffix}.tmp`, object + suffix);
      const a = await ask(urlOf(SUMMARY), { 'Accept-Encoding': coding });
      expect(a.body.equals(other[coding]), coding).toBe(true);
      const csv = await ask('/api/v1/live/counties/12086/incidents?format=csv', { 'Accept-Encoding': coding });
      expect([csv.headers['content-type'], csv.headers['content-encoding']]).toEqual([
        'text/csv; charset=utf-8',
        coding,
      ]);
      expect(decoded(csv).equals(BODIES[CSV])).toBe(true);
    }
    expect(fs.existsSync(`${objectPath(dir, readManifest(dir)!.files[SOURCES].object)}.br`)).toBe(true);
    const sources = await ask(urlOf(SOURCES), { 'Accept-Encoding': 'br' });
    expect([sources.headers['content-encoding'], sources.headers.etag]).toEqual([
      'br',
      etagOf(SOURCES).replace(/"$/, '-br"'),
    ]);
    expect(decoded(sources).equals(BODIES[SOURCES])).toBe(true);
    expect(sources.body.length).toBeLessThan(BODIES[SOURCES].length / 4);
  });

  it('codes function answers and pages too (the timeline, swagger-ui’s stylesheet)', async () => {
    const identity = await ask('/api/v1/live/timeline?hours=24');
    expect(identity.body.length).toBeGreaterThan(4000);
    for (const coding of ['br', 'gzip']) {
      const a = await ask('/api/v1/live/timeline?hours=24', { 'Accept-Encoding': coding });
      expect([a.status, a.headers['content-encoding'], a.headers.vary]).toEqual([200, coding, 'Accept-Encoding']);
      expect(decoded(a).equals(identity.body)).toBe(true);
      const css = await ask('/docs/swagger/swagger-ui.css', { 'Accept-Encoding': coding });
      expect([css.headers['content-encoding'], css.headers.etag]).toEqual([
        coding,
        expect.stringMatching(`-${coding}"$`),
      ]);
      expect(decoded(css).toString()).toContain('.swagger-ui');
    }
  });
});

describe('ETags and 304 per coding', () => {
  it.each([
    [SUMMARY, 'a precompressed sibling'],
    [SOURCES, 'a file coded per request'],
  ])('%s (%s): each coding’s tag gets its 304; another coding’s tag does not', async (rel) => {
    const url = urlOf(rel);
    const tags: Record<string, string> = {};
    for (const coding of ['identity', 'br', 'gzip'])
      tags[coding] = String((await ask(url, { 'Accept-Encoding': coding })).headers.etag);
    expect(new Set(Object.values(tags)).size).toBe(3);
    for (const coding of ['br', 'gzip']) {
      const again = await ask(url, { 'Accept-Encoding': coding, 'If-None-Match': tags[coding] });
      expect([again.status, again.headers.etag, again.body.length, again.headers.vary]).toEqual([
        304,
        tags[coding],
        0,
        'Accept-Encoding',
      ]);
      // a client holding the identity bytes has the current content, in whatever coding it now asks
      const identity = await ask(url, { 'Accept-Encoding': coding, 'If-None-Match': `"x", ${tags.identity}` });
      expect([identity.status, identity.headers.etag]).toEqual([304, tags.identity]);
    }
    const other = await ask(url, { 'Accept-Encoding': 'gzip', 'If-None-Match': tags.br });
    expect([other.status, other.headers['content-encoding'], other.headers.etag]).toEqual([200, 'gzip', tags.gzip]);
    const plain = await ask(url, { 'If-None-Match': tags.br });
    expect([plain.status, plain.headers['content-encoding']]).toEqual([200, undefined]);
  });

  it('a page coded per request: 304 on its coded tag', async () => {
    const first = await ask('/docs/swagger/swagger-ui.css', { 'Accept-Encoding': 'br' });
    const again = await ask('/docs/swagger/swagger-ui.css', {
      'Accept-Encoding': 'br',
      'If-None-Match': String(first.headers.etag),
    });
    expect([again.status, again.headers.etag]).toEqual([304, first.headers.etag]);
  });
});

describe('what is never coded', () => {
  it.each([
    [PNG, '/api/v1/reports/2024/chart', 'image/png'],
    [PARQUET, '/api/v1/archive/days/2026-08-31', 'application/vnd.apache.parquet'],
    [MAP, '/api/v1/live/map', 'application/json; charset=utf-8'],
  ])('%s: sent as it is whatever the client accepts', async (rel, url, type) => {
    const a = await ask(url, { 'Accept-Encoding': 'br, gzip' });
    expect([a.status, a.headers['content-type'], a.headers['content-encoding']]).toEqual([200, type, undefined]);
    expect(a.body.equals(BODIES[rel])).toBe(true);
    expect(readManifest(dir)!.files[rel].encodings).toBeUndefined();
  });

  it('codes a small body only when the client refuses identity', async () => {
    const a = await ask('/api/v1/live/map', { 'Accept-Encoding': 'identity;q=0, gzip;q=0.5' });
    expect(a.headers['content-encoding']).toBe('gzip');
    expect(decoded(a).equals(BODIES[MAP])).toBe(true);
  });

  it('answers HEAD with the identity headers, without a body', async () => {
    for (const url of [urlOf(SUMMARY), urlOf(SOURCES), '/api/v1/live/timeline?hours=24']) {
      const get = await ask(url);
      const head = await ask(url, { 'Accept-Encoding': 'br, gzip' }, 'HEAD');
      expect([head.status, head.headers['content-encoding'], head.body.length]).toEqual([200, undefined, 0]);
      expect(head.headers['content-length'], url).toBe(String(get.body.length));
      expect(head.headers.vary, url).toBe('Accept-Encoding');
    }
  });
});
