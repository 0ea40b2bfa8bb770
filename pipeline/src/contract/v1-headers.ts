// The headers every v1 response carries, and those of a deprecated entry — shared by the local server, the host
// config and the OpenAPI document so the three cannot disagree. spec: Versioning.
import { randomUUID } from 'node:crypto';

/** The paths that are part of v1 (and so carry X-Request-Id, X-API-Version, X-Data-Notice). */
export const V1_PATH_SOURCE = '^/(api/v1/.*|feeds/.*|llms\\.txt)$';
export const isV1Path = (pathname: string): boolean => new RegExp(V1_PATH_SOURCE).test(pathname);

/** Response headers a browser script may read (CORS). */
export const EXPOSE_HEADERS =
  'ETag, X-Request-Id, X-API-Version, X-Data-Notice, Deprecation, Sunset, Link, Retry-After';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The request's id: the one the edge middleware generated and forwarded (so a function response and the edge agree on
 * one value), else a fresh UUID. Anything that is not a UUID is ignored rather than echoed into a header.
 */
export function requestId(forwarded: string | undefined): string {
  return forwarded && UUID.test(forwarded) ? forwarded.toLowerCase() : randomUUID();
}

/** spec: Limits — breaking changes are announced at least 90 days ahead; a sunset may not come sooner. */
export const DEPRECATION_NOTICE_DAYS = 90;

/** A catalogue entry's deprecation: still answers, with `Deprecation` and `Sunset` headers, until `sunset`. */
export interface Deprecation {
  /** ISO date or instant the entry was deprecated: the `Deprecation` header (RFC 9745) */
  since: string;
  /** ISO date or instant after which it may stop answering: the `Sunset` header (RFC 8594) */
  sunset: string;
  /** where the replacement is documented: `Link: <…>; rel="deprecation"` */
  link: string;
}

export class DeprecationError extends Error {
  constructor(id: string, problem: string) {
    super(`Catalogue entry \`${id}\` has an invalid \`deprecated\` flag: ${problem}`);
    this.name = 'DeprecationError';
  }
}

/** Throws unless the dates parse and the sunset gives at least the 90-day notice. */
export function checkDeprecation(id: string, d: Deprecation): void {
  const since = Date.parse(d.since);
  const sunset = Date.parse(d.sunset);
  if (Number.isNaN(since) || Number.isNaN(sunset))
    throw new DeprecationError(id, `expected ISO dates, got since \`${d.since}\` and sunset \`${d.sunset}\`.`);
  const days = (sunset - since) / 86_400_000;
  if (days < DEPRECATION_NOTICE_DAYS) {
    throw new DeprecationError(
      id,
      `the sunset is ${Math.floor(days)} days after the deprecation; v1 promises at least ${DEPRECATION_NOTICE_DAYS}. Move \`sunset\` to ${new Date(since + DEPRECATION_NOTICE_DAYS * 86_400_000).toISOString().slice(0, 10)} or later.`,
    );
  }
  if (!d.link) throw new DeprecationError(id, 'a `link` to the replacement is required.');
}

/** `Deprecation: @<epoch seconds>` (RFC 9745 structured date), `Sunset: <HTTP-date>` (RFC 8594) and the Link. */
export function deprecationHeaders(d: Deprecation): Record<string, string> {
  return {
    Deprecation: `@${Math.floor(Date.parse(d.since) / 1000)}`,
    Sunset: new Date(d.sunset).toUTCString(),
    Link: `<${d.link}>; rel="deprecation"; type="text/html"`,
  };
}
