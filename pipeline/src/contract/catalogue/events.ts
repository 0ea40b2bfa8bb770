// The event stream and its feeds (RSS, Atom, JSON Feed; also under the API prefix).
// spec: Endpoints — Events and feeds.
import { INCIDENT_EMISSION } from '../events.ts';
import type { Endpoint, Format, QueryParam } from './types.ts';

const EVENT_FILTER_PARAMS = (defaultLimit: number, maxLimit: number): QueryParam[] => [
  {
    name: 'scope',
    description: `Only events of these scopes (comma-separated): county, municipality, utility, incident. Default county,municipality,utility: incident events (one outage as its utility lists it) come only when asked for. ${INCIDENT_EMISSION}`,
    schema: { type: 'string' },
  },
  {
    name: 'after',
    description:
      "Opaque cursor from a page: its next_cursor continues in the page's order (older events after a newest-first page, newer ones after an oldest-first page); first_cursor reads from the oldest retained event and latest_cursor from the newest, both oldest first.",
    schema: { type: 'string' },
  },
  {
    name: 'fips',
    description: 'Only events of this county (5-digit FIPS), including its municipalities.',
    schema: { type: 'string', pattern: '^\\d{5}$' },
  },
  {
    name: 'state',
    description: 'Only events in this state (USPS code, e.g. FL).',
    schema: { type: 'string', pattern: '^[A-Za-z]{2}$' },
  },
  {
    name: 'utility',
    description: 'Only events of this utility (exact name, as listed in /api/v1/live/sources).',
    schema: { type: 'string' },
  },
  { name: 'kind', description: 'Only these kinds (comma-separated).', schema: { type: 'string' } },
  {
    name: 'min_customers',
    description: 'Only events with at least this many customers out.',
    schema: { type: 'integer', minimum: 0 },
  },
  {
    name: 'since',
    description: 'Only events at or after this ISO-8601 date or instant (with its zone; a real calendar date).',
    schema: { type: 'string', format: 'date-time' },
  },
  {
    name: 'limit',
    description: `Events per page, 1–${maxLimit} (default ${defaultLimit}).`,
    schema: { type: 'integer', minimum: 1, maximum: maxLimit, default: defaultLimit },
  },
];

export const EVENT_ENDPOINTS: readonly Endpoint[] = [
  {
    id: 'events',
    path: '/api/v1/events',
    formats: ['json'],
    cache: 'live',
    schema: 'EventsPage',
    summary: 'The outage event stream, paged by cursor',
    description:
      'Without `after`: the newest `limit` matching events, newest first (`order`: `newest_first`); `has_more` says whether older matching events are retained, and `next_cursor` (as `after`) gives the next older page. From `first_cursor` (the oldest retained event) or `latest_cursor` (events published after this page) pages read oldest first (`order`: `oldest_first`): `next_cursor` gives the newer events, and when `has_more` is false you are caught up (poll `next_cursor` again later). Following cursors from first_cursor yields every event exactly once, in id order, even while new events arrive; an older page never changes either. The unfiltered latest page is prebuilt; filtered pages come from the function layer.',
    functionParams: EVENT_FILTER_PARAMS(100, 500),
  },
  ...(['', 'api.'] as const).flatMap((p) => {
    const base = p ? '/api/v1/feeds/events' : '/feeds/events';
    const alias = p ? ' (alias of /feeds/events.*, under the API prefix)' : '';
    return [
      {
        id: `${p}feeds.rss`,
        path: `${base}.rss`,
        formats: ['rss'] as Format[],
        cache: 'live' as const,
        schema: 'Text',
        summary: `RSS 2.0 feed of events${alias}`,
        description:
          "The newest 50 events (same filters as /api/v1/events, limit up to 200), newest first. Each item links to a page of the site: its county's page, for a utility's outage its state's page, for a feed going stale or recovering the sources page.",
        functionParams: EVENT_FILTER_PARAMS(50, 200),
      },
      {
        id: `${p}feeds.atom`,
        path: `${base}.atom`,
        formats: ['atom'] as Format[],
        cache: 'live' as const,
        schema: 'Text',
        summary: `Atom 1.0 feed of events${alias}`,
        description: 'As the RSS feed, in Atom 1.0.',
        functionParams: EVENT_FILTER_PARAMS(50, 200),
      },
      {
        id: `${p}feeds.json`,
        path: `${base}.json`,
        formats: ['feedjson'] as Format[],
        cache: 'live' as const,
        schema: 'JsonFeed',
        summary: `JSON Feed 1.1 of events${alias}`,
        description: 'As the RSS feed, in JSON Feed 1.1; each item also carries the full event as `_outage`.',
        functionParams: EVENT_FILTER_PARAMS(50, 200),
      },
    ];
  }),
];
