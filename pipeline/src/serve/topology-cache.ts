// The map geometry kept between starts: building it (us-atlas read, thinned, gzipped) takes about a second, which a
// later `outage start` should not spend before its first map. Kept under the state directory, named by a hash of what
// it is built from, so a new us-atlas or a changed simplification builds it again.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { writeFileAtomic } from '../publish/atomic-write.ts';
import { fromRoot } from '../package-root.ts';

const BASE = 'us-counties.topo';
/** The files whose content decides the geometry: the builder, the state codes it adds, and the atlas version. */
const INPUTS = ['site/src/map/topology.ts', 'pipeline/src/geo/states.ts'];

/** The hash of the geometry's inputs, computed once per process. */
let inputKey: string | null = null;
function keyOf(): string {
  if (inputKey) return inputKey;
  const h = createHash('sha1');
  for (const rel of INPUTS) h.update(fs.readFileSync(fromRoot(rel)));
  h.update(createRequire(import.meta.url)('us-atlas/package.json').version as string);
  inputKey = h.digest('hex').slice(0, 16);
  return inputKey;
}

/** The cache directory of a state directory (none without one). */
export const geometryCacheDir = (stateDir: string | undefined): string | undefined =>
  stateDir ? path.join(stateDir, 'cache') : undefined;

export interface CachedGeometry {
  body: Buffer;
  gzip: Buffer;
}

/**
 * The geometry and its gzip form from `dir` when a build of the same inputs is there, else built by `build` and
 * written there for the next start. Without `dir` (tests, the packaged function layer) it is only built.
 */
export async function cachedGeometry(dir: string | undefined, build: () => Promise<CachedGeometry>) {
  if (!dir) return build();
  const file = path.join(dir, `${BASE}.${keyOf()}.json`);
  try {
    return { body: fs.readFileSync(file), gzip: fs.readFileSync(`${file}.gz`) };
  } catch {
    // not built yet (or half removed): build it below
  }
  const built = await build();
  try {
    // Older builds go; the gzip form lands first, so a reader that finds the body finds its gzip too.
    for (const f of fs.existsSync(dir) ? fs.readdirSync(dir) : [])
      if (f.startsWith(`${BASE}.`) && !f.startsWith(path.basename(file))) fs.rmSync(path.join(dir, f), { force: true });
    writeFileAtomic(`${file}.gz`, built.gzip);
    writeFileAtomic(file, built.body);
  } catch (err) {
    console.error(`outage: the map geometry could not be kept in ${dir} (${(err as Error).message}); built each start`);
  }
  return built;
}
