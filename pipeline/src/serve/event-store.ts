// The function layer's view of the event stream: the published index and chunks, parsed once per version (no
// database at the edge). Chunks are immutable once full, so a small cache keyed by content hash serves most reads.
import type { ChunkReader, EventIndex } from '../contract/event-pages.ts';
import type { PublicEvent } from '../contract/events.ts';
import { INDEX_FILE, chunkFile } from '../publish/events.ts';
import type { PublishedTree } from './static-files.ts';

const MAX_CACHED_CHUNKS = 256;

export class PublishedEvents implements ChunkReader {
  private indexCache: { etag: string; index: EventIndex } | null = null;
  private readonly chunks = new Map<string, PublicEvent[]>();

  constructor(private readonly tree: PublishedTree) {}

  index(): EventIndex {
    const f = this.tree.read(INDEX_FILE);
    if (!f) return { max_id: 0, first_id: 0, chunks: [], utilities: [] };
    if (this.indexCache?.etag !== f.etag) this.indexCache = { etag: f.etag, index: JSON.parse(f.body.toString('utf8')).data as EventIndex };
    return this.indexCache.index;
  }

  chunk(n: number): PublicEvent[] {
    const entry = this.tree.current()?.files[chunkFile(n)];
    if (!entry) return [];
    const hit = this.chunks.get(entry.object);
    if (hit) {
      this.chunks.delete(entry.object);
      this.chunks.set(entry.object, hit); // most recently used last
      return hit;
    }
    const f = this.tree.read(chunkFile(n));
    if (!f) return [];
    const events = (JSON.parse(f.body.toString('utf8')).data as { events: PublicEvent[] }).events;
    this.chunks.set(entry.object, events);
    if (this.chunks.size > MAX_CACHED_CHUNKS) this.chunks.delete(this.chunks.keys().next().value!);
    return events;
  }
}
