#!/usr/bin/env node
// `node scripts/run-built.mjs scripts/X.ts [args]`: runs a maintenance script as plain JavaScript, the way production
// runs the pipeline (scripts/build.mjs), not through tsx: the script is bundled with esbuild into dist/ beside the
// CLI's build (which the script's pipeline then shares: the server's thread, package root), and imported. The
// national bench runs so: its memory and time figures are then the deployment's, without tsx's compiler and caches.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, buildIsFresh } from './build.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [script, ...args] = process.argv.slice(2);
if (!script) {
  console.error('usage: node scripts/run-built.mjs scripts/NAME.ts [args]');
  process.exit(2);
}
const dist = path.join(ROOT, 'dist');
if (!buildIsFresh(dist)) await build(dist);
const out = path.join(dist, `${path.basename(script, '.ts')}.script.mjs`);
const { build: esbuild } = await import('esbuild');
await esbuild({
  absWorkingDir: ROOT,
  entryPoints: [script],
  outfile: out,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  packages: 'external',
  logLevel: 'warning',
});
// argv[1] stays the script's own path: the bench's modules run their standalone mains only when started themselves.
process.argv = [process.argv[0], path.resolve(script), ...args];
await import(pathToFileURL(out).href);
