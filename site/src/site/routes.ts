// The site's navigation and the API paths its pages read. The page URLs themselves are part of the contract
// (pipeline/src/contract/site-pages.ts: the event records link to them); every page works the same on both hosts.
import { CATALOGUE } from '../../../pipeline/src/contract/catalogue.ts';
import type { SitePage } from '../../../pipeline/src/contract/site-pages.ts';

/** The main navigation, in reading order. */
export const NAV: ReadonlyArray<[SitePage, string]> = [
  ['home', 'Live map'],
  ['sources', 'Sources'],
  ['events', 'Events'],
  ['reports', 'Reports'],
  ['docs', 'API docs'],
];

/** The API path of a catalogue entry, by id: the pages read every API URL through this (one source of truth). */
export function apiPath(id: string): string {
  const e = CATALOGUE.find((x) => x.id === id);
  if (!e) throw new Error(`No catalogue entry \`${id}\`: the site names an endpoint the API does not have.`);
  return e.path;
}

/** The API paths a page's browser module needs, by catalogue id, as JSON config. */
export const apiPaths = (ids: readonly string[]): Record<string, string> =>
  Object.fromEntries(ids.map((id) => [id, apiPath(id)]));
