// Every site page but `/` (the map page, site/src/map/page.ts), by the name contract/site-pages.ts gives its URL:
// both hosts render from this one table, so a page added here is served by `outage serve` and built by Astro alike.
import { countyPage } from './county-page.ts';
import { eventsPage, reportsPage, sourcesPage } from './data-pages.ts';
import { docsPage } from './docs-page.ts';
import { embedPage } from './embed-page.ts';
import type { SitePage } from '../../../pipeline/src/contract/site-pages.ts';
import { searchPage } from './search-page.ts';
import { statePage } from './state-page.ts';

/** A page's HTML from its path parameters; null when the parameters name nothing (the host answers 404). */
export const PAGES: Record<Exclude<SitePage, 'home'>, (params: Record<string, string>) => string | null> = {
  county: ({ fips }) => (/^\d{5}$/.test(fips ?? '') ? countyPage(fips) : null),
  state: ({ state }) => statePage(state ?? ''),
  sources: () => sourcesPage(),
  events: () => eventsPage(),
  reports: () => reportsPage(),
  search: () => searchPage(),
  docs: () => docsPage(),
  embedMap: () => embedPage(null),
  embedState: ({ state }) => embedPage(state ?? ''),
};
