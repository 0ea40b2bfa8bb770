// The map page's static assets, served under /map/ by both hosts: the browser modules and the county geometry.
export const MAP_ASSET_BASE = '/map';
export const TOPOLOGY_ASSET = 'us-counties.topo.json';
/** The browser modules in site/src/map/browser/, as shipped (plain ES modules, no build step). */
export const BROWSER_MODULES = ['main.js', 'geometry.js', 'data.js', 'county-map.js', 'panels.js'] as const;
export const MAP_ASSETS: readonly string[] = [...BROWSER_MODULES, TOPOLOGY_ASSET];

export function assetContentType(name: string): string {
  return name.endsWith('.json') ? 'application/json; charset=utf-8' : 'text/javascript; charset=utf-8';
}
