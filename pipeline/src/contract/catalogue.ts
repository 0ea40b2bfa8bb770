// The catalogue: every public URL, declared once. The file writer, the local server, the host config, the
// OpenAPI document and the docs all derive from this list. spec: Endpoints.
// Each endpoint family is declared beside it (catalogue/*.ts); this module joins them, in the published order.
import { ARCHIVE_ENDPOINTS } from './catalogue/archive.ts';
import { COUNTY_ENDPOINTS } from './catalogue/counties.ts';
import { EVENT_ENDPOINTS } from './catalogue/events.ts';
import { LIVE_ENDPOINTS } from './catalogue/live.ts';
import { LLMS_ENDPOINT, REFERENCE_ENDPOINTS } from './catalogue/reference.ts';
import { REPORT_ENDPOINTS } from './catalogue/reports.ts';
import type { CacheClass, Endpoint, Format } from './catalogue/types.ts';

export type { CacheClass, Endpoint, Format, FunctionEndpoint, QueryParam } from './catalogue/types.ts';
export { TIMELINE_DEFAULT_HOURS, TIMELINE_MAX_HOURS } from './catalogue/live.ts';
export { PLACE_TABLES } from './catalogue/reference.ts';
export { REPORT_TABLES } from './catalogue/reports.ts';
export { FUNCTION_ENDPOINTS } from './catalogue/functions.ts';

/** The order is the published order: the OpenAPI document, the published tree and the docs follow it. */
export const CATALOGUE: readonly Endpoint[] = [
  ...LIVE_ENDPOINTS,
  ...COUNTY_ENDPOINTS,
  ...REPORT_ENDPOINTS,
  ...EVENT_ENDPOINTS,
  ...REFERENCE_ENDPOINTS,
  ...ARCHIVE_ENDPOINTS,
  LLMS_ENDPOINT,
];

export const FORMAT_EXT: Record<Format, string> = {
  json: 'json',
  csv: 'csv',
  geojson: 'geojson',
  txt: 'txt',
  rss: 'rss',
  atom: 'atom',
  feedjson: 'json',
  png: 'png',
  parquet: 'parquet',
};
export const CONTENT_TYPE: Record<Format, string> = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  geojson: 'application/geo+json; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  rss: 'application/rss+xml; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
  feedjson: 'application/feed+json; charset=utf-8',
  png: 'image/png',
  parquet: 'application/vnd.apache.parquet',
};

export const CACHE_CONTROL: Record<CacheClass, string> = {
  live: 'public, max-age=60, stale-while-revalidate=60',
  history: 'public, max-age=86400, stale-while-revalidate=604800',
  static: 'public, max-age=3600',
  /** a finished archive day: written once, never rewritten */
  immutable: 'public, max-age=31536000, immutable',
};

export function endpoint(id: string): Endpoint {
  const e = CATALOGUE.find((x) => x.id === id);
  if (!e) throw new Error(`No catalogue entry \`${id}\``);
  return e;
}
