// The map geometry kept between starts: building it (us-atlas read, thinned, compressed) takes a few seconds, which a
// later `outage start` should not spend before its first map. Kept under the state directory, one set of files per
// geometry asset, named by a hash of what it is built from, so a new us-atlas or a changed simplification builds it
// again.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { writeFileAtomic } from '../publish/atomic-write.ts';
import { fromRoot } from '../package-root.ts';

/**
 * The files whose content decides the files kept: the builder, the state codes it adds, this module (the codings it
 * makes), and the atlas version.
 */
const INPUTS = ['site/src/map/topology.ts', 'pipeline/src/geo/states.ts', 'pipeline/src/serve/topology-cache.ts'];

/**
 * Brotli's quality for the geometry: built once a release and the largest file of the map's first paint, so bytes
 * matter more than seconds. On the national file (611 KB) quality 10 makes 135 KB in ~0.4 s, against ~160 KB at the
 * quality the compression middleware codes a request with (4); 11 saves 4 KB more for three times the CPU, which a
 * first start spends before its first map.
 */
const BROTLI_QUALITY = 10;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** The geometry's gzip and brotli forms, made on the thread pool. */
async function codedForms(body: Buffer): Promise<{ gzip: Buffer; br: Buffer }> {
  const [gz, br] = await Promise.all([
    gzip(body, { level: 9 }),
    brotli(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      },
    }),
  ]);
  return { gzip: gz, br };
}

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
  br: Buffer;
}

/**
 * The geometry asset `name` (`us-counties.topo.json`) and its gzip and brotli forms from `dir` when a build of the same
 * inputs is there, else built by `build` (the body), coded, and written there for the next start. Without `dir`
 * (tests, the packaged function layer) it is only built.
 */
export async function cachedGeometry(
  dir: string | undefined,
  name: string,
  build: () => Promise<Buffer>,
): Promise<CachedGeometry> {
  const make = async () => {
    const body = await build();
    return { body, ...(await codedForms(body)) };
  };
  if (!dir) return make();
  const base = name.replace(/\.json$/, '');
  const file = path.join(dir, `${base}.${keyOf()}.json`);
  try {
    return { body: fs.readFileSync(file), gzip: fs.readFileSync(`${file}.gz`), br: fs.readFileSync(`${file}.br`) };
  } catch {
    // not built yet (or half removed): build it below
  }
  const built = await make();
  try {
    // Older builds go; the coded forms land first, so a reader that finds the body finds them too.
    for (const f of fs.existsSync(dir) ? fs.readdirSync(dir) : [])
      if (f.startsWith(`${base}.`) && !f.startsWith(path.basename(file))) fs.rmSync(path.join(dir, f), { force: true });
    writeFileAtomic(`${file}.gz`, built.gzip);
    writeFileAtomic(`${file}.br`, built.br);
    writeFileAtomic(file, built.body);
  } catch (err) {
    console.error(`outage: the map geometry could not be kept in ${dir} (${(err as Error).message}); built each start`);
  }
  return built;
}
