// The site's static assets, served under /map/ by both hosts: the browser modules and the county geometry (declared
// here once: both hosts route MAP_ASSETS).
import fs from 'node:fs';
import { fromRoot } from '../../../pipeline/src/package-root.ts';
import type { DetailName } from './topology.ts';

export const MAP_ASSET_BASE = '/map';
/** The county geometry in full detail: the maps zoomed to a state (state pages, embeds). */
export const TOPOLOGY_ASSET = 'us-counties.topo.json';
/** The national map's (`/`) lighter geometry: the file its first paint waits for. */
export const NATIONAL_TOPOLOGY_ASSET = 'us-counties-national.topo.json';
/** Each geometry asset and the detail it is built at (topology.ts DETAILS). */
export const TOPOLOGY_ASSETS: Readonly<Record<string, DetailName>> = {
  [NATIONAL_TOPOLOGY_ASSET]: 'national',
  [TOPOLOGY_ASSET]: 'full',
};
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
  'times.js',
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
export const MAP_ASSETS: readonly string[] = [...BROWSER_MODULES, ...Object.keys(TOPOLOGY_ASSETS)];

export function assetContentType(name: string): string {
  if (name.endsWith('.css')) return 'text/css; charset=utf-8';
  return name.endsWith('.json') ? 'application/json; charset=utf-8' : 'text/javascript; charset=utf-8';
}

/**
 * A browser module's static imports (`import … from './x.js'`, `export … from './x.js'`). The modules are plain,
 * hand-written ES modules whose imports are all relative and static, so a pattern reads them; an `import()` is left
 * out, as it loads later on purpose.
 */
const STATIC_IMPORT = /^\s*(?:import|export)\s[^'";]*?from\s*'\.\/([\w-]+\.js)'/gm;
const graphs = new Map<string, string[]>();

/** Every module `entry` imports, directly or not, in the order the browser meets them; read once per process. */
export function moduleImports(entry: string): string[] {
  let found = graphs.get(entry);
  if (found) return found;
  found = [];
  const visit = (name: string) => {
    const source = fs.readFileSync(fromRoot('site/src/map/browser', name), 'utf8');
    for (const [, dep] of source.matchAll(STATIC_IMPORT)) {
      if (dep === entry || found!.includes(dep)) continue;
      found!.push(dep);
      visit(dep);
    }
  };
  visit(entry);
  graphs.set(entry, found);
  return found;
}

/**
 * `<link rel="modulepreload">` for `entry` and every module it imports: the browser fetches them with the page's head
 * instead of one import level at a time (each level a round trip: over half a second on a slow phone network), the
 * entry first rather than after everything the head asked for.
 */
export const modulePreloads = (entry: string): string =>
  [entry, ...moduleImports(entry)]
    .map((name) => `<link rel="modulepreload" href="${MAP_ASSET_BASE}/${name}">`)
    .join('');
