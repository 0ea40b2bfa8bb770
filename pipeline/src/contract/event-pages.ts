// Paging the event stream over immutable chunks of 1,000 events with per-chunk summaries, so a filtered request reads
// only the chunks that can hold a match. Used by the function layer over the published files and by the publisher.
import { DEFAULT_SCOPES } from '../state/lifecycle.ts';
import { ApiError } from './errors.ts';
import {
  echoFilters,
  encodeCursor,
  inScopes,
  matches,
  type EventFilters,
  type EventQuery,
  type PageOrder,
  type PublicEvent,
} from './events.ts';

export interface ChunkSummary {
  n: number;
  min_id: number;
  max_id: number;
  first_at: string;
  last_at: string;
  kinds: string[];
  states: string[];
  fips: string[];
  utilities: string[];
  max_customers: number;
  /** the scopes its events have (absent for a chunk summarised before incident events: none of those) */
  scopes?: string[];
}

export interface EventIndex {
  /** highest event id published */
  max_id: number;
  /** lowest event id still retained (0 when there are none) */
  first_id: number;
  chunks: ChunkSummary[];
  /** utility names of the registry (valid values of `utility`) */
  utilities: string[];
}

/** One chunk's events, oldest first, however they are stored. */
export interface ChunkView {
  length: number;
  id(i: number): number;
  match(i: number, f: EventFilters): boolean;
  event(i: number): PublicEvent;
}

export interface ChunkReader {
  index(): EventIndex;
  chunk(n: number): ChunkView;
}

/** A chunk held as an array of public events (the publisher, tests). */
export function arrayView(events: PublicEvent[]): ChunkView {
  return {
    length: events.length,
    id: (i) => events[i].id,
    match: (i, f) => matches(events[i], f),
    event: (i) => events[i],
  };
}

export interface EventPage {
  /** newest first (the latest page and the pages after it), or oldest first (from first_cursor or latest_cursor) */
  order: PageOrder;
  events: PublicEvent[];
  /** continues in the page's order */
  next_cursor: string;
  /** more matching events follow in the page's order: older ones, or newer ones already published */
  has_more: boolean;
  first_cursor: string;
  /** the events published after this page, oldest first: what a client polls to keep up */
  latest_cursor: string;
  limit: number;
  filters: Record<string, unknown>;
}

interface Prepared {
  kinds: Set<string>;
  states: Set<string>;
  fips: Set<string>;
  utilities: Set<string>;
}
const prepared = new WeakMap<ChunkSummary, Prepared>();
function prep(s: ChunkSummary): Prepared {
  let p = prepared.get(s);
  if (!p)
    prepared.set(
      s,
      (p = {
        kinds: new Set(s.kinds),
        states: new Set(s.states),
        fips: new Set(s.fips),
        utilities: new Set(s.utilities),
      }),
    );
  return p;
}

function mayMatch(c: ChunkSummary, f: EventFilters): boolean {
  if (!(c.scopes ?? DEFAULT_SCOPES).some((s) => inScopes(s, f))) return false;
  const p = prep(c);
  if (f.kind && !f.kind.some((k) => p.kinds.has(k))) return false;
  if (f.state && !p.states.has(f.state)) return false;
  if (f.fips && !p.fips.has(f.fips)) return false;
  if (f.utility && !p.utilities.has(f.utility)) return false;
  if (f.min_customers !== undefined && c.max_customers < f.min_customers) return false;
  if (f.since && c.last_at < f.since) return false;
  return true;
}

export function pageEvents(reader: ChunkReader, q: EventQuery): EventPage {
  const idx = reader.index();
  const base = {
    first_cursor: encodeCursor(Math.max(0, idx.first_id - 1)),
    latest_cursor: encodeCursor(idx.max_id),
    limit: q.limit,
    filters: echoFilters(q.filters),
  };
  const after = q.after ?? { id: idx.max_id + 1, order: 'newest_first' as const };
  if (after.id > idx.max_id + (after.order === 'newest_first' ? 1 : 0))
    throw new ApiError({
      status: 400,
      code: 'invalid_cursor',
      param: 'after',
      message:
        'This cursor points past the newest event; it was not issued by this deployment. Use first_cursor, latest_cursor or next_cursor from a page.',
    });
  if (after.order === 'newest_first') return { order: 'newest_first', ...base, ...olderThan(reader, idx, q, after.id) };
  if (idx.first_id > 0 && after.id < idx.first_id - 1)
    throw new ApiError({
      status: 410,
      code: 'cursor_expired',
      param: 'after',
      message: `Events before id ${idx.first_id} are no longer kept. Restart from first_cursor, or use \`since\`.`,
    });
  return { order: 'oldest_first', ...base, ...newerThan(reader, idx, q, after.id) };
}

type Found = Pick<EventPage, 'events' | 'next_cursor' | 'has_more'>;

/** The matching events with ids below `before`, newest first; one more match found means `has_more`. */
function olderThan(reader: ChunkReader, idx: EventIndex, q: EventQuery, before: number): Found {
  const found: PublicEvent[] = [];
  let hasMore = false;
  outer: for (let c = idx.chunks.length - 1; c >= 0; c--) {
    const s = idx.chunks[c];
    if (q.filters.since && s.last_at < q.filters.since) break;
    if (s.min_id >= before || !mayMatch(s, q.filters)) continue;
    const v = reader.chunk(s.n);
    for (let i = v.length - 1; i >= 0; i--) {
      const id = v.id(i);
      // Only events the index covers: a chunk read from a newer generation may already hold more.
      if (id >= before || id > idx.max_id || !v.match(i, q.filters)) continue;
      if (found.length === q.limit) {
        hasMore = true;
        break outer;
      }
      found.push(v.event(i));
    }
  }
  // An older page never gains events (new ones get higher ids), so its cursor stays valid while events arrive.
  const next = found.length ? found[found.length - 1].id : before;
  return { events: found, next_cursor: encodeCursor(next, 'newest_first'), has_more: hasMore };
}

/** The matching events with ids above `after`, oldest first, up to the index's newest. */
function newerThan(reader: ChunkReader, idx: EventIndex, q: EventQuery, after: number): Found {
  const found: PublicEvent[] = [];
  let hasMore = false;
  outer: for (const s of idx.chunks) {
    if (s.max_id <= after || !mayMatch(s, q.filters)) continue;
    const v = reader.chunk(s.n);
    for (let i = 0; i < v.length; i++) {
      const id = v.id(i);
      if (id > idx.max_id) break outer;
      if (id <= after || !v.match(i, q.filters)) continue;
      if (found.length === q.limit) {
        hasMore = true;
        break outer;
      }
      found.push(v.event(i));
    }
  }
  const next = hasMore ? found[found.length - 1].id : idx.max_id;
  return { events: found, next_cursor: encodeCursor(next), has_more: hasMore };
}
