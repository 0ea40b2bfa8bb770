// Reads prebuilt files through the current manifest: content-hash ETags, and one generation per request.
import fs from 'node:fs';
import path from 'node:path';
import { MANIFEST, objectPath, readManifest, type Manifest } from '../publish/tree-writer.ts';

export interface StaticFile {
  body: Buffer;
  etag: string;
}

export class PublishedTree {
  private manifest: Manifest | null = null;
  private stamp = '';

  constructor(readonly outDir: string) {}

  /** The manifest switched in last (re-read when the file changes). */
  current(): Manifest | null {
    let stamp = '';
    try {
      const st = fs.statSync(path.join(this.outDir, MANIFEST));
      stamp = `${st.ino}:${st.mtimeMs}:${st.size}`;
    } catch {
      return null;
    }
    if (stamp !== this.stamp) {
      this.manifest = readManifest(this.outDir);
      this.stamp = stamp;
    }
    return this.manifest;
  }

  read(rel: string): StaticFile | null {
    const entry = this.current()?.files[rel];
    if (!entry) return null;
    try {
      return { body: fs.readFileSync(objectPath(this.outDir, entry.object)), etag: `"${entry.object}"` };
    } catch {
      return null;
    }
  }
}
