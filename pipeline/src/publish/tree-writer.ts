// Atomic publishing of the whole tree as a generation: files go into a new generation directory (unchanged files
// are hard-linked from the previous one, never rewritten), the manifest is written last, and then the top-level
// symlinks (`api`, `llms.txt`) are switched with rename(2). Readers see the old tree or the new one, never a mix
// inside /api; a crash before the switch leaves the previous complete tree served.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { safeRelative } from '../contract/urls.ts';

export interface ManifestEntry {
  hash: string;
  bytes: number;
  generated_at: string;
}

export interface Manifest {
  generation: string;
  published_at: string;
  simulated: boolean;
  notice: string;
  files: Record<string, ManifestEntry>;
}

export interface PublishStats {
  /** files written anew (the first few are named in `sample`) */
  written: number;
  sample?: string[];
  unchanged: number;
  removed: number;
}

/** The writer the publisher talks to; the file system one below, and an in-memory one for tests. */
export interface TreeWriter {
  /** hash basis: bytes that decide "changed" (e.g. JSON without generated_at); defaults to the content */
  put(rel: string, render: (generatedAt: string) => Buffer, basis: Buffer): void;
  /** the generated_at the file will carry: kept from the previous generation when unchanged */
  commit(meta: { simulated: boolean; notice: string }): PublishStats;
}

export const hashOf = (b: Buffer): string => createHash('sha256').update(b).digest('hex').slice(0, 32);

const GENERATIONS = '.generations';
const TOP_LEVEL = ['api', 'llms.txt'];

export function readManifest(outDir: string): Manifest | null {
  try {
    const gen = currentGeneration(outDir);
    if (!gen) return null;
    return JSON.parse(fs.readFileSync(path.join(outDir, GENERATIONS, gen, 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    return null;
  }
}

export function currentGeneration(outDir: string): string | null {
  try {
    return path.basename(path.dirname(fs.readlinkSync(path.join(outDir, 'api'))));
  } catch {
    return null;
  }
}

export class FsTreeWriter implements TreeWriter {
  private readonly prev: Manifest | null;
  private readonly gen: string;
  private readonly genDir: string;
  private readonly files: Record<string, ManifestEntry> = {};
  private stats: PublishStats = { written: 0, unchanged: 0, removed: 0 };

  constructor(private readonly outDir: string, private readonly now: Date) {
    fs.mkdirSync(path.join(outDir, GENERATIONS), { recursive: true });
    this.prev = readManifest(outDir);
    this.gen = `g${now.toISOString().replace(/[-:.]/g, '')}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    this.genDir = path.join(outDir, GENERATIONS, this.gen);
    fs.mkdirSync(this.genDir, { recursive: true });
  }

  put(rel: string, render: (generatedAt: string) => Buffer, basis: Buffer): void {
    const file = safeRelative(rel);
    const hash = hashOf(basis);
    const dest = path.join(this.genDir, file);
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    const old = this.prev?.files[file];
    if (old && old.hash === hash && this.prev) {
      try {
        fs.linkSync(path.join(this.outDir, GENERATIONS, this.prev.generation, file), dest);
        this.files[file] = old;
        this.stats.unchanged += 1;
        return;
      } catch {
        // previous file gone (pruned by hand): write it anew below
      }
    }
    const generatedAt = this.now.toISOString();
    const body = render(generatedAt);
    fs.writeFileSync(dest, body);
    this.files[file] = { hash, bytes: body.length, generated_at: generatedAt };
    this.stats.written += 1;
    if ((this.stats.sample ??= []).length < 10) this.stats.sample.push(file);
  }

  commit(meta: { simulated: boolean; notice: string }): PublishStats {
    const manifest: Manifest = { generation: this.gen, published_at: this.now.toISOString(), ...meta, files: this.files };
    const tmp = path.join(this.genDir, 'manifest.json.tmp');
    fs.writeFileSync(tmp, JSON.stringify(manifest));
    fs.renameSync(tmp, path.join(this.genDir, 'manifest.json'));
    this.stats.removed = Object.keys(this.prev?.files ?? {}).filter((f) => !this.files[f]).length;
    for (const name of TOP_LEVEL) {
      const target = path.join(GENERATIONS, this.gen, name);
      if (!fs.existsSync(path.join(this.outDir, target))) continue;
      const link = path.join(this.outDir, name);
      const tmpLink = `${link}.${this.gen}.tmp`;
      fs.symlinkSync(target, tmpLink);
      fs.renameSync(tmpLink, link);
    }
    this.prune();
    return this.stats;
  }

  /** Keeps the new and the previous generation (a reader may still be inside it); removes the rest. */
  private prune(): void {
    const keep = new Set([this.gen, this.prev?.generation].filter(Boolean) as string[]);
    for (const g of fs.readdirSync(path.join(this.outDir, GENERATIONS))) {
      if (!keep.has(g)) fs.rmSync(path.join(this.outDir, GENERATIONS, g), { recursive: true, force: true });
    }
  }
}

/** In-memory writer for tests: same change detection, no disk. */
export class MemoryTreeWriter implements TreeWriter {
  readonly files = new Map<string, { body: Buffer; entry: ManifestEntry }>();
  private pending = new Map<string, { body: Buffer; entry: ManifestEntry }>();
  meta: { simulated: boolean; notice: string } | null = null;
  constructor(public now: Date) {}

  put(rel: string, render: (generatedAt: string) => Buffer, basis: Buffer): void {
    const file = safeRelative(rel);
    const hash = hashOf(basis);
    const old = this.files.get(file);
    if (old && old.entry.hash === hash) this.pending.set(file, old);
    else {
      const body = render(this.now.toISOString());
      this.pending.set(file, { body, entry: { hash, bytes: body.length, generated_at: this.now.toISOString() } });
    }
  }

  commit(meta: { simulated: boolean; notice: string }): PublishStats {
    let written = 0;
    let unchanged = 0;
    for (const [f, v] of this.pending) (this.files.get(f) === v ? unchanged++ : written++);
    const removed = [...this.files.keys()].filter((f) => !this.pending.has(f)).length;
    this.files.clear();
    for (const [f, v] of this.pending) this.files.set(f, v);
    this.pending = new Map();
    this.meta = meta;
    return { written, unchanged, removed };
  }
}
