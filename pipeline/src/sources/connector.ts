// What every connector folder provides: fetch (raw upstream over HTTP) and normalize (raw → canonical snapshot).
import type { SourceHttp } from './source-http.ts';
import type { SourceDef } from './source-def.ts';
import type { Snapshot } from './snapshot.ts';

/**
 * What fetch returns instead of raw data when the upstream says nothing changed since the snapshot the pipeline holds.
 * Only `readHead` makes it, as the chain's first request, so every request of the poll answered 304 and the pipeline
 * keeps that snapshot (sources/poll.ts: `allNotModified`) without normalising anything.
 */
/** The path of a registry row's url ('' when it is not a URL): what each connector's fetch checks its form against. */
export function urlPath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

export const UNCHANGED: unique symbol = Symbol('unchanged');

export interface FetchContext {
  http: Pick<SourceHttp, 'get' | 'getJson' | 'getJsonOrNull' | 'readJson' | 'forget' | 'records'>;
  source: SourceDef;
  /** p-queue priority: higher tiers first */
  priority: number;
  /**
   * The pipeline holds the snapshot of this source's last good poll, and the HTTP view's cached bodies are those that
   * poll read (a failed poll's fresh bodies are forgotten: SourceHttp.discard). Absent: false (tests, probe, replay).
   */
  held?: boolean;
}

export interface Connector {
  /** The raw upstream data, or UNCHANGED (only when `ctx.held`). */
  fetch(ctx: FetchContext): Promise<unknown>;
  normalize(raw: unknown, source: SourceDef): Snapshot;
}

/**
 * The first request of a chain: its JSON, or UNCHANGED when it answered 304 and the snapshot it led to is held.
 * Only for a request that is the whole chain, or one that names every later request by immutable paths (Kubra's
 * currentState, iFactor's metadata.json): then a 304 means the rest cannot have changed, and it is not even parsed.
 */
export async function readHead(ctx: FetchContext, url: string): Promise<unknown> {
  const r = await ctx.http.get(url, ctx.priority);
  return r.notModified && ctx.held ? UNCHANGED : ctx.http.readJson(r, ctx.priority);
}
