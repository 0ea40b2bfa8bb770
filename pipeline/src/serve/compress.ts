// Compressed answers (issue 28 part 3): every text answer goes out in brotli or gzip as Accept-Encoding asks
// (contract/encodings.ts). Prebuilt files are sent as their precompressed siblings by the file route (app.ts); this
// middleware compresses the rest: function answers, pages, and files published without siblings. hono's own
// `compress` middleware is not used: it offers gzip and deflate only (it streams through CompressionStream, which has
// no brotli on Node 20), ignores an `identity` preference, and makes a coded answer's ETag weak, so that one tag
// names the identity and the coded bytes alike.
import type { Context, MiddlewareHandler } from 'hono';
import { codedEtag, isCompressibleType, MIN_COMPRESS_BYTES, negotiate, type Coding } from '../contract/encodings.ts';
import { encode } from '../publish/precompress.ts';
import { etagMatches } from './conditional.ts';

/**
 * Coded bodies kept by URL and strong ETag (RFC 9110 8.8.3: one resource's strong tag names one body), so a file
 * without siblings, a page or a report answer is compressed once.
 */
export const CODED_CACHE_BYTES = 32 * 1024 * 1024;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

/**
 * Adds `Accept-Encoding` to a response's Vary: a text answer's coding depends on it, so a cache must key on it
 * (also on the identity answers a small body or `identity` gets, and on 304s).
 */
export function varyOnEncoding(headers: Headers): void {
  const vary = headers.get('Vary');
  if (vary === '*' || (vary && /(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(vary))) return;
  headers.set('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
}

/**
 * The If-None-Match answer for a body whose identity ETag is `etag`, sent in `coding`: the tag the client holds when
 * it names this body as identity or in that coding (a 304 then carries it), else null. The identity tag is honoured
 * too: a client with the identity bytes of the current body has a current representation.
 */
export function matchedTag(c: Context, etag: string, coding: Coding | 'identity'): string | null {
  const inm = c.req.header('If-None-Match');
  if (coding !== 'identity' && etagMatches(inm, codedEtag(etag, coding))) return codedEtag(etag, coding);
  return etagMatches(inm, etag) ? etag : null;
}

/** The middleware; one cache per app. */
export function compression(cacheBytes = CODED_CACHE_BYTES): MiddlewareHandler {
  const cache = new CodedCache(cacheBytes);
  return async (c, next) => {
    await next();
    const res = c.res;
    if (!isCompressibleType(res.headers.get('Content-Type'))) return;
    varyOnEncoding(res.headers);
    // HEAD bodies are never compressed: a HEAD gets the identity headers.
    if (c.req.method === 'HEAD' || !res.body || res.headers.has('Content-Encoding')) return;
    if (res.status === 204 || res.status === 206 || res.status === 304) return;
    if (NO_TRANSFORM.test(res.headers.get('Cache-Control') ?? '')) return;
    const { coding, identityRefused } = negotiate(c.req.header('Accept-Encoding'));
    if (coding === 'identity') return;
    const declared = Number(res.headers.get('Content-Length') ?? Number.NaN);
    if (declared < MIN_COMPRESS_BYTES && !identityRefused) return;
    const etag = res.headers.get('ETag');
    const held = etag && res.status === 200 ? matchedTag(c, etag, coding) : null;
    if (held) {
      // the handler compared the identity tag only; the client holds the coded body
      c.res = new Response(null, { status: 304, headers: res.headers });
      c.res.headers.delete('Content-Length');
      c.res.headers.set('ETag', held);
      return;
    }
    const body = Buffer.from(await res.arrayBuffer());
    const small = body.length < MIN_COMPRESS_BYTES && !identityRefused;
    const coded = small ? body : await cache.get(c.req.url, etag, coding, body);
    c.res = new Response(new Uint8Array(coded), { status: res.status, headers: res.headers });
    c.res.headers.set('Content-Length', String(coded.length));
    if (small) return;
    c.res.headers.set('Content-Encoding', coding);
    if (etag) c.res.headers.set('ETag', codedEtag(etag, coding));
  };
}

/**
 * Coded bodies by URL, strong ETag and coding, least recently used dropped first; a body being compressed is shared
 * by the requests that ask for it meanwhile. Answers without a strong ETag are compressed per request.
 */
class CodedCache {
  private readonly entries = new Map<string, { body: Promise<Buffer>; bytes: number }>();
  private bytes = 0;

  constructor(private readonly max: number) {}

  /** `body` in `coding`: kept by a strong ETag (compressed as a published object is), else per request. */
  get(url: string, etag: string | null, coding: Coding, body: Buffer): Promise<Buffer> {
    if (!etag || etag.startsWith('W/')) return encode(body, coding, 'request');
    // kept: coded once, as hard as an entry point's sibling
    const key = `${coding} ${etag} ${url}`;
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key); // re-inserted: most recently used last
      this.entries.set(key, hit);
      return hit.body;
    }
    const entry = { body: encode(body, coding, 'entry'), bytes: 0 };
    this.entries.set(key, entry);
    entry.body.then(
      (b) => {
        if (this.entries.get(key) !== entry) return;
        entry.bytes = b.length;
        this.bytes += b.length;
        for (const [k, e] of this.entries) {
          if (this.bytes <= this.max) break;
          this.entries.delete(k);
          this.bytes -= e.bytes;
        }
      },
      () => this.entries.delete(key),
    );
    return entry.body;
  }
}
