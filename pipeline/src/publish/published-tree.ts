// Reads prebuilt files through the current manifest: content-hash ETags, and one generation per request.
import fs from 'node:fs';
import path from 'node:path';
import { manifestName, objectPath, readManifest, type Manifest, type TreePart } from './tree-writer.ts';

export interface StaticFile {
  body: Buffer;
  etag: string;
  /** the generation time of the document (HTTP Last-Modified) */
  generatedAt: string;
}

export class PublishedTree {
  private readonly manifests: Record<TreePart, { manifest: Manifest | null; stamp: string }> = {
    live: { manifest: null, stamp: '' },
    history: { manifest: null, stamp: '' },
  };

  constructor(readonly outDir: string) {}

  /** The live manifest switched in last (re-read when the file changes). */
  current(part: TreePart = 'live'): Manifest | null {
    const slot = this.manifests[part];
    let stamp = '';
    try {
      const st = fs.statSync(path.join(this.outDir, manifestName(part)));
      stamp = `${st.ino}:${st.mtimeMs}:${st.size}`;
    } catch {
      return null;
    }
    if (stamp !== slot.stamp) {
      slot.manifest = readManifest(this.outDir, part);
      slot.stamp = stamp;
    }
    return slot.manifest;
  }

  /** A file of the live tree, else of the history tree. */
  read(rel: string): StaticFile | null {
    for (const part of ['live', 'history'] as const) {
      const entry = this.current(part)?.files[rel];
      if (!entry) continue;
      try {
        return {
          body: fs.readFileSync(objectPath(this.outDir, entry.object, part)),
          etag: `"${entry.object}"`,
          generatedAt: entry.generated_at,
        };
      } catch {
        return null;
      }
    }
    return null;
  }

  /** The `data` member of a prebuilt JSON document (with its generated_at), or null when there is none. */
  data<T>(rel: string): (T & { generated_at: string }) | null {
    const f = this.read(rel);
    return f ? (JSON.parse(f.body.toString('utf8')).data as T & { generated_at: string }) : null;
  }
}
