// The 404 page a person sees (issue 38 part 5): a browser asking for a page or API path that does not exist gets this,
// in the site's layout, instead of a JSON body 980 px wide on a phone. Astro builds it as 404.html with no path (a
// static host knows none); `outage serve` renders it with the path asked for and, for an API path, what the API says.
import { SITE_PATHS } from '../../../pipeline/src/contract/site-pages.ts';
import { esc, layout } from './layout.ts';

/** The longest path echoed: a long URL is cut, never allowed to widen the page. */
const PATH_SHOWN = 200;

/** An API message's `code` spans as <code>, everything else as text (escaped first). */
const withCode = (message: string) => esc(message).replace(/`([^`]*)`/g, '<code>$1</code>');

export interface NotFound {
  /** the path asked for, as the URL has it (percent-encoded); null for the static 404.html */
  path: string | null;
  /** what the API says (its error message), for a path under the API */
  message?: string;
}

export function notFoundPage(o: NotFound): string {
  const shown = o.path && (o.path.length > PATH_SHOWN ? `${o.path.slice(0, PATH_SHOWN)}…` : o.path);
  const where = shown ? `There is no page at <code>${esc(shown)}</code>.` : 'There is no page at this address.';
  const api = o.message
    ? `<p>The API says: ${withCode(o.message)}</p><p>The API's endpoints are described in the <a href="${SITE_PATHS.docs}">API documentation</a>.</p>`
    : '';
  const main = `<h1>Page not found</h1>
<p>${where} It may have been mistyped, or the county or state it names does not exist.</p>${api}
<p>Find a county by its name, a city or town, or a ZIP code with the search box above, or go to:</p>
<ul><li><a href="${SITE_PATHS.home}">The live outage map</a></li><li><a href="${SITE_PATHS.sources}">Sources and coverage</a></li>
<li><a href="${SITE_PATHS.events}">Events</a></li><li><a href="${SITE_PATHS.reports}">Reports</a></li></ul>`;
  return layout({ title: 'Page not found', current: null, main });
}
