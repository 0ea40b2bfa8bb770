// `npx tsx scripts/bench-upload.ts`: incremental upload to an S3-compatible store (moto's server on 127.0.0.1, from
// scripts/install-s3-server.sh). Times and counts requests for: the first upload of a live tree, an unchanged cycle,
// a storm cycle (the simulator 30 minutes on), and the first full history publish (simulated EAGLE-I years).
// Environment: BENCH_UPLOAD_SOURCES (simulated sources, default 120), BENCH_UPLOAD_YEARS (history years, default 1:
// about 24,000 report files a year), BENCH_UPLOAD_CONCURRENCY (default 16). Writes bench-results/upload.json. Request counts are what a real store bills;
// times are the local server's (moto handles ~100–150 requests/s here, far below S3 or R2).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { manualClock } from '../pipeline/src/clock.ts';
import { Simulator } from '../pipeline/src/simulator/server.ts';
import { parseRegistry } from '../pipeline/src/registry/registry.ts';
import { Pipeline } from '../pipeline/src/pipeline.ts';
import { LOOPBACK_HTTP } from '../pipeline/src/sources/http.ts';
import { Db } from '../pipeline/src/state/db.ts';
import { writeSimulatedHistory } from '../pipeline/src/simulator/history.ts';
import { importEagleI } from '../pipeline/src/history/import.ts';
import { deriveEpisodes } from '../pipeline/src/history/derive.ts';
import { countyModel, loadCountyModel } from '../pipeline/src/geo/county-model.ts';
import { publishHistoryTree } from '../pipeline/src/publish/reports.ts';
import { readManifest } from '../pipeline/src/publish/tree-parts.ts';
import { ObjectStore, parseTarget } from '../pipeline/src/publish/object-store.ts';
import { uploadTree, type PartUpload, type UploadStats } from '../pipeline/src/publish/object-store-upload.ts';

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const SOURCES = Number(process.env.BENCH_UPLOAD_SOURCES ?? 120);
const YEARS = Number(process.env.BENCH_UPLOAD_YEARS ?? 1);
const CONCURRENCY = Number(process.env.BENCH_UPLOAD_CONCURRENCY ?? 16);
const T0 = new Date('2026-09-01T04:00:00Z');
Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'bench', AWS_SECRET_ACCESS_KEY: 'bench', AWS_REGION: 'us-east-1' });

const rows: Array<Record<string, string | number>> = [];
const row = (label: string, s: UploadStats, p: PartUpload, treeFiles: number) => {
  console.log(`${label}: ${s.requests} requests, ${(s.ms / 1000).toFixed(1)} s`);
  rows.push({
    case: label,
    tree_files: treeFiles,
    objects: p.objects,
    files: p.files + p.entries,
    deleted: p.deleted,
    mb: Number((p.bytes / 1e6).toFixed(1)),
    requests: s.requests,
    seconds: Number((s.ms / 1000).toFixed(2)),
  });
};

const bin = execFileSync('bash', [path.join(ROOT, 'scripts/install-s3-server.sh')], { encoding: 'utf8' })
  .trim()
  .split('\n')
  .at(-1)!;
const moto = spawn(bin, ['-H', '127.0.0.1', '-p', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outage-bench-upload-'));
const clock = manualClock(T0);
const sim = new Simulator({
  clock,
  seed: 1,
  epoch: new Date('2026-09-01T00:00:00Z'),
  sources: SOURCES,
  areasPerCounty: 3,
});
let store: ObjectStore | undefined;
let pipeline: Pipeline | undefined;
try {
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    moto.once('exit', (code) => reject(new Error(`moto_server exited with ${code}: ${seen}`)));
    moto.stderr.on('data', (d: Buffer) => {
      seen = (seen + d.toString()).slice(-2000);
      const m = /Running on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
      if (m) resolve(m[1]);
    });
  });
  store = new ObjectStore(parseTarget('s3://outage-bench/site', { endpoint: url }));
  await store.client.send(new CreateBucketCommand({ Bucket: 'outage-bench' }));
  const out = path.join(dir, 'public');
  const upload = () => uploadTree(out, store!, { concurrency: CONCURRENCY });
  const size = (part: 'live' | 'history' = 'live') => Object.keys(readManifest(out, part)?.files ?? {}).length;

  await sim.start();
  pipeline = await Pipeline.open({
    stateDir: path.join(dir, 'state'),
    outDir: out,
    sources: parseRegistry(sim.registryCsv()).sources,
    clock,
    simulated: true,
    http: LOOPBACK_HTTP,
  });
  await pipeline.cycle({ all: true });
  let s = await upload();
  row('live: first upload', s, s.live, size());
  s = await upload();
  row('unchanged cycle (no new generation)', s, s.live, size());
  clock.advance(60_000);
  await pipeline.cycle({ all: true });
  s = await upload();
  row('a cycle one minute on (same upstream)', s, s.live, size());
  clock.advance(30 * 60_000);
  const storm = await pipeline.cycle({ all: true });
  s = await upload();
  row(`storm cycle: 30 min on (${storm.publish.written} written)`, s, s.live, size());
  await pipeline.close();
  pipeline = undefined;

  // History: simulated EAGLE-I years → import → episodes → the report tree, then its first upload.
  const db = await Db.open(path.join(dir, 'history-state'));
  try {
    const model = loadCountyModel();
    const files = await writeSimulatedHistory(db, path.join(dir, 'files'), model, {
      seed: 7,
      firstYear: 2024 - YEARS,
      lastYear: 2023,
      episodesPerYear: 20,
    });
    for (const f of files) await importEagleI(db, f);
    await deriveEpisodes(db, await countyModel(db, model));
    await publishHistoryTree(db, out, { now: new Date('2024-06-01T00:00:00Z') });
  } finally {
    db.close();
  }
  s = await upload();
  row(`history: first full publish (${YEARS} years)`, s, s.history, size('history'));
  s = await upload();
  row('unchanged cycle with history published', s, s.history, size('history'));

  console.table(rows);
  fs.mkdirSync(path.join(ROOT, 'bench-results'), { recursive: true });
  const result = {
    at: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    sources: SOURCES,
    rows,
  };
  fs.writeFileSync(path.join(ROOT, 'bench-results', 'upload.json'), JSON.stringify(result, null, 2));
  console.log('written to bench-results/upload.json');
} finally {
  await pipeline?.close();
  store?.close();
  await sim.stop();
  moto.kill('SIGTERM');
  fs.rmSync(dir, { recursive: true, force: true });
}
