// Incremental upload to a real S3-compatible server (moto's, started here on 127.0.0.1 and installed by
// scripts/install-s3-server.sh when missing): upload, change, delete, an unchanged cycle of one request, readers
// during an upload that never see a mixed generation, and each key's Content-Type, Cache-Control and ETag.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Command } from 'commander';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand, GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { CACHE_CONTROL, CONTENT_TYPE, endpoint } from '../src/contract/catalogue.ts';
import { fileFor } from '../src/contract/urls.ts';
import { putCsv, putEntries, putJson, putText } from '../src/publish/formats.ts';
import { FsTreeWriter, hashOf } from '../src/publish/tree-writer.ts';
import { readManifest, type Manifest, type TreePart } from '../src/publish/tree-parts.ts';
import { ObjectStore, parseTarget, type PutHeaders } from '../src/publish/object-store.ts';
import { IMMUTABLE, manifestKey, objectKey } from '../src/publish/object-store-keys.ts';
import { uploadTree } from '../src/publish/object-store-upload.ts';
import { cycleUploader } from '../src/cli/upload.ts';
import { addTargetOptions, register as registerUpload } from '../src/cli/upload-options.ts';
import { closeAll, makeTempDir, removeTempDir } from './clean-machine.ts';

const ROOT = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
const BUCKET = 'outage-test';
const PREFIX = 'site';
const ENV = { AWS_ACCESS_KEY_ID: 'testing', AWS_SECRET_ACCESS_KEY: 'testing', AWS_REGION: 'us-east-1' };
const savedEnv = Object.fromEntries(Object.keys(ENV).map((k) => [k, process.env[k]]));
const countyJson = (fips: string) => fileFor(endpoint('live.county'), { fips }, 'json');
const MAP = fileFor(endpoint('live.map'), {}, 'json');
const md5 = (b: Buffer) => `"${createHash('md5').update(b).digest('hex')}"`;
const isPublic = (rel: string) => !rel.split('/').some((s) => s.startsWith('_'));

let moto: ChildProcess | undefined;
let dir = '';
let out = '';
let url = '';
let client: S3Client;
let store: ObjectStore;
let checked: CheckedStore;

/** The store with a hook run after every request that changes it. */
class CheckedStore extends ObjectStore {
  check: (() => Promise<void>) | null = null;
  calls = 0;
  override async put(rel: string, body: Buffer, h: PutHeaders): Promise<string> {
    const etag = await super.put(rel, body, h);
    await this.after();
    return etag;
  }
  override async remove(rels: string[]): Promise<void> {
    await super.remove(rels);
    if (rels.length) await this.after();
  }
  private async after(): Promise<void> {
    if (!this.check) return;
    this.calls += 1;
    await this.check();
  }
}

/** Counties out → one live generation: county JSON + CSV, the map listing them, the summary, an internal file. */
async function publishLive(at: string, counties: Record<string, number>): Promise<Manifest> {
  const w = new FsTreeWriter(out, new Date(at));
  for (const [fips, n] of Object.entries(counties)) {
    putJson(w, countyJson(fips), { fips, customers_out: n });
    putCsv(w, fileFor(endpoint('live.county'), { fips }, 'csv'), ['fips', 'customers_out'], () => [[fips, n]]);
  }
  putEntries(w, MAP, Object.fromEntries(Object.entries(counties).map(([f, n]) => [f, [n]])));
  const total = Object.values(counties).reduce((a, b) => a + b, 0);
  putJson(w, fileFor(endpoint('live.summary'), {}, 'json'), { customers_out: total });
  putText(w, 'llms.txt', 'outage data (test)\n');
  putJson(w, 'api/v1/live/_county-series.json', { counties: Object.keys(counties).length });
  await w.commit({ simulated: true, notice: 'test' });
  return readManifest(out)!;
}

async function publishHistory(at: string, years: number[]): Promise<Manifest> {
  const w = new FsTreeWriter(out, new Date(at), 'history');
  for (const year of years) {
    putJson(w, fileFor(endpoint('reports.year'), { year: String(year) }, 'json'), { year, episodes: year % 97 });
    const png = Buffer.from(`\x89PNG fake chart ${year}`);
    w.put(fileFor(endpoint('reports.year.chart'), { year: String(year) }, 'png'), () => png, png);
  }
  await w.commit({ simulated: true, notice: 'test' });
  return readManifest(out, 'history')!;
}

const counties = (from: number, n: number, value: (i: number) => number) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [String(12001 + 2 * (from + i)).padStart(5, '0'), value(i)]));

async function get(key: string): Promise<Buffer | null> {
  try {
    const r = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: `${PREFIX}/${key}` }));
    return Buffer.from(await r.Body!.transformToByteArray());
  } catch (err) {
    if ((err as { name?: string }).name === 'NoSuchKey') return null;
    throw err;
  }
}
const head = (key: string) => client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: `${PREFIX}/${key}` }));
const exists = async (key: string) => (await store.etag(key)) !== null;

async function startMoto(bin: string): Promise<string> {
  const child = spawn(bin, ['-H', '127.0.0.1', '-p', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  moto = child;
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`moto_server did not start in 30 s: ${seen}`)), 30_000);
    child.once('exit', (code) => reject(new Error(`moto_server exited with ${code}: ${seen}`)));
    // Drained for as long as it runs: it logs every request, and a full pipe would stall it.
    child.stderr!.on('data', (d: Buffer) => {
      seen = (seen + d.toString()).slice(-2000);
      const m = /Running on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
}

beforeAll(async () => {
  Object.assign(process.env, ENV);
  dir = makeTempDir('object-store');
  out = path.join(dir, 'public');
  const bin = execFileSync('bash', [path.join(ROOT, 'scripts/install-s3-server.sh')], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .at(-1)!;
  url = await startMoto(bin);
  store = new ObjectStore(parseTarget(`s3://${BUCKET}/${PREFIX}`, { endpoint: url }));
  client = store.client;
  checked = new CheckedStore(store.target);
  await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
});

afterAll(() =>
  closeAll(
    () => store?.close(),
    () => checked?.close(),
    async () => {
      if (!moto || moto.exitCode !== null) return;
      const exited = new Promise((resolve) => moto!.once('exit', resolve));
      moto.kill('SIGTERM');
      await exited;
    },
    () => removeTempDir(dir),
    () => {
      for (const [k, v] of Object.entries(savedEnv)) v === undefined ? delete process.env[k] : (process.env[k] = v);
    },
  ),
);

describe('outage upload to an S3-compatible store', () => {
  let gen1: Manifest;
  let gen2: Manifest;

  it('uploads every object and public file of both trees, once', async () => {
    gen1 = await publishLive(
      '2026-09-01T08:00:00Z',
      counties(0, 12, (i) => 100 + i),
    );
    const hist = await publishHistory('2026-09-01T08:00:00Z', [2021, 2022, 2023]);
    const s = await uploadTree(out, store);
    for (const [part, m, st] of [
      ['live', gen1, s.live],
      ['history', hist, s.history],
    ] as const) {
      const rels = Object.keys(m.files);
      expect(rels.length).toBeGreaterThan(0);
      expect(st.status).toBe('uploaded');
      expect(st.objects).toBe(new Set(Object.values(m.files).map((e) => e.object)).size);
      expect(st.files + st.entries).toBe(rels.filter(isPublic).length);
      const listed = [...(await store.list()).keys()];
      const expected = [
        ...rels.filter(isPublic),
        ...Object.values(m.files).map((e) => objectKey(part as TreePart, e.object)),
        manifestKey(part),
      ];
      for (const k of expected) expect(listed, k).toContain(k);
    }
    expect(s.live.entries).toBe(3); // the map, the summary and llms.txt: after the 24 county files
    const rel = countyJson('12001');
    expect(await get(rel)).toEqual(fs.readFileSync(path.join(out, rel)));
    expect(await get('api/v1/live/_county-series.json')).toBeNull(); // internal: only its object is uploaded
  });

  it('gives each key its Content-Type, Cache-Control class and MD5 ETag', async () => {
    const cases: Array<[string, string, string]> = [
      [countyJson('12003'), CONTENT_TYPE.json, CACHE_CONTROL.live],
      [fileFor(endpoint('live.county'), { fips: '12003' }, 'csv'), CONTENT_TYPE.csv, CACHE_CONTROL.live],
      ['llms.txt', CONTENT_TYPE.txt, CACHE_CONTROL.static],
      [fileFor(endpoint('reports.year'), { year: '2022' }, 'json'), CONTENT_TYPE.json, CACHE_CONTROL.history],
      [fileFor(endpoint('reports.year.chart'), { year: '2022' }, 'png'), CONTENT_TYPE.png, CACHE_CONTROL.history],
    ];
    for (const [rel, type, cache] of cases) {
      const h = await head(rel);
      expect([h.ContentType, h.CacheControl], rel).toEqual([type, cache]);
      expect(h.ETag, rel).toBe(md5(fs.readFileSync(path.join(out, rel))));
    }
    const obj = gen1.files[MAP].object;
    const h = await head(objectKey('live', obj));
    expect([h.ContentType, h.CacheControl, h.ETag]).toEqual([
      CONTENT_TYPE.json,
      IMMUTABLE,
      await head(MAP).then((x) => x.ETag),
    ]);
    const m = await head(manifestKey('live'));
    expect(m.CacheControl).toBe('no-cache');
    expect(JSON.parse((await get(manifestKey('live')))!.toString()).generation).toBe(gen1.generation);
  });

  it('an unchanged cycle uploads nothing: one HEAD request per tree', async () => {
    const s = await uploadTree(out, store);
    expect([s.live.status, s.history.status, s.requests]).toEqual(['unchanged', 'unchanged', 2]);
  });

  it('uploads only what changed, deletes what was removed, and readers never see a mixed generation', async () => {
    // 4 removed, 2 changed, 6 unchanged, 3 added
    gen2 = await publishLive('2026-09-01T08:10:00Z', {
      ...counties(4, 2, (i) => 500 + i),
      ...counties(6, 6, (i) => 106 + i),
      ...counties(12, 3, (i) => 900 + i),
    });
    const changed = Object.keys(gen2.files).filter(
      (r) => isPublic(r) && gen1.files[r]?.object !== gen2.files[r].object,
    );
    const removed = Object.keys(gen1.files).filter((r) => isPublic(r) && !gen2.files[r]);
    expect([changed.length, removed.length]).toEqual([(2 + 3) * 2 + 2, 4 * 2]); // + the map and the summary
    // A reader looks at the store after every request of the upload (one at a time, so every in-between state is seen).
    const problems: string[] = [];
    const seen = new Set<string>();
    checked.check = async () => {
      seen.add(await readThroughManifest(problems));
      await readPublicFiles(problems);
    };
    const s = await uploadTree(out, checked, { concurrency: 1 }).finally(() => (checked.check = null));
    expect(problems).toEqual([]);
    expect(seen).toEqual(new Set([gen1.generation, gen2.generation]));
    expect([s.live.files + s.live.entries, s.live.deleted, s.history.status]).toEqual([
      changed.length,
      removed.length,
      'unchanged',
    ]);
    expect(checked.calls).toBe(s.live.objects + changed.length + 1 + 1); // objects, files, the manifest, one delete batch
    for (const r of removed) expect(await exists(r), r).toBe(false);
    // Objects gen2 stopped naming stay a generation longer, for readers still resolving through gen1's manifest.
    const named = (m: Manifest) => new Set(Object.values(m.files).map((e) => e.object));
    const dropped = [...named(gen1)].filter((o) => !named(gen2).has(o));
    expect(dropped.length).toBeGreaterThan(0);
    for (const o of dropped) expect(await exists(objectKey('live', o)), o).toBe(true);
    const gen3 = await publishLive(
      '2026-09-01T08:20:00Z',
      counties(6, 6, (i) => 106 + i),
    );
    await uploadTree(out, store);
    const gone = dropped.filter((o) => !named(gen3).has(o));
    expect(gone.length).toBeGreaterThan(0);
    for (const o of gone) expect(await exists(objectKey('live', o)), o).toBe(false);
  });

  it('rebuilds a lost upload state from the store listing without uploading the files again', async () => {
    fs.rmSync(path.join(out, '.uploads'), { recursive: true, force: true });
    const s = await uploadTree(out, store);
    expect([s.live.rebuilt, s.live.objects, s.live.files, s.live.entries]).toEqual([true, 0, 0, 0]);
    expect([s.history.rebuilt, s.history.objects, s.history.files]).toEqual([true, 0, 0]);
    const again = await uploadTree(out, store);
    expect([again.live.status, again.requests]).toEqual(['unchanged', 2]);
  });

  it('`outage upload --to s3://… --endpoint …` uploads a new generation and reports it', async () => {
    await publishLive(
      '2026-09-01T08:30:00Z',
      counties(6, 7, (i) => 106 + i),
    ); // one county added
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((s) => {
      lines.push(String(s));
      return true;
    });
    try {
      const program = new Command('outage').exitOverride();
      registerUpload(program);
      const args = ['upload', '--out', out, '--to', `s3://${BUCKET}/${PREFIX}`, '--endpoint', url];
      await program.parseAsync(args, { from: 'user' });
      // `outage poll --upload-to … --upload-endpoint …`: the same upload after a cycle
      const poll = addTargetOptions(new Command('poll').exitOverride(), 'upload-');
      poll.parse(['--upload-to', `s3://${BUCKET}/${PREFIX}`, '--upload-endpoint', url], { from: 'user' });
      const uploader = cycleUploader(out, poll.opts())!;
      await uploader.afterCycle(true);
      uploader.close();
    } finally {
      spy.mockRestore();
    }
    expect(lines[0]).toMatch(
      /^upload to s3:\/\/outage-test\/site @ http:\/\/127\.0\.0\.1:\d+: live 5 objects, 4 files \(2 entry points\), /,
    );
    expect(lines[0]).toContain('history unchanged');
    expect(lines[1]).toMatch(/live unchanged · history unchanged · archive none · 2 requests/);
    expect(await exists(countyJson(String(12001 + 2 * 12)))).toBe(true);
  });
});

/**
 * A reader that resolves through the manifest: the map and every county it lists, from the manifest's objects. Each
 * body must be there and hash to the manifest's name for it, and every county's customers_out must be the map's (a
 * county file of another generation would differ). Returns the generation it read.
 */
async function readThroughManifest(problems: string[]): Promise<string> {
  const m = JSON.parse((await get(manifestKey('live')))!.toString()) as Manifest;
  const body = async (rel: string) => {
    const b = await get(objectKey('live', m.files[rel].object));
    if (!b || hashOf(b) !== m.files[rel].object) problems.push(`${m.generation}: ${rel} is not its manifest's object`);
    return JSON.parse(b?.toString() ?? '{"data":{}}').data;
  };
  const map = (await body(MAP)) as Record<string, [number]>;
  await Promise.all(
    Object.entries(map).map(async ([fips, [n]]) => {
      const c = (await body(countyJson(fips))) as { customers_out?: number };
      if (c.customers_out !== n) problems.push(`${m.generation}: county ${fips} has ${c.customers_out}, its map ${n}`);
    }),
  );
  return m.generation;
}

/** A reader of the public files: every county the map lists has its file (added ones before the map, removed after). */
async function readPublicFiles(problems: string[]): Promise<void> {
  const map = JSON.parse((await get(MAP))!.toString()).data as Record<string, unknown>;
  await Promise.all(
    Object.keys(map).map(async (fips) => {
      if (!(await get(countyJson(fips)))) problems.push(`the map lists ${fips} but its file is not there`);
    }),
  );
}
