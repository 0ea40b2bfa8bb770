// Publishes the event stream: immutable chunks of 1,000 events (internal, read by the function layer), their index,
// the latest page (/api/v1/events) and the unfiltered feeds. Sealed chunks are carried over without rendering.
import type { Db } from '../state/db.ts';
import { EVENT_SELECT, type EventRow } from '../state/events.ts';
import { EVENTS_CHUNK, EVENTS_DEFAULT_LIMIT, FEED_DEFAULT_LIMIT, inScopes, publicEvent } from '../contract/events.ts';
import { arrayView, pageEvents, type ChunkSummary, type EventIndex } from '../contract/event-pages.ts';
import { toColumns } from '../contract/event-columns.ts';
import { endpoint } from '../contract/catalogue.ts';
import { fileFor } from '../contract/urls.ts';
import type { TreeWriter } from './tree-writer.ts';
import { putJson, putRawJson, putText } from './formats.ts';
import { atomFeed, jsonFeed, newestAt, rssFeed, type FeedMeta } from './feeds.ts';

export const EVENTS_DIR = 'api/v1/_events';
export const chunkFile = (n: number) => `${EVENTS_DIR}/chunk-${n}.json`;
export const INDEX_FILE = `${EVENTS_DIR}/index.json`;

/** Brings event_chunks up to date for every chunk that gained events since `afterId`. */
async function refreshChunkSummaries(db: Db, afterId: number): Promise<void> {
  const from = Math.floor(afterId / EVENTS_CHUNK);
  await db.run(
    `INSERT OR REPLACE INTO event_chunks
    SELECT (id - 1) // ${EVENTS_CHUNK} AS n, min(id), max(id), min(event_at), max(event_at),
      to_json(list(DISTINCT kind ORDER BY kind))::VARCHAR, to_json(coalesce(list_sort(list_distinct(flatten(list(string_split(state, ';')) FILTER (WHERE state IS NOT NULL)))), []))::VARCHAR,
      to_json(coalesce(list(DISTINCT fips ORDER BY fips) FILTER (WHERE fips IS NOT NULL), []))::VARCHAR,
      to_json(coalesce(list(DISTINCT utility ORDER BY utility) FILTER (WHERE utility IS NOT NULL), []))::VARCHAR,
      coalesce(max(customers_out), 0), to_json(list(DISTINCT scope ORDER BY scope))::VARCHAR
    FROM events WHERE (id - 1) // ${EVENTS_CHUNK} >= ? GROUP BY 1`,
    [from],
  );
}

/** Events are kept in the published stream for this long (whole chunks); older cursors answer 410. */
export const EVENT_RETENTION_DAYS = 90;

export async function publishEvents(
  w: TreeWriter,
  db: Db,
  opts: { utilities: string[]; baseUrl: string; simulated: boolean; now: Date; retentionDays?: number },
): Promise<void> {
  const [meta] = await db.all<{ value: string | null }>("SELECT value FROM meta WHERE key = 'events_summarised_to'");
  const summarisedTo = Number(meta?.value ?? 0);
  const [{ max }] = await db.all<{ max: number | null }>('SELECT max(id) AS max FROM events');
  const maxId = max ?? 0;
  if (maxId > summarisedTo) {
    await refreshChunkSummaries(db, summarisedTo);
    await db.run("INSERT OR REPLACE INTO meta VALUES ('events_summarised_to', ?)", [String(maxId)]);
  }
  const rows = await db.all<
    Omit<ChunkSummary, 'kinds' | 'states' | 'fips' | 'utilities' | 'scopes'> & {
      kinds: string;
      states: string;
      fips: string;
      utilities: string;
      scopes: string | null;
    }
  >('SELECT * FROM event_chunks ORDER BY n');
  const cutoff = new Date(opts.now.getTime() - (opts.retentionDays ?? EVENT_RETENTION_DAYS) * 86_400_000).toISOString();
  const chunks: ChunkSummary[] = rows
    .map((r) => ({
      ...r,
      kinds: JSON.parse(r.kinds),
      states: JSON.parse(r.states),
      fips: JSON.parse(r.fips),
      utilities: JSON.parse(r.utilities),
      scopes: r.scopes === null ? undefined : JSON.parse(r.scopes),
    }))
    .filter((c, i, all) => c.last_at >= cutoff || i === all.length - 1);
  const loaded = new Map<number, EventRow[]>();
  const load = async (n: number) => {
    if (!loaded.has(n))
      loaded.set(
        n,
        await db.all<EventRow>(`${EVENT_SELECT} WHERE id > ? AND id <= ? ORDER BY id`, [
          n * EVENTS_CHUNK,
          (n + 1) * EVENTS_CHUNK,
        ]),
      );
    return loaded.get(n)!;
  };
  for (const c of chunks) {
    const sealed = c.max_id <= summarisedTo && c.max_id === (c.n + 1) * EVENTS_CHUNK;
    if (sealed && w.keep(chunkFile(c.n))) continue;
    putJson(w, chunkFile(c.n), { chunk: c.n, columns: toColumns(await load(c.n)) });
    if (c.n < chunks.length - 2) loaded.delete(c.n); // keep memory flat when (re)writing many chunks
  }
  const index: EventIndex = {
    max_id: maxId,
    first_id: chunks[0]?.min_id ?? 0,
    chunks,
    utilities: [...opts.utilities].sort(),
  };
  putJson(w, INDEX_FILE, index as unknown as Record<string, unknown>);
  // The newest chunks hold the latest page and the feeds (events of the default scopes: incident events are asked for);
  // one event more tells whether older ones exist (has_more).
  for (let i = chunks.length - 1, held = 0; i >= 0 && held <= EVENTS_DEFAULT_LIMIT; i--)
    if (!chunks[i].scopes || chunks[i].scopes!.some((x) => inScopes(x, {})))
      held += (await load(chunks[i].n)).filter((e) => inScopes(e.scope, {})).length;
  const reader = { index: () => index, chunk: (n: number) => arrayView((loaded.get(n) ?? []).map(publicEvent)) };
  const latest = pageEvents(reader, { filters: {}, after: null, limit: EVENTS_DEFAULT_LIMIT });
  putJson(w, fileFor(endpoint('events'), {}, 'json'), latest as unknown as Record<string, unknown>);
  const feedEvents = latest.events.slice(0, FEED_DEFAULT_LIMIT); // newest first
  for (const prefix of ['feeds', 'api.feeds']) {
    const id = (f: string) => `${prefix}.${f}`;
    const selfBase = `${opts.baseUrl}${endpoint(id('rss')).path.replace(/\.rss$/, '')}`;
    const m: FeedMeta = {
      baseUrl: opts.baseUrl,
      selfBase,
      query: '',
      updated: newestAt(feedEvents) ?? opts.now.toISOString(),
      simulated: opts.simulated,
    };
    putText(w, fileFor(endpoint(id('rss')), {}, 'rss'), rssFeed(feedEvents, m));
    putText(w, fileFor(endpoint(id('atom')), {}, 'atom'), atomFeed(feedEvents, m));
    putRawJson(w, fileFor(endpoint(id('json')), {}, 'feedjson'), jsonFeed(feedEvents, m));
  }
}
