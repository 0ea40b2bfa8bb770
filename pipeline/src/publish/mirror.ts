// The plain-file mirror of the published manifests (`<out>/api/v1/…`, `feeds/`, `llms.txt`: what a static host or an
// upload ships) and its repair. A kill during a mirror sync leaves files of two generations, missing and extra files
// and temporary files; repairMirror makes the mirror exactly the current manifests again before anything reads it.
// It is cheap when nothing is wrong: a marker naming the generations of the last complete sync is checked first.
// A file's precompressed siblings (`map.json.br`, `.gz`: precompress.ts) are mirror files like any other: linked to
// their object's siblings when its manifest entry lists them, deleted as extra when it does not.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import PQueue from 'p-queue';
import { tempPathFor, writeFileAtomic } from './atomic-write.ts';
import { manifestName, objectPath, objectsRoot, readManifest, TREE_PARTS, type TreePart } from './tree-parts.ts';
import { UsageError } from '../errors.ts';
import { CODINGS, SIBLING_SUFFIX } from '../contract/encodings.ts';

/** A mirror path repair did not expect: the manifest lists an object that is not on disk. */
export class MirrorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MirrorError';
  }
}

export interface RepairStats {
  /** false when the marker showed the mirror in sync (nothing else was looked at) */
  verified: boolean;
  temps: number;
  /** files that were not their manifest object (another generation's bytes, or a copy), linked to it again */
  relinked: number;
  missing: number;
  /** files no manifest lists (a removed file a killed sync did not delete), deleted */
  extra: number;
  ms: number;
}

const MARKER = '.mirror.json';
const LOCK = '.mirror.lock';
/** How long a repair or a publish waits for another process's mirror sync before giving up. */
const LOCK_WAIT_MS = 120_000;
const IO_CONCURRENCY = 16;
const isTemp = (name: string) => name.endsWith('.tmp'); // atomic-write.ts: every temporary name ends in `.tmp`
/** Internal files (a path segment starting with `_`, e.g. the function layer's timeline frames) stay out of the mirror. */
export const isMirrored = (rel: string): boolean => !rel.split('/').some((seg) => seg.startsWith('_'));

/** A manifest's generation from its first bytes (the writer puts it first), so the check does not parse megabytes. */
export function manifestGeneration(outDir: string, part: TreePart): string | null {
  let head: string;
  try {
    const fd = fs.openSync(path.join(outDir, manifestName(part)), 'r');
    try {
      const buf = Buffer.alloc(256);
      head = buf.toString('utf8', 0, fs.readSync(fd, buf, 0, buf.length, 0));
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
  return /^\{"generation":"([^"]+)"/.exec(head)?.[1] ?? readManifest(outDir, part)?.generation ?? null;
}

const generations = (outDir: string) => Object.fromEntries(TREE_PARTS.map((p) => [p, manifestGeneration(outDir, p)]));

/** True when the last complete mirror sync was to the manifests published now. */
export function mirrorInSync(outDir: string): boolean {
  try {
    const marker = JSON.parse(fs.readFileSync(path.join(outDir, MARKER), 'utf8')) as {
      version?: number;
      generations?: Record<string, string | null>;
    };
    const now = generations(outDir);
    return marker.version === 2 && TREE_PARTS.every((p) => (marker.generations?.[p] ?? null) === now[p]);
  } catch {
    return false;
  }
}

/** Records a complete sync; call it holding the mirror lock, only once every file is in place. */
export function markMirrorSynced(outDir: string): void {
  writeFileAtomic(path.join(outDir, MARKER), JSON.stringify({ version: 2, generations: generations(outDir) }));
}

/** Removes the temporary files a killed write left beside the manifests; call it holding the mirror lock. */
export function removeRootTemps(outDir: string): number {
  const temps = fs.readdirSync(outDir).filter(isTemp);
  for (const t of temps) fs.rmSync(path.join(outDir, t), { force: true });
  return temps.length;
}

/**
 * Puts `object` at `dest` as a hard link; an existing file is replaced atomically (readers see old or new). `replacing`:
 * the caller knows `dest` is there (the previous generation had it), so the link that would fail is not tried (a
 * storm's sync replaces thousands of files: each failed link costs a syscall and an exception).
 */
export async function linkInto(object: string, dest: string, replacing = false): Promise<void> {
  if (!replacing) {
    try {
      return await fsp.link(object, dest);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  const tmp = tempPathFor(dest);
  await fsp.link(object, tmp);
  await fsp.rename(tmp, dest);
}

/** Deletes `rel`'s parent directories that are left empty (a county that went quiet), up to the output root. */
export function pruneEmptyParents(outDir: string, rel: string): void {
  for (let dir = path.posix.dirname(rel); dir !== '.'; dir = path.posix.dirname(dir)) {
    try {
      fs.rmdirSync(path.join(outDir, dir));
    } catch {
      return; // not empty (or gone): its parents are not empty either
    }
  }
}

/**
 * Makes the mirror exactly the current manifests. Call it before anything reads or ships the mirror (`outage export`,
 * an upload, the start of a process that publishes). Without `verify`, a mirror whose marker names the current
 * generations is trusted: a sync only touches the mirror after its manifest switch and writes the marker last.
 */
export async function repairMirror(outDir: string, opts: { verify?: boolean } = {}): Promise<RepairStats> {
  const t0 = Date.now();
  const none: RepairStats = { verified: false, temps: 0, relinked: 0, missing: 0, extra: 0, ms: 0 };
  if (!fs.existsSync(outDir)) return none;
  if (!opts.verify && mirrorInSync(outDir) && !fs.readdirSync(outDir).some(isTemp))
    return { ...none, ms: Date.now() - t0 };
  return withMirrorLock(outDir, async () => {
    const temps = removeRootTemps(outDir);
    if (!opts.verify && mirrorInSync(outDir)) return { ...none, temps, ms: Date.now() - t0 }; // repaired meanwhile
    const stats = await repairMirrorLocked(outDir);
    return { ...stats, temps: stats.temps + temps, ms: Date.now() - t0 };
  });
}

/** The full verification, holding the mirror lock: every listed file linked to its object, nothing else left. */
export async function repairMirrorLocked(outDir: string): Promise<RepairStats> {
  const t0 = Date.now();
  fs.rmSync(path.join(outDir, MARKER), { force: true }); // a kill during the repair must not leave a marker claiming sync
  fs.rmSync(path.join(outDir, '.mirror-history.json'), { force: true }); // the per-part marker of earlier versions
  const stats: RepairStats = { verified: true, temps: 0, relinked: 0, missing: 0, extra: 0, ms: 0 };
  const expected = new Map<string, { object: string; part: TreePart }>();
  for (const part of [...TREE_PARTS].reverse()) {
    // live last: it wins a path two parts list, as the server reads it
    for (const [rel, e] of Object.entries(readManifest(outDir, part)?.files ?? {})) {
      if (!isMirrored(rel)) continue;
      expected.set(rel, { object: e.object, part });
      for (const c of CODINGS) {
        const sibling = `${rel}${SIBLING_SUFFIX[c]}`;
        // an object's sibling is named like it, so objectPath finds it: `.objects/ab/<sha>.br`
        if (e.encodings?.[c] !== undefined) expected.set(sibling, { object: `${e.object}${SIBLING_SUFFIX[c]}`, part });
        else expected.delete(sibling); // a later part's file replaces an earlier one's, siblings and all
      }
    }
  }
  if (expected.size === 0) return { ...stats, ms: Date.now() - t0 }; // nothing published: nothing of `<out>` is ours to judge
  stats.temps += sweepObjectTemps(outDir);
  // The mirror owns the top-level directories the manifests use; at the root only the listed files are its own.
  const found: string[] = [];
  for (const top of new Set([...expected.keys()].filter((r) => r.includes('/')).map((r) => r.split('/')[0])))
    listFiles(outDir, top, found);
  // ...and the siblings of its root files (`llms.txt.br`)
  for (const rel of [...expected.keys()].filter((r) => !r.includes('/')))
    for (const c of CODINGS)
      if (fs.existsSync(path.join(outDir, rel + SIBLING_SUFFIX[c]))) found.push(rel + SIBLING_SUFFIX[c]);
  const io = new PQueue({ concurrency: IO_CONCURRENCY });
  for (const rel of found) {
    if (expected.has(rel)) continue;
    stats[isTemp(rel) ? 'temps' : 'extra'] += 1;
    void io.add(async () => {
      await fsp.rm(path.join(outDir, rel), { force: true });
      pruneEmptyParents(outDir, rel);
    });
  }
  await io.onIdle();
  const outcomes = await Promise.all(
    [...expected].map(([rel, { object, part }]) => io.add(() => ensureLinked(outDir, rel, object, part))),
  );
  for (const o of outcomes) if (o !== 'ok') stats[o] += 1;
  markMirrorSynced(outDir);
  return { ...stats, ms: Date.now() - t0 };
}

async function ensureLinked(
  outDir: string,
  rel: string,
  name: string,
  part: TreePart,
): Promise<'ok' | 'relinked' | 'missing'> {
  const object = objectPath(outDir, name, part);
  const dest = path.join(outDir, rel);
  const o = await fsp.stat(object).catch(() => {
    const manifest = path.join(outDir, manifestName(part));
    throw new MirrorError(
      `${manifest} lists ${rel} as object ${name}, which is not in the object store, so the published tree is damaged. ` +
        `Delete ${manifest} and run \`outage build\` to write every file anew.`,
    );
  });
  const d = await fsp.lstat(dest).catch(() => null);
  if (d && d.ino === o.ino && d.dev === o.dev) return 'ok';
  if (!d) await fsp.mkdir(path.dirname(dest), { recursive: true });
  await linkInto(object, dest);
  return d ? 'relinked' : 'missing';
}

function listFiles(outDir: string, rel: string, out: string[]): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(path.join(outDir, rel), { withFileTypes: true });
  } catch {
    return; // not there yet
  }
  for (const e of entries) {
    const r = `${rel}/${e.name}`;
    if (e.isDirectory()) listFiles(outDir, r, out);
    else out.push(r);
  }
}

/** Temporary files in the object stores (earlier versions replaced a torn object through one). */
function sweepObjectTemps(outDir: string): number {
  let n = 0;
  for (const part of TREE_PARTS) {
    const found: string[] = [];
    listFiles(outDir, path.relative(outDir, objectsRoot(outDir, part)), found);
    for (const rel of found.filter(isTemp)) {
      fs.rmSync(path.join(outDir, rel), { force: true });
      n += 1;
    }
  }
  return n;
}

const chains = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` holding the mirror lock of `outDir`, so a sync (a publish's manifest switch and links) and a repair
 * (`outage export` beside a running poll) never interleave. In-process callers queue; across processes a lock file
 * names its holder, and one whose process is gone (a SIGKILL) is taken over.
 */
export function withMirrorLock<T>(outDir: string, fn: () => Promise<T>): Promise<T> {
  const key = path.resolve(outDir);
  const run = (chains.get(key) ?? Promise.resolve()).then(async () => {
    const file = path.join(key, LOCK);
    await acquire(file);
    try {
      return await fn();
    } finally {
      fs.rmSync(file, { force: true });
    }
  });
  chains.set(
    key,
    run.catch(() => undefined),
  );
  return run;
}

async function acquire(file: string): Promise<void> {
  const giveUp = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = lockHolder(file);
    if (holder === 'gone') fs.rmSync(file, { force: true });
    else if (Date.now() > giveUp) {
      throw new UsageError(
        `The published mirror in ${path.dirname(file)} is being synced by process ${holder} (${LOCK}); wait for it, or delete ${file} if that is not an outage process.`,
      );
    } else await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The pid holding the lock, or `gone` when that process no longer runs (its lock is stale). */
function lockHolder(file: string): number | 'gone' {
  let pid: number;
  let age: number;
  try {
    pid = Number(fs.readFileSync(file, 'utf8'));
    age = Date.now() - fs.statSync(file).mtimeMs;
  } catch {
    return 'gone'; // released meanwhile
  }
  if (!Number.isInteger(pid) || pid <= 0) return age > 10_000 ? 'gone' : 0; // being written, or torn by a kill
  if (pid === process.pid) return 'gone'; // this process queues its own holders, so this is a dead one's with our pid
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? pid : 'gone';
  }
}
