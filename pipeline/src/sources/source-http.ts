// One source's poll through the HttpClient: its own counters, deadline, headers and cache scope (HttpClient.forSource),
// and the shapes of a request and its answer that connectors, this view and the client (http.ts) share.
import { SourceError } from '../errors.ts';
import { PollBudget } from './budget.ts';
import { parseJson } from './parse.ts';

/** What a connector may vary about a request: POST endpoints (OutageEntry, TEP) and hosts that want a Referer. */
export interface RequestSpec {
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
  /** a POST that only reads (a query, a map's data action): retried like a GET */
  idempotent?: boolean;
  /** a cap below the client's for this answer (XML feeds), and what raises it, for the `too_large` message */
  maxBytes?: number;
  capNote?: string;
}

/** One request of a source's poll: its queue priority, the poll's deadline, cache scope and budget (SourceHttp). */
export interface ClientRequest {
  priority?: number;
  spec?: RequestSpec;
  signal?: AbortSignal;
  scope?: string;
  budget?: PollBudget;
  /** when the source's deadline passes (ms since epoch): no retry waits past it */
  deadlineAt?: number;
}

export interface FetchResult {
  url: string;
  body: string;
  status: number;
  notModified: boolean;
  bytes: number;
  headers: Record<string, string>;
}

/** What a poll's view uses of the shared client: HttpClient (http.ts), which builds the view in `forSource`. */
export interface PollClient {
  readonly options: { readonly sourceDeadlineMs: number };
  get(url: string, req?: ClientRequest): Promise<FetchResult>;
  forget(url: string, scope?: string): void;
  retain(scope: string, urls: ReadonlySet<string>): void;
}

/**
 * Per-poll view of the client: same queues and validators, its own counters, the source's deadline and budget. It
 * keeps what each answer was (URL, 304 or not), never its body: bodies are the connector's to parse and drop.
 */
export class SourceHttp {
  requests = 0;
  notModified = 0;
  /** every answer of this poll, in order, without its body */
  readonly answered: Array<Pick<FetchResult, 'url' | 'notModified'>> = [];
  /** when the source's deadline passes: retries wait only while it has not */
  readonly deadlineAt: number;
  private discarded = false;
  constructor(
    private readonly client: PollClient,
    private readonly signal?: AbortSignal,
    /** sent with every request of this source (the registry's `options.referer` as Referer and Origin) */
    private readonly headers: Record<string, string> = {},
    private readonly scope = '',
    /** bytes and records over the whole poll (budget.ts) */
    readonly budget = new PollBudget(),
  ) {
    this.deadlineAt = Date.now() + client.options.sourceDeadlineMs;
  }

  async get(url: string, priority = 0, spec: RequestSpec = {}): Promise<FetchResult> {
    if (this.signal?.aborted)
      throw new SourceError('timeout', `${url}: the source's deadline passed before this request`);
    const headers = { ...this.headers, ...spec.headers };
    const { signal, scope, budget, deadlineAt } = this;
    const r = await this.client.get(url, { priority, spec: { ...spec, headers }, signal, scope, budget, deadlineAt });
    // An answer that arrives after the poll failed is not kept either (discard).
    if (this.discarded && !r.notModified) this.client.forget(url, this.scope);
    this.requests += 1;
    if (r.notModified) this.notModified += 1;
    this.answered.push({ url: r.url, notModified: r.notModified });
    return r;
  }

  /** Charges `n` records the connector is about to keep (pages, tiles) to the poll's budget; throws past it. */
  records(n: number, what: string): void {
    this.budget.keep(n, what);
  }

  async getJson(url: string, priority = 0, spec: RequestSpec = {}): Promise<unknown> {
    return this.readJson(await this.get(url, priority, spec), priority, spec);
  }

  /**
   * The JSON of answer `r`. A fresh 200 whose body does not parse (a maintenance page, a body cut short) is asked for
   * once more when the request is idempotent and the deadline has not passed: like a 5xx it is most often a passing
   * fault, and one such answer among a chain's dozens must not fail the poll. A second bad body fails it.
   */
  async readJson(r: FetchResult, priority = 0, spec: RequestSpec = {}): Promise<unknown> {
    try {
      return parseJson(r.url, r.body);
    } catch (err) {
      const idempotent = (spec.method ?? 'GET') === 'GET' || spec.idempotent === true;
      const again = idempotent && !r.notModified && !this.signal?.aborted && Date.now() < this.deadlineAt;
      if (!(err instanceof SourceError) || err.reason !== 'bad_body' || !again) throw err;
      this.client.forget(r.url, this.scope); // a bad body cached with validators must not answer the next 304
      return parseJson(r.url, (await this.get(r.url, priority, spec)).body);
    }
  }

  /** JSON, or null when the resource does not exist (403/404: Kubra answers so for tiles without outages). */
  async getJsonOrNull(url: string, priority = 0, spec: RequestSpec = {}): Promise<unknown> {
    try {
      return await this.getJson(url, priority, spec);
    } catch (err) {
      if (err instanceof SourceError && (err.status === 403 || err.status === 404)) return null;
      throw err;
    }
  }

  /** Forgets the cached body of `url`: the next poll reads it whole (iFactor, after reading an older directory). */
  forget(url: string): void {
    this.client.forget(url, this.scope);
  }

  /**
   * The poll failed: forgets the bodies it read fresh, so a later 304 always means "as in the snapshot held" (a chain
   * that broke half-way must not leave its new pointer cached beside the old snapshot).
   */
  discard(): void {
    this.discarded = true;
    for (const r of this.answered) if (!r.notModified) this.client.forget(r.url, this.scope);
  }

  /** The poll read its whole chain and normalised it: the source's cache keeps only the URLs this poll asked for. */
  retainRead(): void {
    this.client.retain(this.scope, new Set(this.answered.map((r) => r.url)));
  }

  /** True when every request of this poll was answered 304: the upstream says nothing changed. */
  get allNotModified(): boolean {
    return this.requests > 0 && this.notModified === this.requests;
  }
}

/** Headers a registry row asks for: `options.referer` is sent as Referer and Origin (several hosts refuse without). */
export function sourceHeaders(options: Record<string, unknown>): Record<string, string> {
  const ref = options.referer;
  if (typeof ref !== 'string' || !/^https?:\/\//.test(ref)) return {};
  return { referer: ref, origin: new URL(ref).origin };
}
