// How a serve thread starts (the server's own, worker.ts, and the function layer's, function-thread.ts): the built
// entry beside this chunk when the process runs the build (scripts/build.mjs writes each entry into one flat
// directory), else the TypeScript through tsx.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fromRoot, RUNS_BUILT } from '../package-root.ts';

export type ThreadEntry = 'worker' | 'function-thread';

/** The script a `new Worker(script, { eval: true })` runs to load `entry`. */
export function bootScript(entry: ThreadEntry): string {
  if (RUNS_BUILT) return `import(${JSON.stringify(new URL(`./${entry}.js`, import.meta.url).href)});`;
  // From the sources, the thread registers tsx first, as bin/outage.js does (loader hooks are per thread on Node 20).
  // tsx's ESM entry is found through its package.json: require.resolve would give the CommonJS one, which cannot
  // register when imported.
  const tsxPkg = createRequire(import.meta.url).resolve('tsx/package.json');
  const api = JSON.parse(fs.readFileSync(tsxPkg, 'utf8')).exports['./esm/api'].import.default;
  const tsxApi = pathToFileURL(path.join(path.dirname(tsxPkg), api)).href;
  const file = pathToFileURL(fromRoot(`pipeline/src/serve/${entry}.ts`)).href;
  return `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(file)}); });`;
}
