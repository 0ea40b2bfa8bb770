// Errors for people and for programs (issue 38 part 5): a 404 asked for by a browser is the site's 404 page, in its
// layout; every other client (curl, fetch(), an app: no `text/html` in Accept, or JSON weighed at least as high) keeps
// the one JSON error body. The page loads on first use: the packaged function layer ships site/src beside pipeline/.
import { parseAccept } from 'hono/utils/accept';
import type { ApiError } from '../contract/errors.ts';

const notFoundModule = () => import('../../../site/src/site/not-found-page.ts');

/** The weight `accept` gives a media type: that of its most specific matching range (RFC 9110 12.5.1), else 0. */
function weight(ranges: ReturnType<typeof parseAccept>, type: string): number {
  const [main] = type.split('/');
  const exact = ranges.find((r) => r.type.toLowerCase() === type);
  const sub = ranges.find((r) => r.type.toLowerCase() === `${main}/*`);
  const any = ranges.find((r) => r.type === '*/*');
  return (exact ?? sub ?? any)?.q ?? 0;
}

/**
 * Whether the client is a browser asking for a page: Accept names `text/html` itself (not only through a wildcard)
 * and weighs it above `application/json`. A browser's navigation (`text/html,…,*∕*;q=0.8`) does; `*∕*` alone, no
 * Accept, `application/json`, or `text/html, application/json` at equal weight do not.
 */
export function prefersHtml(accept: string | undefined): boolean {
  const ranges = parseAccept(accept ?? '');
  if (!ranges.some((r) => r.type.toLowerCase() === 'text/html')) return false;
  const html = weight(ranges, 'text/html');
  return html > 0 && html > weight(ranges, 'application/json');
}

const API_PATH = /^\/(?:api|feeds)\//;

/**
 * The site's 404 page for `pathname` (the URL's own, percent-encoded, so it is ASCII), with what the API says when the
 * path is the API's; null when the error is not a 404 or the page's module is not shipped here (the JSON body then).
 */
export async function notFoundHtml(e: ApiError, pathname: string): Promise<string | null> {
  if (e.body.status !== 404) return null;
  try {
    const { notFoundPage } = await notFoundModule();
    return notFoundPage({ path: pathname, ...(API_PATH.test(pathname) ? { message: e.body.message } : {}) });
  } catch (err) {
    console.error(`outage: the 404 page could not be loaded, answering JSON: ${err}`);
    return null;
  }
}
