// The bodies and validators (ETag, Last-Modified) the HTTP client keeps for conditional requests, per source: a 304
// then means "as this source last read it", and the cached body is what the connector reads again. A kept body of
// PACK_MIN_CHARS or more is deflated on the thread pool once stored (~30 MB of text at national scale → ~3 MB) and
// inflated when a 304 reads it; a smaller one is kept as it is (issue 39: at national scale ~3,500 of the ~4,800
// bodies are under 4 KB, ~2 MB together, and each deflate stream costs the main thread more than its body saves).
import { deflateRaw, inflateRawSync } from 'node:zlib';

export interface Cached {
  etag: string | null;
  lastModified: string | null;
  body: string;
  /** when it was last used (ms since epoch, on the caller's clock) */
  usedAt: number;
}

/** Bodies shorter than this are kept as text, never deflated. */
export const PACK_MIN_CHARS = 4096;

/** A kept body: its text until the deflated copy is ready, then that copy alone (a short one: its text). */
class Entry implements Cached {
  readonly etag: string | null;
  readonly lastModified: string | null;
  /** the body's length in characters (what a poll's budget counts) */
  readonly chars: number;
  usedAt: number;
  /** settles once the body is deflated (or kept as text when deflating failed) */
  readonly packing: Promise<void>;
  private text: string | null;
  private packed: Buffer | null = null;

  constructor(c: Cached) {
    ({ etag: this.etag, lastModified: this.lastModified, usedAt: this.usedAt, body: this.text } = c);
    this.chars = c.body.length;
    if (this.chars < PACK_MIN_CHARS) {
      this.packing = Promise.resolve();
      return;
    }
    this.packing = new Promise((resolve) =>
      deflateRaw(Buffer.from(c.body), { level: 1 }, (err, packed) => {
        if (!err) [this.packed, this.text] = [packed, null];
        resolve();
      }),
    );
  }

  get body(): string {
    return this.text ?? inflateRawSync(this.packed!).toString('utf8');
  }
}

export class BodyCache {
  /** scope (a source id, or '' for unscoped requests) → URL → what its last 200 left */
  private readonly scopes = new Map<string, Map<string, Entry>>();

  get(scope: string, url: string): Entry | undefined {
    return this.scopes.get(scope)?.get(url);
  }

  set(scope: string, url: string, cached: Cached): void {
    let urls = this.scopes.get(scope);
    if (!urls) this.scopes.set(scope, (urls = new Map()));
    urls.set(url, new Entry(cached));
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
    for (const c of this.scopes.get(scope)?.values() ?? []) n += c.chars;
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
