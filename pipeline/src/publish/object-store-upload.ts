// Incremental upload of the published generations to an S3-compatible store: only what changed, in an order that
// never shows a reader a mixed generation, and nothing at all (one HEAD request) when nothing changed.
import fs from 'node:fs';
import { isMirrored } from './mirror.ts';
import { classify, IMMUTABLE, isTreeKey, MANIFEST_HEADERS, manifestKey, objectKey } from './object-store-keys.ts';
import { emptyState, loadState, saveState, withUploadLock, type UploadState } from './object-store-state.ts';
import { md5Hex, ObjectStoreError, targetId, type ObjectStore, type PutHeaders } from './object-store.ts';
import { objectPath, readManifest, type Manifest, type TreePart } from './tree-parts.ts';

export interface PartUpload {
  /** `unchanged`: the generation was uploaded already and the store still has its manifest (one HEAD request) */
  status: 'none' | 'unchanged' | 'uploaded';
  generation: string | null;
  /** the state was rebuilt from a listing of the store (no state file, another target, or the store changed) */
  rebuilt: boolean;
  objects: number;
  files: number;
  entries: number;
  deleted: number;
  bytes: number;
}

export interface UploadStats {
  live: PartUpload;
  history: PartUpload;
  archive: PartUpload;
  /** PUT, DELETE (per key), HEAD and LIST requests in all */
  requests: number;
  ms: number;
}

export interface UploadOptions {
  /** requests in flight at once (default 16) */
  concurrency?: number;
}

/**
 * Uploads what the current manifests publish and the store lacks. Per part, in this order:
 * 1. finish deletions a kill cut short, and delete the objects the previous upload retired (no manifest in the store
 *    names them any more, and the one that last did was replaced a whole upload ago);
 * 2. new content-addressed objects (immutable; nothing names them yet, so no reader can see them early);
 * 3. changed plain files: keyed files (a county, a report) first, then the entry points that link to them;
 * 4. the manifest: the switch for readers that resolve through it;
 * 5. plain files the generation removed (no entry point links to them any more); objects it stopped naming retire.
 */
export async function uploadTree(outDir: string, store: ObjectStore, opts: UploadOptions = {}): Promise<UploadStats> {
  const t0 = Date.now();
  const target = targetId(store.target);
  return withUploadLock(outDir, target, async () => {
    const ctx = { outDir, store, target, concurrency: opts.concurrency ?? 16, requests: 0, listing: null };
    const live = readManifest(outDir, 'live');
    const history = readManifest(outDir, 'history');
    // The trees' URL spaces are disjoint by design (history is reports/*, the archive archive/days and its internal
    // series); a path two list is served from the first of live, history, archive. The archive goes first: the
    // archive index (live) links to its days.
    const inLive = new Set(Object.keys(live?.files ?? {}));
    const archive = await uploadPart(
      ctx,
      'archive',
      readManifest(outDir, 'archive'),
      new Set([...inLive, ...Object.keys(history?.files ?? {})]),
    );
    const historyStats = await uploadPart(ctx, 'history', history, inLive);
    const liveStats = await uploadPart(ctx, 'live', live, new Set());
    return { live: liveStats, history: historyStats, archive, requests: ctx.requests, ms: Date.now() - t0 };
  });
}

interface Ctx {
  outDir: string;
  store: ObjectStore;
  target: string;
  concurrency: number;
  requests: number;
  listing: Map<string, string> | null;
}

async function uploadPart(ctx: Ctx, part: TreePart, manifest: Manifest | null, skip: Set<string>): Promise<PartUpload> {
  const stats: PartUpload = {
    status: 'none',
    generation: null,
    rebuilt: false,
    objects: 0,
    files: 0,
    entries: 0,
    deleted: 0,
    bytes: 0,
  };
  if (!manifest) return stats; // nothing published for this part: nothing of the store is touched
  stats.generation = manifest.generation;
  let state = loadState(ctx.outDir, ctx.target, part);
  if (state?.generation === manifest.generation) {
    ctx.requests += 1;
    if (state.manifest_etag && (await ctx.store.etag(manifestKey(part))) === state.manifest_etag)
      return { ...stats, status: 'unchanged' };
    state = null; // the store changed behind this machine's back (emptied, another uploader): ask it what it has
  }
  const run = new PartRun(ctx, part, manifest, skip, stats);
  if (!state) {
    state = await adopt(ctx, part, run.plain);
    stats.rebuilt = true;
  }
  await run.run(state);
  return { ...stats, status: 'uploaded' };
}

/** One part's upload, phase by phase (the order is uploadTree's). */
class PartRun {
  /** public file → its object */
  readonly plain = new Map<string, string>();
  /** object → a file it serves (for its Content-Type) */
  private readonly firstRel = new Map<string, string>();
  private s: UploadState = emptyState('');

  constructor(
    private readonly ctx: Ctx,
    private readonly part: TreePart,
    private readonly manifest: Manifest,
    private readonly skip: Set<string>,
    private readonly stats: PartUpload,
  ) {
    for (const [rel, e] of Object.entries(manifest.files)) {
      if (!this.firstRel.has(e.object)) this.firstRel.set(e.object, rel);
      if (isMirrored(rel) && !skip.has(rel)) this.plain.set(rel, e.object);
    }
  }

  async run(state: UploadState): Promise<void> {
    this.s = state;
    try {
      await this.dropRetired();
      await this.putObjects();
      await this.putFiles();
      await this.putManifest();
      await this.dropRemoved();
    } finally {
      this.save(); // what completed is remembered even when a request failed: the next upload resumes from there
    }
  }

  /** Keys this generation needs: its objects, its public files, and public files the other tree now serves. */
  private wanted(k: string): boolean {
    if (isTreeKey(k, this.part)) return this.firstRel.has(k.slice(k.lastIndexOf('/') + 1));
    return this.plain.has(k) || this.skip.has(k);
  }

  /** 1. (an object this manifest names again, content back to an earlier value, is kept) */
  private async dropRetired(): Promise<void> {
    const keys = [...this.s.deleting, ...this.s.retired.map((o) => objectKey(this.part, o))];
    this.stats.deleted += await this.remove(keys.filter((k) => !this.wanted(k)));
    this.s.retired = [];
  }

  /** 2. */
  private async putObjects(): Promise<void> {
    const objects = [...this.firstRel.keys()].filter((o) => !this.s.keys[objectKey(this.part, o)]);
    await each(this.ctx, objects, (o) =>
      this.put(objectKey(this.part, o), this.read(o), {
        contentType: classify(this.firstRel.get(o)!).contentType,
        cacheControl: IMMUTABLE,
      }),
    );
    this.stats.objects = objects.length;
    this.save();
  }

  /** 3. A file whose ETag is its object's holds its bytes already. */
  private async putFiles(): Promise<void> {
    const changed = [...this.plain].filter(([rel, o]) => this.s.keys[rel] !== this.s.keys[objectKey(this.part, o)]);
    for (const entry of [false, true]) {
      const group = changed.filter(([rel]) => classify(rel).entry === entry);
      await each(this.ctx, group, ([rel, o]) => this.put(rel, this.read(o), classify(rel)));
      this.stats[entry ? 'entries' : 'files'] = group.length;
    }
    this.save();
  }

  /** 4. The manifest as read at the start (the file may already name a newer generation). */
  private async putManifest(): Promise<void> {
    const body = Buffer.from(JSON.stringify(this.manifest));
    this.s.manifest_etag = await this.ctx.store.put(manifestKey(this.part), body, MANIFEST_HEADERS);
    this.s.keys[manifestKey(this.part)] = `"${md5Hex(body)}"`;
    this.s.generation = this.manifest.generation;
    this.ctx.requests += 1;
    this.save();
  }

  /** 5. */
  private async dropRemoved(): Promise<void> {
    const objects = objectKey(this.part, '');
    this.s.retired = Object.keys(this.s.keys)
      .filter((k) => k.startsWith(objects) && !this.wanted(k))
      .map((k) => k.slice(objects.length));
    const removed = Object.keys(this.s.keys).filter((k) => !isTreeKey(k, this.part) && !this.wanted(k));
    this.stats.deleted += await this.remove(removed);
  }

  private async put(key: string, body: Buffer, h: PutHeaders): Promise<void> {
    await this.ctx.store.put(key, body, h);
    this.s.keys[key] = `"${md5Hex(body)}"`;
    this.stats.bytes += body.length;
  }

  private read(object: string): Buffer {
    try {
      return fs.readFileSync(objectPath(this.ctx.outDir, object, this.part));
    } catch {
      throw new ObjectStoreError(
        `Object ${object} of generation ${this.manifest.generation} (${this.part}) left ${this.ctx.outDir} during the upload: two newer generations were published meanwhile. Run the upload again.`,
      );
    }
  }

  /** Deletes keys: first taken out of the state and saved as `deleting`, so a kill between the two cannot leak them. */
  private async remove(keys: string[]): Promise<number> {
    if (keys.length === 0) return 0;
    for (const k of keys) delete this.s.keys[k];
    this.s.deleting = keys;
    this.save();
    await this.ctx.store.remove(keys);
    this.ctx.requests += keys.length;
    this.s.deleting = [];
    return keys.length;
  }

  private save(): void {
    saveState(this.ctx.outDir, this.part, this.s);
  }
}

/** A state rebuilt from the store's listing: this part's generation keys, and the public files it publishes now. */
async function adopt(ctx: Ctx, part: TreePart, plain: Map<string, string>): Promise<UploadState> {
  if (!ctx.listing) {
    ctx.listing = await ctx.store.list();
    ctx.requests += Math.max(1, Math.ceil(ctx.listing.size / 1000));
  }
  // Objects of an earlier generation the store holds stay in `keys`: the manifest there may still name them, so they
  // retire when this upload's manifest replaces it, like any other. Public files this machine does not publish now
  // are left alone: only keys an upload recorded are ever deleted.
  const s = emptyState(ctx.target);
  for (const [key, etag] of ctx.listing) if (isTreeKey(key, part) || plain.has(key)) s.keys[key] = etag;
  return s;
}

/** Runs `fn` over `items` with `ctx.concurrency` requests in flight; the first failure stops the rest and is thrown. */
async function each<T>(ctx: Ctx, items: T[], fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { err: unknown } | null = null;
  const worker = async () => {
    while (!failure && next < items.length) {
      const item = items[next++];
      try {
        await fn(item);
        ctx.requests += 1;
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(ctx.concurrency, items.length) }, worker));
  if (failure) throw (failure as { err: unknown }).err;
}
