// The bodies and validators (ETag, Last-Modified) the HTTP client keeps for conditional requests, per source: a 304
// then means "as this source last read it", and the cached body is what the connector reads again.

export interface Cached {
  etag: string | null;
  lastModified: string | null;
  body: string;
  /** when it was last used (ms since epoch, on the caller's clock) */
  usedAt: number;
}

export class BodyCache {
  /** scope (a source id, or '' for unscoped requests) → URL → what its last 200 left */
  private readonly scopes = new Map<string, Map<string, Cached>>();

  get(scope: string, url: string): Cached | undefined {
    return this.scopes.get(scope)?.get(url);
  }

  set(scope: string, url: string, cached: Cached): void {
    let urls = this.scopes.get(scope);
    if (!urls) this.scopes.set(scope, (urls = new Map()));
    urls.set(url, cached);
  }

  delete(scope: string, url: string): void {
    const urls = this.scopes.get(scope);
    urls?.delete(url);
    if (urls?.size === 0) this.scopes.delete(scope);
  }

  /**
   * Keeps only `urls` of `scope`: what a source's last complete poll read. Vendors that rotate data paths (Kubra's
   * tiles and reports, iFactor's directories) never ask for the older paths again, so their bodies only cost memory
   * (twice the bodies after a storm moved, ~20 MB at national scale). A body forgotten wrongly costs one 200.
   */
  retain(scope: string, urls: ReadonlySet<string>): void {
    const cached = this.scopes.get(scope);
    if (!cached) return;
    for (const url of cached.keys()) if (!urls.has(url)) cached.delete(url);
    if (cached.size === 0) this.scopes.delete(scope);
  }

  /** Characters of body text `scope` holds: what a source keeps between polls (a failed poll's must be none). */
  bytes(scope: string): number {
    let n = 0;
    for (const c of this.scopes.get(scope)?.values() ?? []) n += c.body.length;
    return n;
  }

  /** Forgets everything not used since `cutoff` (ms on the caller's clock). */
  evict(cutoff: number): void {
    for (const [scope, urls] of this.scopes) {
      for (const [url, c] of urls) if (c.usedAt < cutoff) urls.delete(url);
      if (urls.size === 0) this.scopes.delete(scope);
    }
  }
}
