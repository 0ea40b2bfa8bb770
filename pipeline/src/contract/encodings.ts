// Content codings (issue 28 part 3), shared by the publisher's precompressed siblings, the local server and the nginx
// config: which answers are compressed, how a coding is chosen from Accept-Encoding, the siblings' names and the ETag
// each coding gets.
import { parseAccept } from 'hono/utils/accept';
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from 'hono/utils/compress';
import { CONTENT_TYPE, FORMAT_EXT, type Format } from './catalogue.ts';

export type Coding = 'br' | 'gzip';
/** The codings served, in the server's preference when a client weighs them equally. */
export const CODINGS: readonly Coding[] = ['br', 'gzip'];
/** A precompressed sibling's name: `map.json.br`, `map.json.gz` (what nginx's brotli_static and gzip_static look for). */
export const SIBLING_SUFFIX: Record<Coding, string> = { br: '.br', gzip: '.gz' };
/** Smaller bodies go as they are: the coding's framing and the client's work are not worth a few hundred bytes. */
export const MIN_COMPRESS_BYTES = 1024;

/** Text answers (JSON, CSV, GeoJSON, feeds, HTML, JS, CSS, text); never PNG or Parquet, which are compressed already. */
export const isCompressibleType = (contentType: string | null | undefined): boolean =>
  !!contentType && COMPRESSIBLE_CONTENT_TYPE_REGEX.test(contentType);

/** The catalogue formats that are text, and their file extensions (the files the publisher precompresses). */
export const COMPRESSIBLE_FORMATS = (Object.keys(CONTENT_TYPE) as Format[]).filter((f) =>
  isCompressibleType(CONTENT_TYPE[f]),
);
const COMPRESSIBLE_EXT = new Set(COMPRESSIBLE_FORMATS.map((f) => `.${FORMAT_EXT[f]}`));

/** Whether a published file gets precompressed siblings: a text format, at least MIN_COMPRESS_BYTES. */
export function precompressible(rel: string, bytes: number): boolean {
  return bytes >= MIN_COMPRESS_BYTES && COMPRESSIBLE_EXT.has(rel.slice(rel.lastIndexOf('.')));
}

export interface Negotiated {
  /** the coding to send, or `identity` */
  coding: Coding | 'identity';
  /** the client named `identity;q=0` (or `*;q=0` without naming identity): compress even a small body */
  identityRefused: boolean;
}

/**
 * RFC 9110 12.5.3: each coding's weight is its own entry's q, else that of `*`, else 0 (`x-gzip` is gzip); the
 * highest positive weight wins, br before gzip on a tie; an explicit `identity` weighted above every coding keeps the
 * body as it is. No header, or an empty one, means identity.
 */
export function negotiate(acceptEncoding: string | undefined | null): Negotiated {
  const entries = parseAccept(acceptEncoding ?? '').map((a) => ({ type: a.type.toLowerCase(), q: a.q }));
  const weight = (name: string) => entries.find((e) => e.type === name)?.q;
  const star = weight('*');
  const identity = weight('identity');
  const identityRefused = identity === 0 || (identity === undefined && star === 0);
  let best: { coding: Coding; q: number } | null = null;
  for (const coding of CODINGS) {
    const q = weight(coding) ?? (coding === 'gzip' ? weight('x-gzip') : undefined) ?? star ?? 0;
    if (q > 0 && (!best || q > best.q)) best = { coding, q };
  }
  if (!best || (identity !== undefined && identity > best.q)) return { coding: 'identity', identityRefused };
  return { coding: best.coding, identityRefused };
}

/**
 * The ETag of a coded representation: the identity tag with `-br` or `-gzip` inside the quotes. Each coding's bytes
 * differ, so each gets its own strong validator (RFC 9110 8.8.3); a weak tag stays weak.
 */
export const codedEtag = (etag: string, coding: Coding): string => etag.replace(/"$/, `-${coding}"`);
