#!/usr/bin/env node
// `npm run build`: bundles the CLI (dist/outage.js), the server's thread (dist/worker.js) and the function layer's
// threads (dist/function-thread.js) with esbuild, so the production process runs plain JavaScript without tsx.
// Packages stay external (node_modules beside it). One flat directory: a thread finds its entry beside whichever
// chunk starts it. Atomic for a running process: chunks are content-named and written before the entries, each entry
// is renamed into place, and chunks an older build left are removed only after a day. bin/outage.js runs the build
// only while it is fresh.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where the bundle's inputs live: a build is fresh while no file here is newer than the build's stamp. */
const SOURCE_DIRS = ['pipeline/src', 'site/src'];
const STAMP = '.build-stamp';
const CHUNK_GRACE_MS = 24 * 3600_000;

/** The newest modification time (ms) of the bundle's inputs (tests excluded: they are never bundled). */
export function newestSource(root = ROOT) {
  let newest = 0;
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (!e.name.includes('.test.')) newest = Math.max(newest, fs.statSync(p).mtimeMs);
    }
  };
  for (const d of SOURCE_DIRS) walk(path.join(root, d));
  return newest;
}

/** Whether `dir` holds a build at least as new as every source file (its stamp records the sources it saw). */
export function buildIsFresh(dir = path.join(ROOT, 'dist'), root = ROOT) {
  try {
    return Number(fs.readFileSync(path.join(dir, STAMP), 'utf8')) >= newestSource(root);
  } catch {
    return false;
  }
}

function writeAtomic(file, contents) {
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, contents);
  fs.renameSync(tmp, file);
}

/** Removes chunks the new build does not name once they are a day old (a running process may still load them). */
function pruneChunks(outDir, kept, now) {
  for (const name of fs.readdirSync(outDir)) {
    const p = path.join(outDir, name);
    if (name !== STAMP && !kept.has(p) && now - fs.statSync(p).mtimeMs > CHUNK_GRACE_MS) fs.rmSync(p);
  }
}

/** Builds into `outDir` (default dist/). Returns the output files. */
export async function build(outDir = path.join(ROOT, 'dist')) {
  const { build: esbuild } = await import('esbuild');
  const seen = newestSource();
  const result = await esbuild({
    absWorkingDir: ROOT,
    entryPoints: {
      outage: 'pipeline/src/cli/main.ts',
      worker: 'pipeline/src/serve/worker.ts',
      'function-thread': 'pipeline/src/serve/function-thread.ts',
    },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    packages: 'external',
    sourcemap: 'linked',
    outdir: outDir,
    chunkNames: '[name]-[hash]',
    write: false,
    logLevel: 'warning',
  });
  const files = result.outputFiles;
  const entries = new Set(['outage', 'worker', 'function-thread'].flatMap((name) => [`${name}.js`, `${name}.js.map`]));
  const isChunk = (f) => !entries.has(path.basename(f.path));
  fs.mkdirSync(outDir, { recursive: true });
  for (const f of files.filter(isChunk)) if (!fs.existsSync(f.path)) writeAtomic(f.path, f.contents);
  for (const f of files.filter((f) => !isChunk(f))) writeAtomic(f.path, f.contents);
  pruneChunks(outDir, new Set(files.map((f) => f.path)), Date.now());
  writeAtomic(path.join(outDir, STAMP), String(seen));
  return files.map((f) => path.relative(ROOT, f.path));
}

if (process.argv[1] && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ? path.resolve(process.argv[2]) : undefined;
  const started = performance.now();
  const files = await build(out);
  const ms = Math.round(performance.now() - started);
  console.log(
    `built ${files.filter((f) => f.endsWith('.js')).length} files in ${ms} ms: ${path.relative(ROOT, out ?? path.join(ROOT, 'dist'))}/outage.js`,
  );
}
