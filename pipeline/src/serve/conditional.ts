// Conditional and HEAD requests as a CDN answers them: `If-None-Match` compared weakly against a list (RFC 9110
// 13.1.2: `W/"a", "b"` and `*` match), and a HEAD answer with the Content-Length its GET would have.
import type { MiddlewareHandler } from 'hono';

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
