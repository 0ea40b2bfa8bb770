// The schemas of the event stream: an event, a page of events and the JSON Feed.
import { env, generated, nullableInt, nullableTime, obj, pct, time } from './parts.ts';

export const EVENT_SCHEMAS: Record<string, Record<string, unknown>> = {
  Event: obj({
    id: { type: 'integer', minimum: 1, description: 'Grows with every event; never reused or reordered.' },
    at: time,
    kind: {
      type: 'string',
      enum: [
        'outage_began',
        'outage_grew',
        'etr_changed',
        'outage_improving',
        'outage_restored',
        'major_event',
        'feed_stale',
        'feed_recovered',
        'crew_changed',
      ],
    },
    scope: {
      type: 'string',
      enum: ['county', 'municipality', 'utility', 'incident'],
      description:
        'What the event concerns. `incident` (one outage as its utility lists it) only when asked for with the `scope` parameter; an answer without it holds county, municipality and utility events, as before incident events.',
    },
    fips: { type: ['string', 'null'], pattern: '^\\d{5}$' },
    state: {
      type: ['string', 'null'],
      description:
        "USPS code: the county's state for county and municipality events; for utility events the state with the most customers out (see `states`).",
    },
    states: {
      type: 'array',
      items: { type: 'string' },
      description:
        "Every state the event concerns: the county's state, or for a utility event each state in which it has customers out (feed events: the states its feed covers). The `state` filter and state-scoped alert rules match any of them.",
    },
    utility: { type: ['string', 'null'] },
    area: { type: ['string', 'null'] },
    source_id: { type: ['string', 'null'] },
    outage_id: { type: ['string', 'null'] },
    customers_out: nullableInt,
    pct_out: pct,
    threshold: { ...nullableInt, description: 'The opening threshold (customers out) of the outage.' },
    previous_customers_out: {
      ...nullableInt,
      description:
        'grew: the count at the previous began/grew event; improving: the peak it fell from; restored: the peak.',
    },
    etr: nullableTime,
    previous_etr: nullableTime,
    etr_slip_min: {
      ...nullableInt,
      minimum: -1_000_000,
      description:
        'etr_changed: minutes the estimated restoration time moved (positive: later) from previous_etr to etr; null when either is unknown, and for other kinds.',
    },
    incident_id: {
      type: ['string', 'null'],
      description: "Incident events: the outage's id in its utility's feed (unique within the source); null otherwise.",
    },
    cause: { type: ['string', 'null'], description: 'Incident events: the cause as the feed gives it, when it does.' },
    crew_status: {
      type: ['string', 'null'],
      description: 'Incident events: the crew status as the feed gives it (e.g. "Crew assigned"), when it does.',
    },
    previous_crew_status: {
      type: ['string', 'null'],
      description: 'crew_changed: the crew status before (null when the feed gave none).',
    },
    county_name: {
      type: ['string', 'null'],
      description:
        "The county's name for county and municipality events (as `name` in /api/v1/live/counties/{fips}); null for utility events.",
    },
    title: { type: 'string' },
    link: {
      type: 'string',
      description:
        "Path of the site page about what the event concerns: the county's page (/counties/{fips}); for a utility's outage its state's page; for a feed going stale or recovering the sources page (/sources).",
    },
  }),
  EventsPage: env(
    obj({
      generated_at: generated,
      order: {
        enum: ['newest_first', 'oldest_first'],
        description:
          'newest_first: the latest page (no `after`) and the pages its next_cursor leads to, towards older events; oldest_first: pages read from first_cursor or latest_cursor, towards newer events.',
      },
      events: { type: 'array', items: { $ref: '#/components/schemas/Event' }, description: "In the page's `order`." },
      next_cursor: {
        type: 'string',
        description:
          'Pass as `after` for the next page in the same order: older events after a newest_first page, newer ones after an oldest_first page.',
      },
      has_more: {
        type: 'boolean',
        description:
          "More matching events follow in the page's order: older retained events (newest_first), or newer events already published (oldest_first; false: you are caught up, poll next_cursor later).",
      },
      first_cursor: {
        type: 'string',
        description: 'Pass as `after` to read from the oldest retained event, oldest first.',
      },
      latest_cursor: {
        type: 'string',
        description:
          'Pass as `after` to read, oldest first, only the events published after this page: what a client polls to keep up.',
      },
      limit: { type: 'integer' },
      filters: { type: 'object', description: 'The filters applied, as parsed.' },
    }),
  ),
  JsonFeed: {
    type: 'object',
    required: ['version', 'title', 'items'],
    properties: {
      version: { const: 'https://jsonfeed.org/version/1.1' },
      title: { type: 'string' },
      items: { type: 'array' },
    },
    description: 'JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/).',
  },
};
