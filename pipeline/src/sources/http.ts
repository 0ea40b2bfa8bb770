// HTTP for connectors: undici with deadlines and a size cap, one polite p-queue per host, conditional requests.
// spec: Limits — a source never blocks a cycle: each request and each source's whole request chain has a deadline.
import { setMaxListeners } from 'node:events';
import { Agent, request, type Dispatcher } from 'undici';
import PQueue from 'p-queue';
import { SourceError, UnansweredError } from '../errors.ts';
import { BodyCache } from './body-cache.ts';
import { PollBudget } from './budget.ts';
import { readBody } from './read-body.ts';
import { DEFAULT_RETRY, retryAfterSeconds, withRetries, type RetryPolicy } from './retry.ts';
import { SourceHttp, type ClientRequest, type FetchResult } from './source-http.ts';

export interface HttpOptions {
  connectTimeoutMs: number;
  /** deadline for the first response byte (headers) and between body chunks */
  bodyTimeoutMs: number;
  /** total deadline per request: queueing excluded, connect + headers + the whole body included */
  requestDeadlineMs: number;
  /** total deadline per source: its whole request chain, queueing included */
  sourceDeadlineMs: number;
  maxBytes: number;
  /** politeness: requests in flight per host, and per second per host */
  perHostConcurrency: number;
  perHostPerSecond: number;
  userAgent: string;
  /** idempotent requests are retried within the source deadline (retry.ts) */
  retry: RetryPolicy;
}

export const DEFAULT_USER_AGENT =
  'outage-data/0.1 (+https://github.com/outage-data/outage-data; open data, polite polling)';

const envInt = (name: string, fallback: number): number => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};

/** Defaults; each can be set in the environment (documented in docs/polling-and-rules.md: HTTP polling). */
export const DEFAULT_HTTP: HttpOptions = {
  connectTimeoutMs: 10_000,
  bodyTimeoutMs: 20_000,
  requestDeadlineMs: envInt('OUTAGE_REQUEST_DEADLINE_MS', 30_000),
  sourceDeadlineMs: envInt('OUTAGE_SOURCE_DEADLINE_MS', 90_000),
  maxBytes: 20 * 1024 * 1024,
  perHostConcurrency: envInt('OUTAGE_HOST_CONCURRENCY', 2),
  perHostPerSecond: 5,
  userAgent: process.env.OUTAGE_USER_AGENT || DEFAULT_USER_AGENT,
  retry: DEFAULT_RETRY,
};

/** Loopback servers (the simulator, tests): no politeness limits. */
export const LOOPBACK_HTTP: Partial<HttpOptions> = { perHostConcurrency: 32, perHostPerSecond: 5_000 };

const KEPT_HEADERS = ['content-type', 'etag', 'last-modified', 'date', 'cache-control', 'retry-after'];

/** undici's codes for a host that never answered: no connection, or no headers, within the time-out */
const UNANSWERED: Record<string, string> = {
  UND_ERR_CONNECT_TIMEOUT: 'accepted no connection within the connect',
  UND_ERR_HEADERS_TIMEOUT: 'sent no headers within the headers',
};

/** The resolver's answer that a host name has no address (getaddrinfo): the request never left this machine. */
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'EAI_NODATA']);
function dnsCode(err: unknown): string | null {
  const e = err as Error & { code?: string; cause?: { code?: string } };
  const code = e?.code ?? e?.cause?.code;
  return code && DNS_CODES.has(code) ? code : null;
}

function timeoutReason(err: unknown): boolean {
  const e = err as Error & { code?: string; name?: string };
  return (
    e?.name === 'TimeoutError' ||
    /TIMEOUT/i.test(e?.code ?? '') ||
    /timeout|aborted due to timeout/i.test(e?.message ?? '')
  );
}

export class HttpClient {
  readonly options: HttpOptions;
  private readonly agent: Dispatcher;
  private readonly queues = new Map<string, PQueue>();
  private readonly bodies = new BodyCache();
  /** the caller's clock, for cache ageing */
  now: () => number = Date.now;
  requests = 0;

  constructor(options: Partial<HttpOptions> = {}) {
    this.options = { ...DEFAULT_HTTP, ...options };
    this.agent = new Agent({
      connect: { timeout: this.options.connectTimeoutMs },
      keepAliveTimeout: 10_000,
      connections: 64,
    });
  }

  private queue(host: string): PQueue {
    let q = this.queues.get(host);
    if (!q) {
      q = new PQueue({
        concurrency: this.options.perHostConcurrency,
        interval: 1000,
        intervalCap: this.options.perHostPerSecond,
      });
      this.queues.set(host, q);
    }
    return q;
  }

  /**
   * A request through the host's queue; GETs send If-None-Match / If-Modified-Since when it has validators. Validators
   * and cached bodies are kept per `scope` (a source id): a 304 then means "as this source last read it". Idempotent
   * requests are retried within the source deadline, each attempt queued again (retry.ts).
   */
  async get(url: string, req: ClientRequest = {}): Promise<FetchResult> {
    const spec = req.spec ?? {};
    const idempotent = (spec.method ?? 'GET') === 'GET' || spec.idempotent === true;
    const deadlineAt = req.deadlineAt ?? Date.now() + this.options.sourceDeadlineMs;
    const scope = { idempotent, deadlineAt, signal: req.signal };
    return withRetries(() => this.queued(url, req), scope, this.options.retry);
  }

  private async queued(url: string, req: ClientRequest): Promise<FetchResult> {
    const { signal } = req;
    try {
      const task = () => this.fetchOnce(url, req);
      return (await this.queue(new URL(url).host).add(task, { priority: req.priority ?? 0, signal })) as FetchResult;
    } catch (err) {
      if (err instanceof SourceError) throw err;
      if (signal?.aborted)
        throw new SourceError('timeout', `${url}: the source's ${this.options.sourceDeadlineMs} ms deadline passed`);
      throw err;
    }
  }

  private timeoutFor(code: string | undefined): number {
    return code === 'UND_ERR_CONNECT_TIMEOUT' ? this.options.connectTimeoutMs : this.options.bodyTimeoutMs;
  }

  /** Forgets what `scope` cached for `url`: its next request is unconditional. */
  forget(url: string, scope = ''): void {
    this.bodies.delete(scope, url);
  }

  /** Characters of cached body text `scope` holds between polls (BodyCache.bytes). */
  cachedBytes(scope = ''): number {
    return this.bodies.bytes(scope);
  }

  /** Keeps only `urls` of what `scope` cached: the requests of the source's last complete poll (BodyCache.retain). */
  retain(scope: string, urls: ReadonlySet<string>): void {
    this.bodies.retain(scope, urls);
  }

  private async fetchOnce(url: string, req: ClientRequest) {
    const outer = req.signal;
    // One controller and timer per request: AbortSignal.timeout + AbortSignal.any cost more (issue #12 profile).
    const ctl = new AbortController();
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      ctl.abort();
    }, this.options.requestDeadlineMs);
    const onOuter = () => ctl.abort();
    if (outer?.aborted) ctl.abort();
    else outer?.addEventListener('abort', onOuter, { once: true });
    try {
      return await this.attempt(url, req, ctl.signal, (err, stage) => {
        if (err instanceof SourceError) return err;
        const e = err as Error & { code?: string };
        if (late)
          return new SourceError(
            'timeout',
            `${url}: no complete answer within the ${this.options.requestDeadlineMs} ms request deadline (${stage})`,
          );
        if (outer?.aborted)
          return new SourceError(
            'timeout',
            `${url}: the source's ${this.options.sourceDeadlineMs} ms deadline passed (${stage})`,
          );
        const unanswered = UNANSWERED[e.code ?? ''];
        if (unanswered)
          return new UnansweredError(
            `${url}: the host ${unanswered} timeout (${this.timeoutFor(e.code)} ms), not retried`,
          );
        const dns = dnsCode(e);
        if (dns)
          return new SourceError(
            'dns',
            `${url}: the host ${new URL(url).host} does not resolve (${dns}): its name is wrong, or this machine is offline`,
          );
        return new SourceError(
          timeoutReason(e) ? 'timeout' : 'network',
          `${url}: ${stage} ${e.code ?? ''} ${e.message}`.trim(),
        );
      });
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuter);
    }
  }

  private async attempt(
    url: string,
    req: ClientRequest,
    signal: AbortSignal,
    fail: (err: unknown, stage: string) => SourceError,
  ): Promise<FetchResult> {
    this.requests += 1;
    const { spec = {}, scope = '', budget = new PollBudget() } = req;
    const method = spec.method ?? 'GET';
    const cached = method === 'GET' ? this.bodies.get(scope, url) : undefined;
    if (cached) cached.usedAt = this.now();
    const headers: Record<string, string> = {
      'user-agent': this.options.userAgent,
      accept: 'application/json, text/plain, */*',
      ...spec.headers,
    };
    if (cached?.etag) headers['if-none-match'] = cached.etag;
    if (cached?.lastModified) headers['if-modified-since'] = cached.lastModified;
    let res: Dispatcher.ResponseData<unknown>;
    try {
      res = await request(url, {
        dispatcher: this.agent,
        method,
        headers,
        body: spec.body,
        signal,
        headersTimeout: this.options.bodyTimeoutMs,
        bodyTimeout: this.options.bodyTimeoutMs,
      });
    } catch (err) {
      throw fail(err, 'request');
    }
    const kept: Record<string, string> = {};
    for (const h of KEPT_HEADERS) if (typeof res.headers[h] === 'string') kept[h] = res.headers[h] as string;
    if (res.statusCode === 304 && cached) {
      await res.body.dump().catch(() => {});
      budget.read(cached.chars, url);
      return { url, body: cached.body, status: 304, notModified: true, bytes: 0, headers: kept };
    }
    if (res.statusCode < 200 || res.statusCode >= 300) {
      await res.body.dump().catch(() => {});
      const retry = retryAfterSeconds(res.headers['retry-after'], Date.now());
      const hint = retry !== null ? ` (Retry-After ${retry} s)` : '';
      throw new SourceError('http_status', `${url} answered HTTP ${res.statusCode}${hint}`, res.statusCode, retry);
    }
    const cap = {
      bytes: Math.min(this.options.maxBytes, spec.maxBytes ?? Number.POSITIVE_INFINITY),
      note: spec.capNote,
    };
    const body = await readBody(url, res, cap, budget, fail);
    const etag = kept.etag ?? null;
    const lastModified = kept['last-modified'] ?? null;
    if (method === 'GET' && (etag || lastModified))
      this.bodies.set(scope, url, { etag, lastModified, body: body.text, usedAt: this.now() });
    else if (cached) this.bodies.delete(scope, url); // a new body without validators: the old one is not it
    return { url, body: body.text, status: res.statusCode, notModified: false, bytes: body.size, headers: kept };
  }

  /**
   * Forgets cached bodies not used for `maxAgeMs`. Vendors rotate data paths (Kubra's change every few minutes), so
   * without this a long-running poll loop would keep every body it ever saw.
   */
  evict(maxAgeMs: number): void {
    this.bodies.evict(this.now() - maxAgeMs);
  }

  /**
   * A view for one source's poll: counts its requests and 304s, and aborts them all at the source deadline. With a
   * `scope` (the source id) its cached bodies are the source's own, so a 304 means "as this source last read it".
   */
  forSource(
    signal?: AbortSignal,
    headers: Record<string, string> = {},
    scope = '',
    budget = new PollBudget(),
  ): SourceHttp {
    // One deadline watches every request of the source's chain (tiles run dozens at once): not a listener leak.
    if (signal) setMaxListeners(0, signal);
    return new SourceHttp(this, signal, headers, scope, budget);
  }

  async close(): Promise<void> {
    for (const q of this.queues.values()) q.clear();
    await Promise.all([...this.queues.values()].map((q) => q.onIdle()));
    await this.agent.close();
  }
}
