// The site's page URLs, declared once: the Astro pages, `outage serve`'s routes, the nav, the browser modules' links
// and the event records' `link` (events.ts) all read them, as the API's URLs come from the catalogue.
import { STATES } from '../geo/states.ts';

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

/** A page's path with its parameters filled in: sitePath('county', { fips: '12086' }) → /counties/12086 */
export function sitePath(page: SitePage, params: Record<string, string> = {}): string {
  return SITE_PATHS[page].replace(/\{(\w+)\}/g, (_, k: string) => {
    const v = params[k];
    if (v === undefined || !/^[A-Za-z0-9]+$/.test(v))
      throw new Error(`Expected a value for {${k}} in the site page ${SITE_PATHS[page]}, got \`${v}\`.`);
    return v;
  });
}

/** States with a state page: the 50 states and DC, the ones us-atlas draws (territories have no shapes there). */
export const STATE_PAGES = STATES.filter((s) => Number(s.fips) <= 56).map((s) => ({
  code: s.code,
  slug: s.code.toLowerCase(),
  fips: s.fips,
  name: s.name,
}));
