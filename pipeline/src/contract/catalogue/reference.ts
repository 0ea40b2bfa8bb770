// The service's reference documents: coverage, the sources' verification, the place index, the OpenAPI document
// and /llms.txt. spec: Endpoints — Other.
import type { Endpoint } from './types.ts';

/** The tables of /api/v1/places (geo/places.ts): the browser loads `counties` with `places` or `zips`. */
export const PLACE_TABLES = ['counties', 'places', 'zips'] as const;

export const REFERENCE_ENDPOINTS: readonly Endpoint[] = [
  {
    id: 'coverage',
    path: '/api/v1/coverage',
    formats: ['json', 'csv'],
    cache: 'static',
    schema: 'Coverage',
    summary: "Coverage: how much of the US the registry's feeds cover, nationally and per state",
    description:
      "EIA-861 2018 customers of the nation (the 50 states and DC) and of each state and territory, split into customers covered by a utility's own feed (without credentials: gated rows count as not covered), covered only by the ODIN baseline (an estimate from a recorded ODIN capture, see `odin_estimate`; ODIN counts meters) and not covered, with percentages (2 decimals); the own-feed figure again with every credential the registry names (`customers_own_feed_with_credentials`: also the gated rows that only want the credential their options.credential_env names, listed in `credentials`); and the largest utilities not covered, with the reason: `gated` (needs credentials), `not_yet_wired` (no connector yet), `disabled`, `state_not_in_feed` (its feed covers other states) or `no_public_feed`. CSV: one row per scope with its largest uncovered utility; the full lists are in the JSON.",
  },
  {
    id: 'sources.verification',
    path: '/api/v1/sources/verification',
    formats: ['json'],
    cache: 'static',
    schema: 'SourcesVerification',
    summary: 'The last verification of every active source (`outage sources verify`)',
    description:
      "Every active registry row probed once, politely (polling's per-host limits and deadlines, a total deadline): per row whether it answered (HTTP status) and parsed, customers out and served, counties, counties outside the utility's EIA-861 service territory, customers served against EIA-861's, the time taken, and on failure its kind, message and what to do. `report` is null until a verification has run; the deployment's operator runs it weekly.",
  },
  {
    id: 'places',
    path: '/api/v1/places',
    formats: ['json'],
    cache: 'static',
    schema: 'PlaceIndex',
    tables: PLACE_TABLES,
    summary: 'Search by place: every county, town and ZIP code with the counties it lies in',
    description:
      "The index the site's search box reads, one table each: `counties` (default: FIPS, name, state, population), `places` (towns and cities, as the USPS names the city of each ZIP code, with the share of their population in each county) and `zips` (every ZIP code tabulation area with its counties and the share of its population in each; null where the source gives none). Only counties with a county page (the 50 states and DC). Sources and licences are in `credit` and data/reference/README.md; the tables behind it are `data/reference/places.csv` and `data/reference/zcta-county.csv`.",
  },
  {
    id: 'openapi',
    path: '/api/v1/openapi.json',
    formats: ['json'],
    cache: 'static',
    schema: 'OpenApiDocument',
    summary: 'This OpenAPI 3.1 document',
    description: 'Generated from the catalogue the service itself is built from.',
  },
];

/** Last in the catalogue: the plain-text overview is generated from everything above it. */
export const LLMS_ENDPOINT: Endpoint = {
  id: 'llms',
  path: '/llms.txt',
  formats: ['txt'],
  cache: 'static',
  schema: 'Text',
  summary: 'Machine-readable overview for language models',
  description: 'Plain-text overview of the service and its endpoints.',
};
