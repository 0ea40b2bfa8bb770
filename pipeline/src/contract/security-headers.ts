// The security headers of every answer, declared once: the local server (hono's secureHeaders), the Vercel routes
// and the nginx site all set these values. The pages load only their own scripts (modules under /map/, swagger-ui
// under /docs/swagger/; page data rides in `<script type="application/json">`, which is never executed), so scripts
// need no 'unsafe-inline'; styles do (each page inlines its CSS and a few style attributes). The embed pages
// (/embed/…) are made to be framed by any site; everything else refuses framing (`frame-ancestors 'none'`). Charts are embedded by hotlinking
// an `<img>` (spec: County), which framing rules do not touch.

/** CSP directives, in hono secureHeaders' camelCase form. */
const DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  fontSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};
export type CspDirectives = typeof DIRECTIVES;

/** Paths meant to be framed by other sites: the embeddable map pages. Charts are embedded as `<img>`, never framed. */
export const EMBED_PATH_SOURCE = '^/embed/';

/**
 * The embed pages' policy has no `frame-ancestors` at all: `*` would still refuse an ancestor without a network
 * origin (an `about:blank` or `srcdoc` page, a sandboxed frame), and an embed is for anyone.
 */
export const cspDirectives = (embed: boolean): Partial<CspDirectives> => {
  if (!embed) return DIRECTIVES;
  const { frameAncestors: _, ...rest } = DIRECTIVES;
  return rest;
};

/** The header value: `default-src 'self'; script-src 'self'; …`. */
export const cspValue = (embed: boolean): string =>
  Object.entries(cspDirectives(embed))
    .map(([k, v]) => `${k.replace(/[A-Z]/g, (ch) => `-${ch.toLowerCase()}`)} ${v.join(' ')}`)
    .join('; ');

export const REFERRER_POLICY = 'strict-origin-when-cross-origin';

/** Every security header of an answer, by name. */
export const securityHeaders = (embed: boolean): Record<string, string> => ({
  'Content-Security-Policy': cspValue(embed),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': REFERRER_POLICY,
});
