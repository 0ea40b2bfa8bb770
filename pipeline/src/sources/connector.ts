// What every connector folder provides: fetch (raw upstream over HTTP) and normalize (raw → canonical snapshot).
import type { SourceHttp } from './http.ts';
import type { SourceDef } from './registry.ts';
import type { Snapshot } from './snapshot.ts';

export interface FetchContext {
  http: Pick<SourceHttp, 'get' | 'getJson' | 'getJsonOrNull'>;
  source: SourceDef;
  /** p-queue priority: higher tiers first */
  priority: number;
}

export interface Connector {
  fetch(ctx: FetchContext): Promise<unknown>;
  normalize(raw: unknown, source: SourceDef): Snapshot;
}
