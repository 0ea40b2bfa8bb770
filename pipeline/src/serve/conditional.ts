// Conditional and HEAD requests as a CDN answers them: `If-None-Match` compared weakly against a list (RFC 9110
// 13.1.2: `W/"a", "b"` and `*` match), a HEAD answer with the Content-Length its GET would have, and function answers
// validated as files are (issue 38 part 5: filtered answers had no ETag and no charset).
import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { isCompressibleType } from '../contract/encodings.ts';

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/** Whether an `If-None-Match` header names `etag` (weak comparison, any member of a list, or `*`). */
export function etagMatches(header: string | undefined, etag: string | undefined): boolean {
  if (!header || !etag) return false;
  if (header.trim() === '*') return true;
  const want = opaque(etag);
  return (header.match(/(?:W\/)?"[^"]*"/g) ?? []).some((t) => opaque(t) === want);
}

/**
 * hono answers HEAD with its GET route and drops the body, and with it the length; this puts the length back, so a
 * HEAD says how large the GET would be (for files and for function answers alike).
 */
export const headLength: MiddlewareHandler = async (c, next) => {
  await next();
  if (c.req.method !== 'HEAD' || c.res.headers.has('Content-Length') || !c.res.body) return;
  const body = await c.res.clone().arrayBuffer();
  c.res.headers.set('Content-Length', String(body.byteLength));
};

/**
 * A function answer as a file is sent: a text type without a charset gets `charset=utf-8` (every answer is UTF-8),
 * a 200 without an ETag a weak one of its bytes, and an `If-None-Match` naming it a 304 without a body. Weak, not
 * strong: the compression middleware keeps coded bodies by strong tag at the publisher's effort, which a one-off
 * filtered answer is not worth; the weak comparison If-None-Match uses matches it all the same.
 */
export async function conditionalAnswer(ifNoneMatch: string | undefined, res: Response): Promise<Response> {
  const type = res.headers.get('Content-Type');
  if (type && isCompressibleType(type) && !/;\s*charset=/i.test(type))
    res.headers.set('Content-Type', `${type}; charset=utf-8`);
  if (res.status !== 200 || !res.body) return res;
  let answer = res;
  let etag = res.headers.get('ETag');
  if (!etag) {
    const body = await res.arrayBuffer();
    etag = `W/"${createHash('sha256').update(new Uint8Array(body)).digest('base64url').slice(0, 27)}"`;
    answer = new Response(body, { status: 200, headers: res.headers });
    answer.headers.set('ETag', etag);
  }
  if (!etagMatches(ifNoneMatch, etag)) return answer;
  const held = new Response(null, { status: 304, headers: answer.headers });
  held.headers.delete('Content-Length');
  return held;
}
