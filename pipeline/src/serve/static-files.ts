// Reads prebuilt files from the published tree, with content-hash ETags from the generation's manifest.
import fs from 'node:fs';
import path from 'node:path';
import { currentGeneration, readManifest, type Manifest } from '../publish/tree-writer.ts';

export interface StaticFile {
  body: Buffer;
  etag: string;
}

export class PublishedTree {
  private manifest: Manifest | null = null;
  private generation: string | null = null;

  constructor(readonly outDir: string) {}

  /** The manifest of the generation currently switched in (re-read when the generation changes). */
  current(): Manifest | null {
    const gen = currentGeneration(this.outDir);
    if (gen !== this.generation) {
      this.manifest = readManifest(this.outDir);
      this.generation = gen;
    }
    return this.manifest;
  }

  read(rel: string): StaticFile | null {
    const m = this.current();
    const entry = m?.files[rel];
    if (!m || !entry) return null;
    try {
      // Read through the generation directory itself, so one request never mixes two generations.
      const body = fs.readFileSync(path.join(this.outDir, '.generations', m.generation, rel));
      return { body, etag: `"${entry.hash}"` };
    } catch {
      return null;
    }
  }
}
