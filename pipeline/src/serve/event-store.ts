// The function layer's view of the event stream: the published index and column chunks, held as typed arrays once
// parsed (chunks are immutable once full; the open one is re-read when its content hash changes). No database.
import type { ChunkReader, ChunkView, EventIndex } from '../contract/event-pages.ts';
import { ColumnChunk, type EventColumns } from '../contract/event-columns.ts';
import { INDEX_FILE, chunkFile } from '../publish/events.ts';
import { loadAtlas } from '../geo/counties.ts';
import type { PublishedTree } from '../publish/published-tree.ts';

const countyName = (fips: string) => loadAtlas().byFips.get(fips)?.name;
const EMPTY: ChunkView = {
  length: 0,
  id: () => 0,
  match: () => false,
  event: () => {
    throw new Error('empty chunk');
  },
};

export class PublishedEvents implements ChunkReader {
  private indexCache: { etag: string; index: EventIndex } | null = null;
  /** chunk number → the parsed chunk and the object it came from */
  private readonly chunks = new Map<number, { object: string; view: ColumnChunk }>();

  constructor(private readonly tree: PublishedTree) {}

  index(): EventIndex {
    const f = this.tree.read(INDEX_FILE);
    if (!f) return { max_id: 0, first_id: 0, chunks: [], utilities: [] };
    if (this.indexCache?.etag !== f.etag) {
      const index = JSON.parse(f.body.toString('utf8')).data as EventIndex;
      this.indexCache = { etag: f.etag, index };
      const kept = new Set(index.chunks.map((c) => c.n));
      for (const n of this.chunks.keys()) if (!kept.has(n)) this.chunks.delete(n); // expired chunks
    }
    return this.indexCache.index;
  }

  chunk(n: number): ChunkView {
    const entry = this.tree.current()?.files[chunkFile(n)];
    if (!entry) return EMPTY;
    const hit = this.chunks.get(n);
    if (hit?.object === entry.object) return hit.view;
    const f = this.tree.read(chunkFile(n));
    if (!f) return EMPTY;
    const view = new ColumnChunk(
      (JSON.parse(f.body.toString('utf8')).data as { columns: EventColumns }).columns,
      countyName,
    );
    this.chunks.set(n, { object: entry.object, view });
    return view;
  }
}
