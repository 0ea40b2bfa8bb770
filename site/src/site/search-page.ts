// The search page /search?q=: the nav's search box lands here; browser/search-page.js looks the query up in
// /api/v1/places and goes on to the county page, or lists the counties to choose from.
import { STATES } from '../../../pipeline/src/geo/states.ts';
import { layout } from './layout.ts';
import { apiPaths } from './routes.ts';
import { SITE_PATHS } from '../../../pipeline/src/contract/site-pages.ts';

const CSS = `.search-form{display:flex;flex-wrap:wrap;gap:.5em;align-items:center;margin:.6em 0}.search-form label{flex-basis:100%;font-weight:600}
.search-form input{flex:1 1 12rem;min-width:0;font:inherit;padding:.35em .5em}.search-form button{font:inherit;padding:.35em .9em}
.site-head .site-search{display:none}.search-results{padding-left:1.4em}.search-results li{margin:.35em 0}.search-results a{font-weight:600}`;

export function searchPage(): string {
  const config = {
    api: apiPaths(['places']),
    site: SITE_PATHS,
    states: STATES.map((s) => [s.code, s.name]),
  };
  const main = `<h1>Find a county</h1>
<p>Type a county (“Harris County”, “Harris, TX”), a city or town (“Orlando”) or a ZIP code (“33101”): its county page shows the utilities serving it and their status now.</p>
<form id="search-form" class="search-form" role="search" action="${SITE_PATHS.search}" method="get"><label for="search-q">County, city or town, or ZIP code</label><input id="search-q" name="q" type="search" autocomplete="off" enterkeyhint="search" maxlength="100" required><button type="submit">Search</button></form>
<p id="search-status" role="status" class="muted">Type a place and press Search.</p>
<ol id="search-results" class="search-results" hidden></ol>
<p id="search-credit" class="muted" style="font-size:.85rem"></p>`;
  return layout({ title: 'Find a county', current: null, main, module: 'search-page.js', config, css: CSS });
}
