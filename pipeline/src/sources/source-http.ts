// One source's poll through the HttpClient: its own counters, deadline, headers and cache scope (HttpClient.forSource).
import { SourceError } from '../errors.ts';
import type { FetchResult, HttpClient, RequestSpec } from './http.ts';
import { parseJson } from './parse.ts';

/** Per-poll view of the client: same queues and validators, its own counters, the source's deadline. */
export class SourceHttp {
  requests = 0;
  notModified = 0;
  /** every response of this poll, in order (what `sources probe --save` writes) */
  readonly responses: FetchResult[] = [];
  private discarded = false;
  constructor(
    private readonly client: HttpClient,
    private readonly signal?: AbortSignal,
    /** sent with every request of this source (the registry's `options.referer` as Referer and Origin) */
    private readonly headers: Record<string, string> = {},
    private readonly scope = '',
  ) {}

  async get(url: string, priority = 0, spec: RequestSpec = {}): Promise<FetchResult> {
    if (this.signal?.aborted)
      throw new SourceError('timeout', `${url}: the source's deadline passed before this request`);
    const headers = { ...this.headers, ...spec.headers };
    const r = await this.client.get(url, priority, { ...spec, headers }, this.signal, this.scope);
    // An answer that arrives after the poll failed is not kept either (discard).
    if (this.discarded && !r.notModified) this.client.forget(url, this.scope);
    this.requests += 1;
    if (r.notModified) this.notModified += 1;
    this.responses.push(r);
    return r;
  }

  async getJson(url: string, priority = 0, spec: RequestSpec = {}): Promise<unknown> {
    return parseJson(url, (await this.get(url, priority, spec)).body);
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
    for (const r of this.responses) if (!r.notModified) this.client.forget(r.url, this.scope);
  }

  /** The poll read its whole chain and normalised it: the source's cache keeps only the URLs this poll asked for. */
  retainRead(): void {
    this.client.retain(this.scope, new Set(this.responses.map((r) => r.url)));
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
