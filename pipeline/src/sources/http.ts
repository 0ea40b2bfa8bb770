// HTTP for connectors: undici with timeouts and a size cap, one polite p-queue per host, conditional requests.
import { Agent, request, type Dispatcher } from 'undici';
import PQueue from 'p-queue';
import { SourceError } from '../errors.ts';

export interface HttpOptions {
  connectTimeoutMs: number;
  bodyTimeoutMs: number;
  maxBytes: number;
  /** politeness: requests in flight per host, and per second per host */
  perHostConcurrency: number;
  perHostPerSecond: number;
  userAgent: string;
}

export const DEFAULT_HTTP: HttpOptions = {
  connectTimeoutMs: 10_000,
  bodyTimeoutMs: 20_000,
  maxBytes: 20 * 1024 * 1024,
  perHostConcurrency: 4,
  perHostPerSecond: 20,
  userAgent: 'outage-data/0.1 (+https://github.com/outage-data; open data, polite polling)',
};

interface Cached {
  etag: string | null;
  lastModified: string | null;
  body: string;
  /** when it was last used (ms since epoch, on the caller's clock) */
  usedAt: number;
}

/** A body that is not JSON (an HTML error page, a truncated answer) is a `bad_body` poll failure. */
export function parseJson(url: string, body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new SourceError('bad_body', `${url} did not return JSON (starts with ${JSON.stringify(body.slice(0, 40))})`);
  }
}

export interface FetchResult {
  body: string;
  status: number;
  notModified: boolean;
  bytes: number;
}

export class HttpClient {
  readonly options: HttpOptions;
  private readonly agent: Dispatcher;
  private readonly queues = new Map<string, PQueue>();
  private readonly validators = new Map<string, Cached>();
  /** the caller's clock, for cache ageing */
  now: () => number = Date.now;
  requests = 0;

  constructor(options: Partial<HttpOptions> = {}) {
    this.options = { ...DEFAULT_HTTP, ...options };
    this.agent = new Agent({ connect: { timeout: this.options.connectTimeoutMs }, keepAliveTimeout: 10_000, connections: 64 });
  }

  private queue(host: string): PQueue {
    let q = this.queues.get(host);
    if (!q) {
      q = new PQueue({ concurrency: this.options.perHostConcurrency, interval: 1000, intervalCap: this.options.perHostPerSecond });
      this.queues.set(host, q);
    }
    return q;
  }

  /** GET `url` as text through the host's queue; sends If-None-Match / If-Modified-Since when it has validators. */
  async get(url: string, priority = 0): Promise<FetchResult> {
    const host = new URL(url).host;
    return this.queue(host).add(() => this.fetchOnce(url), { priority }) as Promise<FetchResult>;
  }

  private async fetchOnce(url: string): Promise<FetchResult> {
    this.requests += 1;
    const cached = this.validators.get(url);
    if (cached) cached.usedAt = this.now();
    const headers: Record<string, string> = { 'user-agent': this.options.userAgent, accept: 'application/json, text/plain, */*' };
    if (cached?.etag) headers['if-none-match'] = cached.etag;
    if (cached?.lastModified) headers['if-modified-since'] = cached.lastModified;
    let res: Dispatcher.ResponseData<unknown>;
    try {
      res = await request(url, {
        dispatcher: this.agent, headers, headersTimeout: this.options.bodyTimeoutMs, bodyTimeout: this.options.bodyTimeoutMs,
      });
    } catch (err) {
      const e = err as Error & { code?: string };
      const timeout = /TIMEOUT/i.test(e.code ?? '') || /timeout/i.test(e.message);
      throw new SourceError(timeout ? 'timeout' : 'network', `${url}: ${e.code ?? ''} ${e.message}`.trim());
    }
    if (res.statusCode === 304 && cached) {
      await res.body.dump();
      return { body: cached.body, status: 304, notModified: true, bytes: 0 };
    }
    if (res.statusCode < 200 || res.statusCode >= 300) {
      await res.body.dump();
      throw new SourceError('http_status', `${url} answered HTTP ${res.statusCode}`, res.statusCode);
    }
    const declared = Number(res.headers['content-length'] ?? NaN);
    if (declared > this.options.maxBytes) {
      res.body.destroy();
      throw new SourceError('too_large', `${url} declares ${declared} bytes, over the ${this.options.maxBytes}-byte cap`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body) {
        size += chunk.length;
        if (size > this.options.maxBytes) {
          res.body.destroy();
          throw new SourceError('too_large', `${url} sent more than the ${this.options.maxBytes}-byte cap`);
        }
        chunks.push(chunk as Buffer);
      }
    } catch (err) {
      if (err instanceof SourceError) throw err;
      const e = err as Error & { code?: string };
      throw new SourceError(/TIMEOUT/i.test(e.code ?? '') ? 'timeout' : 'network', `${url}: body ${e.code ?? ''} ${e.message}`.trim());
    }
    const body = Buffer.concat(chunks).toString('utf8');
    const etag = (res.headers.etag as string | undefined) ?? null;
    const lastModified = (res.headers['last-modified'] as string | undefined) ?? null;
    if (etag || lastModified) this.validators.set(url, { etag, lastModified, body, usedAt: this.now() });
    return { body, status: res.statusCode, notModified: false, bytes: size };
  }

  /**
   * Forgets cached bodies not used for `maxAgeMs`. Vendors rotate data paths (Kubra's change every few minutes), so
   * without this a long-running poll loop would keep every body it ever saw.
   */
  evict(maxAgeMs: number): void {
    const cutoff = this.now() - maxAgeMs;
    for (const [url, c] of this.validators) if (c.usedAt < cutoff) this.validators.delete(url);
  }

  /** A view for one source's poll that counts its requests and how many came back 304 Not Modified. */
  forSource(): SourceHttp {
    return new SourceHttp(this);
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.onIdle()));
    await this.agent.close();
  }
}

/** Per-poll view of the client: same queues and validators, its own counters. */
export class SourceHttp {
  requests = 0;
  notModified = 0;
  constructor(private readonly client: HttpClient) {}

  async get(url: string, priority = 0): Promise<FetchResult> {
    const r = await this.client.get(url, priority);
    this.requests += 1;
    if (r.notModified) this.notModified += 1;
    return r;
  }

  async getJson(url: string, priority = 0): Promise<unknown> {
    return parseJson(url, (await this.get(url, priority)).body);
  }

  /** JSON, or null when the resource does not exist (403/404: Kubra answers so for tiles without outages). */
  async getJsonOrNull(url: string, priority = 0): Promise<unknown> {
    try {
      return await this.getJson(url, priority);
    } catch (err) {
      if (err instanceof SourceError && (err.status === 403 || err.status === 404)) return null;
      throw err;
    }
  }

  /** True when every request of this poll was answered 304: the upstream says nothing changed. */
  get allNotModified(): boolean {
    return this.requests > 0 && this.notModified === this.requests;
  }
}
