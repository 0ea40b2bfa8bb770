// The site's static assets, served under /map/ by both hosts: the browser modules and the county geometry.
export const MAP_ASSET_BASE = '/map';
export const TOPOLOGY_ASSET = 'us-counties.topo.json';
/** The browser modules in site/src/map/browser/, as shipped (plain ES modules, no build step). */
export const BROWSER_MODULES = [
  'main.js',
  'geometry.js',
  'data.js',
  'county-map.js',
  'panels.js',
  'feeds-banner.js',
  'map-view.js',
  'timeline.js',
  'site.js',
  'tables.js',
  'county-page.js',
  'past-week.js',
  'past-map.js',
  'state-page.js',
  'sources-page.js',
  'coverage-view.js',
  'events-page.js',
  'reports-page.js',
  'docs-page.js',
  'embed-page.js',
  'place-search.js',
  'search-page.js',
] as const;
export const MAP_ASSETS: readonly string[] = [...BROWSER_MODULES, TOPOLOGY_ASSET];

export function assetContentType(name: string): string {
  if (name.endsWith('.css')) return 'text/css; charset=utf-8';
  return name.endsWith('.json') ? 'application/json; charset=utf-8' : 'text/javascript; charset=utf-8';
}
