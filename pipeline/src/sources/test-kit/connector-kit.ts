// Connector test kit: a connector's fetch against the loopback upstream, as the pipeline polls it. The registry row is
// pointed at the upstream, the row's Referer goes on the source's HTTP view, the answer is normalised and the snapshot
// checked. The atlas loads and the upstream starts before the file's tests; both close after them, passed or failed.
import { afterAll, beforeAll } from 'vitest';
import { closeAll } from '../../../test/clean-machine.ts';
import { sourceDef } from '../../../test/shared-data.ts';
import { loadAtlas } from '../../geo/counties.ts';
import type { FetchContext } from '../connector.ts';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import type { ConnectorName, SourceDef } from '../source-def.ts';
import type { Snapshot } from '../snapshot.ts';
import { sourceHeaders } from '../source-http.ts';
import { normalizeReadable } from '../unreadable.ts';
import { expectWellFormed } from './expect-snapshot.ts';
import { expectUnreadableNeverZero } from './mutations.ts';
import { Upstream, type UpstreamSpec } from './upstream.ts';

/** The connector folder's two functions (its index.ts). */
export interface ConnectorUnderTest<R> {
  fetch(ctx: FetchContext): Promise<R>;
  normalize(raw: unknown, source: SourceDef): Snapshot;
}

/** The registry row the tests poll, but for its url (a path on the upstream, given per poll). */
export type KitRow = Partial<Omit<SourceDef, 'url'>> & { connector: ConnectorName };

/** A poll's target: a path on the upstream (`/…`), any other url text as it is, or a whole row. */
export type Target = string | SourceDef;

/** How the source's HTTP view is made: its cache scope (the source id in the pipeline), and a held snapshot. */
export interface PollHow {
  scope?: string;
  held?: boolean;
}

export class ConnectorKit<R, H> {
  readonly upstream: Upstream<H>;
  /** the answers' count fields the unreadable mutations reached, poll after poll (mutations.ts) */
  readonly countLeaves: string[] = [];
  private http: HttpClient | null = null;

  constructor(
    private readonly connector: ConnectorUnderTest<R>,
    private readonly row: KitRow,
    spec: UpstreamSpec<H>,
  ) {
    this.upstream = new Upstream(spec);
  }

  /** The requests the upstream saw, as the spec's `hit` keeps them. */
  get hits(): H[] {
    return this.upstream.hits;
  }

  get base(): string {
    return this.upstream.base;
  }

  get client(): HttpClient {
    if (!this.http) throw new Error('The connector kit has not started: call connectorKit() at the top of the file.');
    return this.http;
  }

  async start(): Promise<void> {
    // The atlas load blocks the loop for a moment: before the upstream, so no idle keep-alive socket is dropped.
    loadAtlas();
    await this.upstream.start();
    this.http = new HttpClient(LOOPBACK_HTTP);
  }

  async close(): Promise<void> {
    const http = this.http;
    this.http = null;
    await closeAll(
      () => http?.close(),
      () => this.upstream.close(),
    );
  }

  /** The registry row with `over` (its options added to the row's) and its url at `target`. */
  source(target: string, over: Partial<SourceDef> = {}): SourceDef {
    const url = target.startsWith('/') ? `${this.base}${target}` : target;
    return sourceDef({ ...this.row, ...over, options: { ...this.row.options, ...over.options }, url });
  }

  /** What the pipeline hands the connector's fetch: the source's HTTP view, with the row's Referer and Origin. */
  ctx(target: Target, how: PollHow = {}): FetchContext {
    const source = typeof target === 'string' ? this.source(target) : target;
    const http = this.client.forSource(undefined, sourceHeaders(source.options), how.scope);
    return { http, source, priority: 0, ...(how.held ? { held: true } : {}) };
  }

  /** The connector's raw answer. */
  fetch(target: Target, how: PollHow = {}): Promise<R> {
    return this.connector.fetch(this.ctx(target, how));
  }

  /**
   * One poll: fetch, then normalise; the snapshot is checked well formed, and its answer replayed with each count
   * made unreadable (never a 0, always the headline or a failure naming the field), before it is returned.
   */
  async poll(target: Target, how: PollHow = {}): Promise<{ raw: R; snap: Snapshot; source: SourceDef }> {
    const c = this.ctx(target, how);
    const raw = await this.connector.fetch(c);
    const snap = normalizeReadable(this.connector, raw, c.source);
    expectWellFormed(snap);
    // Unknown is never zero: the same answer with each count it holds made unreadable (mutations.ts).
    this.countLeaves.push(...expectUnreadableNeverZero(this.connector, raw, c.source));
    if (process.env.KIT_DEBUG) console.log('KITLEAVES', this.row.connector, this.countLeaves.length, typeof raw);
    return { raw, snap, source: c.source };
  }
}

/**
 * The kit for one connector's fetch test, started before the file's tests and closed after them. Call it at the top
 * of the test file: `const kit = connectorKit({ fetch, normalize }, { connector: 'gmp', … }, { routes: … })`.
 */
export function connectorKit<R, H = string>(
  connector: ConnectorUnderTest<R>,
  row: KitRow,
  spec: UpstreamSpec<H> = {},
): ConnectorKit<R, H> {
  const kit = new ConnectorKit(connector, row, spec);
  beforeAll(() => kit.start());
  afterAll(() => kit.close());
  return kit;
}
