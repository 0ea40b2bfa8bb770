// Atomic publishing. Each response body is stored once as an immutable content-addressed object
// (`.objects/ab/<sha>`); a generation is a manifest mapping every public file to its object, and publishing is one
// rename(2) of `.manifest.json`. Readers (the local server, `outage export`) resolve through the manifest, so they
// see the previous complete tree or the new one, never a mix; a crash before the rename changes nothing served.
// After the switch the plain-file mirror under `<out>/api/…` (what a static host or an upload ships) is brought up to
// date by hard-linking the changed objects into place (mirror.ts: a mirror a kill left mixed is repaired in full).
// A mirrored text object of 1 KB or more has precompressed siblings (precompress.ts), linked beside its file.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import PQueue from 'p-queue';
import { safeRelative } from '../contract/urls.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { CODINGS, precompressible } from '../contract/encodings.ts';
import {
  ENCODE_CONCURRENCY,
  effortFor,
  removeSiblings,
  siblingPath,
  writeSiblings,
  type Effort,
} from './precompress.ts';
import {
  isMirrored,
  linkInto,
  manifestGeneration,
  markMirrorSynced,
  mirrorInSync,
  pruneEmptyParents,
  removeRootTemps,
  repairMirrorLocked,
  withMirrorLock,
} from './mirror.ts';
import {
  manifestName,
  objectPath,
  objectsRoot,
  readManifest,
  type Encodings,
  type Manifest,
  type ManifestEntry,
  type TreePart,
} from './tree-parts.ts';

export interface PublishStats {
  /** files written anew (the first few are named in `sample`) */
  written: number;
  /** the bytes of the files written anew */
  bytes?: number;
  unchanged: number;
  removed: number;
  sample?: string[];
  /** objects this publish gave precompressed siblings, and their bytes (identity, br, gzip) */
  precompressed?: { objects: number; bytes: number; br: number; gzip: number };
}

/** The writer the publisher talks to: the file-system one below, and an in-memory one for tests. */
export interface TreeWriter {
  /** `render` is called only when `basis` differs from the previous generation's */
  put(rel: string, render: (generatedAt: string) => Buffer, basis: Buffer): void;
  /** carries a file of the previous generation over unchanged; false when there is none to carry */
  keep(rel: string): boolean;
  /** true when the previous generation has `rel` with this change basis (so its siblings can be kept too) */
  same(rel: string, basis: Buffer): boolean;
  /** carries every file of the previous generation over except `rels` (a quiet cycle then puts only those) */
  keepAllExcept(rels: ReadonlySet<string>): void;
  commit(meta: { simulated: boolean; notice: string }): Promise<PublishStats>;
  /** waits until the writes queued so far are on disk (bounds memory when publishing many files) */
  flush(): Promise<void>;
  /** waits while more than a few dozen writes are queued: bounds the bodies held in memory without idling the disk */
  drain(): Promise<void>;
}

/** File-system operations in flight at once: metadata-bound disks do far better with several outstanding. */
const IO_CONCURRENCY = 16;
/** Writes queued beyond those in flight before `drain` waits (a storm county's files are ~1 MB). */
const QUEUED_WRITES = 64;
/** Objects waiting for compression before `drain` waits (bounds the bodies held when compression falls behind). */
const QUEUED_ENCODES = 16;

export const hashOf = (b: Buffer): string => createHash('sha256').update(b).digest('hex').slice(0, 32);

/**
 * Stores an object. Objects are named by their content hash, so an existing one of the right size already holds these
 * bytes: creating it exclusively is one metadata operation instead of a write and a rename. A torn object (wrong
 * size) is one a kill cut short before any manifest listed it, so no reader can be reading it: it is rewritten in
 * place, which leaves no temporary file behind for a second kill to strand.
 */
async function writeObject(file: string, body: Buffer): Promise<void> {
  try {
    await fsp.writeFile(file, body, { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    if ((await fsp.stat(file)).size !== body.length) await fsp.writeFile(file, body);
  }
}

export class FsTreeWriter implements TreeWriter {
  private readonly prev: Manifest | null;
  private readonly files: Record<string, ManifestEntry> = {};
  private readonly changed: string[] = [];
  private readonly dirs = new Set<string>();
  private readonly io = new PQueue({ concurrency: IO_CONCURRENCY });
  private readonly zip = new PQueue({ concurrency: ENCODE_CONCURRENCY });
  /** objects given siblings by this writer (one object may serve several files) */
  private readonly coded = new Map<string, Promise<Encodings>>();
  /** each coded file's entry, completed with its siblings' sizes */
  private readonly codedEntries: Array<Promise<unknown>> = [];
  private readonly precompressed = { objects: 0, bytes: 0, br: 0, gzip: 0 };
  private failure: Error | null = null;
  private unchanged = 0;

  constructor(
    private readonly outDir: string,
    private readonly now: Date,
    private readonly part: TreePart = 'live',
  ) {
    fs.mkdirSync(objectsRoot(outDir, part), { recursive: true });
    this.prev = readManifest(outDir, part);
  }

  private mkdir(dir: string): void {
    if (this.dirs.has(dir)) return;
    fs.mkdirSync(dir, { recursive: true });
    this.dirs.add(dir);
  }

  put(rel: string, render: (generatedAt: string) => Buffer, basis: Buffer): void {
    const file = safeRelative(rel);
    const hash = hashOf(basis);
    const old = this.prev?.files[file];
    if (old && old.hash === hash) {
      this.files[file] = old;
      this.unchanged += 1;
      return;
    }
    const generatedAt = this.now.toISOString();
    const body = render(generatedAt);
    const object = hashOf(body);
    const dest = objectPath(this.outDir, object, this.part);
    this.mkdir(path.dirname(dest));
    const entry: ManifestEntry = { hash, object, bytes: body.length, generated_at: generatedAt };
    void this.io.add(() => writeObject(dest, body)).catch((err: Error) => (this.failure ??= err));
    if (isMirrored(file) && precompressible(file, body.length))
      this.codedEntries.push(
        this.siblings(object, dest, body, effortFor(file)).then(
          (e) => (entry.encodings = e),
          (err: Error) => (this.failure ??= err),
        ),
      );
    this.files[file] = entry;
    this.changed.push(file);
  }

  /** The object's siblings, compressed once per object however many files it serves. */
  private siblings(object: string, dest: string, body: Buffer, effort: Effort): Promise<Encodings> {
    let p = this.coded.get(object);
    if (!p) {
      p = this.zip
        .add(() => writeSiblings(dest, body, effort))
        .then((e) => {
          this.precompressed.objects += 1;
          this.precompressed.bytes += body.length;
          this.precompressed.br += e.br ?? 0;
          this.precompressed.gzip += e.gzip ?? 0;
          return e;
        });
      this.coded.set(object, p);
    }
    return p;
  }

  keep(rel: string): boolean {
    const old = this.prev?.files[rel];
    if (!old) return false;
    this.files[rel] = old;
    this.unchanged += 1;
    return true;
  }

  same(rel: string, basis: Buffer): boolean {
    return this.prev?.files[rel]?.hash === hashOf(basis);
  }

  keepAllExcept(rels: ReadonlySet<string>): void {
    for (const rel of Object.keys(this.prev?.files ?? {})) if (!rels.has(rel)) this.keep(rel);
  }

  async flush(): Promise<void> {
    await Promise.all([this.io.onIdle(), ...this.codedEntries]);
    if (this.failure) throw this.failure;
  }

  async drain(): Promise<void> {
    await this.io.onSizeLessThan(QUEUED_WRITES);
    await this.zip.onSizeLessThan(QUEUED_ENCODES);
  }

  async commit(meta: { simulated: boolean; notice: string }): Promise<PublishStats> {
    await this.flush(); // nothing is switched in when a write failed: the previous tree stays served
    const live = new Set(Object.values(this.files).map((e) => e.object));
    const prevFiles = this.prev?.files ?? {};
    const removed = Object.keys(prevFiles).filter((f) => !this.files[f]);
    const garbage = [...new Set(Object.values(prevFiles).map((e) => e.object))].filter((o) => !live.has(o));
    const coded = new Set(Object.values(prevFiles).flatMap((e) => (e.encodings ? [e.object] : [])));
    const generation = `g${this.now.toISOString().replace(/[-:.]/g, '')}-${hashOf(Buffer.from(JSON.stringify(this.files))).slice(0, 8)}`;
    // `generation` first: mirror.ts reads it from the manifest's first bytes.
    const manifest: Manifest = {
      generation,
      published_at: this.now.toISOString(),
      ...meta,
      files: this.files,
      garbage,
      garbage_siblings: garbage.filter((o) => coded.has(o)),
    };
    // The switch and the mirror sync hold the mirror lock, so a repair (`outage export`) never interleaves with them.
    await withMirrorLock(this.outDir, async () => {
      removeRootTemps(this.outDir);
      // A mirror in sync with the previous generation needs only this generation's changes; one that is not (a kill
      // during its last sync) is verified in full against the new manifest instead.
      const inSync =
        mirrorInSync(this.outDir) && manifestGeneration(this.outDir, this.part) === (this.prev?.generation ?? null);
      writeFileAtomic(path.join(this.outDir, manifestName(this.part)), JSON.stringify(manifest)); // the switch
      await this.removeGarbage(live);
      if (!inSync) return void (await repairMirrorLocked(this.outDir));
      await this.syncChanges(removed);
      markMirrorSynced(this.outDir); // last: until it is written, the next reader repairs the mirror first
    });
    return {
      written: this.changed.length,
      bytes: this.changed.reduce((n, f) => n + this.files[f].bytes, 0),
      unchanged: this.unchanged,
      removed: removed.length,
      sample: this.changed.slice(0, 10),
      precompressed: { ...this.precompressed },
    };
  }

  /**
   * Deletes the objects (and their siblings) the previous generation left as garbage, once no manifest names them: on
   * the I/O queue, in parallel and off the main thread (after a storm they are thousands: deleted one by one on the
   * main thread they cost the next, unchanged, cycle 8 s at 3× the bench's storm). A file already gone is no error.
   */
  private async removeGarbage(live: ReadonlySet<string>): Promise<void> {
    const unlink = (file: string) =>
      void this.io
        .add(() => fsp.unlink(file))
        .catch((err: NodeJS.ErrnoException) => {
          if (err.code !== 'ENOENT') this.failure ??= err;
        });
    // only the objects known to have siblings are searched for them: a missing one costs an exception each
    const coded = this.prev?.garbage_siblings ? new Set(this.prev.garbage_siblings) : null;
    for (const o of this.prev?.garbage ?? []) {
      if (live.has(o)) continue;
      const file = objectPath(this.outDir, o, this.part);
      unlink(file);
      if (!coded || coded.has(o)) for (const coding of CODINGS) unlink(siblingPath(file, coding));
    }
    await this.io.onIdle();
    if (this.failure) throw this.failure;
  }

  /**
   * Links this generation's changed files into the mirror, each with the siblings its object has (a sibling an earlier
   * version had and this one lacks is deleted: nginx would send it), and deletes its removed files and their siblings.
   */
  private async syncChanges(removed: string[]): Promise<void> {
    const link = (object: string, dest: string, replacing: boolean) =>
      void this.io.add(() => linkInto(object, dest, replacing)).catch((err: Error) => (this.failure ??= err));
    for (const file of this.changed.filter(isMirrored)) {
      const dest = path.join(this.outDir, file);
      this.mkdir(path.dirname(dest));
      const { object, encodings } = this.files[file];
      const had = this.prev?.files[file];
      const objectFile = objectPath(this.outDir, object, this.part);
      for (const coding of CODINGS) {
        const hadSibling = had?.encodings?.[coding] !== undefined;
        if (encodings?.[coding] !== undefined)
          link(siblingPath(objectFile, coding), siblingPath(dest, coding), hadSibling);
        else if (hadSibling) fs.rmSync(siblingPath(dest, coding), { force: true });
      }
      link(objectFile, dest, had !== undefined);
    }
    await this.io.onIdle();
    if (this.failure) throw this.failure;
    for (const file of removed) {
      fs.rmSync(path.join(this.outDir, file), { force: true });
      if (this.prev?.files[file]?.encodings) removeSiblings(path.join(this.outDir, file));
      pruneEmptyParents(this.outDir, file);
    }
  }
}

/** In-memory writer for tests: the same change detection, no disk. */
export class MemoryTreeWriter implements TreeWriter {
  readonly files = new Map<string, { body: Buffer; entry: ManifestEntry }>();
  protected pending = new Map<string, { body: Buffer; entry: ManifestEntry }>();
  meta: { simulated: boolean; notice: string } | null = null;
  constructor(public now: Date) {}

  put(rel: string, render: (generatedAt: string) => Buffer, basis: Buffer): void {
    const file = safeRelative(rel);
    const hash = hashOf(basis);
    const old = this.files.get(file);
    if (old && old.entry.hash === hash) this.pending.set(file, old);
    else {
      const body = render(this.now.toISOString());
      this.pending.set(file, {
        body,
        entry: { hash, object: hashOf(body), bytes: body.length, generated_at: this.now.toISOString() },
      });
    }
  }

  keep(rel: string): boolean {
    const old = this.files.get(rel);
    if (!old) return false;
    this.pending.set(rel, old);
    return true;
  }

  same(rel: string, basis: Buffer): boolean {
    return this.files.get(rel)?.entry.hash === hashOf(basis);
  }

  keepAllExcept(rels: ReadonlySet<string>): void {
    for (const rel of this.files.keys()) if (!rels.has(rel)) this.keep(rel);
  }

  async flush(): Promise<void> {}

  async drain(): Promise<void> {}

  async commit(meta: { simulated: boolean; notice: string }): Promise<PublishStats> {
    let written = 0;
    let unchanged = 0;
    for (const [f, v] of this.pending) this.files.get(f) === v ? unchanged++ : written++;
    const removed = [...this.files.keys()].filter((f) => !this.pending.has(f)).length;
    this.files.clear();
    for (const [f, v] of this.pending) this.files.set(f, v);
    this.pending = new Map();
    this.meta = meta;
    return { written, unchanged, removed };
  }
}
