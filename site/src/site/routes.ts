// The site's page URLs, declared once: the Astro pages, `outage serve`'s routes, the nav and the browser modules'
// links all read them, as the API's URLs come from the catalogue. Every page works the same on both hosts.
import { CATALOGUE } from '../../../pipeline/src/contract/catalogue.ts';
import { STATES } from '../../../pipeline/src/geo/states.ts';

export const SITE_PATHS = {
  home: '/',
  county: '/counties/{fips}',
  state: '/states/{state}',
  sources: '/sources',
  events: '/events',
  reports: '/reports',
  search: '/search',
  docs: '/docs/',
  embedMap: '/embed/map',
  embedState: '/embed/states/{state}',
} as const;

export type SitePage = keyof typeof SITE_PATHS;

/** The main navigation, in reading order. */
export const NAV: ReadonlyArray<[SitePage, string]> = [
  ['home', 'Live map'],
  ['sources', 'Sources'],
  ['events', 'Events'],
  ['reports', 'Reports'],
  ['docs', 'API docs'],
];

/** A page's path with its parameters filled in: sitePath('county', { fips: '12086' }) → /counties/12086 */
export function sitePath(page: SitePage, params: Record<string, string> = {}): string {
  return SITE_PATHS[page].replace(/\{(\w+)\}/g, (_, k: string) => {
    const v = params[k];
    if (v === undefined || !/^[A-Za-z0-9]+$/.test(v))
      throw new Error(`Expected a value for {${k}} in the site page ${SITE_PATHS[page]}, got \`${v}\`.`);
    return v;
  });
}

/** The API path of a catalogue entry, by id: the pages read every API URL through this (one source of truth). */
export function apiPath(id: string): string {
  const e = CATALOGUE.find((x) => x.id === id);
  if (!e) throw new Error(`No catalogue entry \`${id}\`: the site names an endpoint the API does not have.`);
  return e.path;
}

/** The API paths a page's browser module needs, by catalogue id, as JSON config. */
export const apiPaths = (ids: readonly string[]): Record<string, string> =>
  Object.fromEntries(ids.map((id) => [id, apiPath(id)]));

/** States with a state page: the 50 states and DC, the ones us-atlas draws (territories have no shapes there). */
export const STATE_PAGES = STATES.filter((s) => Number(s.fips) <= 56).map((s) => ({
  code: s.code,
  slug: s.code.toLowerCase(),
  fips: s.fips,
  name: s.name,
}));
