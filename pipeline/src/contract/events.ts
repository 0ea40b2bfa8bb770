// The event stream's public contract: the event record, filters (a declarative allowlist), cursors and paging.
// Shared by the publisher (the prebuilt latest page and feeds) and the function layer (filtered requests).
import {
  DEFAULT_SCOPES,
  EVENT_KINDS,
  INCIDENT_EVENT_MIN,
  SCOPES,
  type EventKind,
  type Scope,
} from '../state/lifecycle.ts';
import type { EventRow } from '../state/events.ts';
import { findState } from '../geo/states.ts';
import { loadAtlas } from '../geo/counties.ts';
import { ApiError, badParam } from './errors.ts';
import { parseInstant } from './dates.ts';
import { STATE_PAGES, sitePath } from './site-pages.ts';
// @ts-expect-error: a plain browser module (no types, no DOM): titles say times as the site does
import { timeText } from '../../../site/src/map/browser/times.js';

/** A time as a person reads it, with its zone: "Dec 3, 2026, 02:00 UTC" (the site's one rule, times.js). */
export const sayTime: (iso: string) => string = timeText;

export const EVENTS_DEFAULT_LIMIT = 100;
export const EVENTS_MAX_LIMIT = 500;
export const FEED_DEFAULT_LIMIT = 50;
export const FEED_MAX_LIMIT = 200;
export const EVENTS_CHUNK = 1000;

/** When each kind is emitted (the OpenAPI document and docs/events-and-feeds.md print this). */
export const EMISSION: Record<EventKind, string> = {
  outage_began:
    'A county, municipality/township or utility crosses its opening threshold (county: 1 % of its customers, at least 50 and at most 500 out; municipality: 5 % of its customers, 20–100, or 50 when unknown; utility: 1 % of its customers, at least 100, or 1,000 when unknown). The threshold is recorded on the outage.',
  outage_grew:
    'An open outage reaches 1.5× the count at its last began/grew event and at least one opening threshold more.',
  etr_changed:
    'The estimated restoration time of an open outage (the latest ETR among its areas and incidents) appears or moves by 60 minutes or more.',
  outage_improving:
    'An open outage falls to half of its peak since the last grew/improving event, by at least half its opening threshold.',
  outage_restored:
    'Two consecutive successful polls show the outage below half of the threshold it opened at, and no feed covering it is stale.',
  major_event:
    'A utility reaches 10 % of its customers out; it fires again only after the utility has fallen below 8 %.',
  feed_stale: "A source's last successful fetch becomes older than max(20, 2 × interval_min + 5) minutes.",
  feed_recovered: 'A stale source is fetched successfully again.',
  crew_changed:
    "An open incident's crew status, as its feed gives it, becomes a new non-empty value (incident scope only; `previous_crew_status` has the one before).",
};

/** How incident-scope events follow the rules above (the OpenAPI document and docs/events-and-feeds.md print this). */
export const INCIDENT_EMISSION = `Incident scope (asked for with \`scope=incident\`): one outage as its utility's feed lists it, keyed by the source and the feed's incident id. An incident of at least ${INCIDENT_EVENT_MIN.toLocaleString('en-US')} customers out (the deployment's \`OUTAGE_INCIDENT_EVENT_MIN\`, 25 to 5,000) opens one; it grows, improves, has its estimate changed (with \`etr_slip_min\`, the minutes it moved) and its crew status changed (\`crew_changed\`) by the rules of every scope; it is restored when it leaves its feed on a successful poll, or falls below half the threshold for two polls, never while its feed is stale.`;

/** The stored event as published: `previous` is named `previous_customers_out`, with a title and a link added. */
export type PublicEvent = Omit<EventRow, 'previous'> & {
  previous_customers_out: number | null;
  /** every state the event concerns (a multi-state utility's event lists each state with customers out) */
  states: string[];
  /** the county's name (us-atlas, as in /api/v1/live/counties/{fips}) for county and municipality events */
  county_name: string | null;
  title: string;
  /** a page a person can open about what the event concerns (eventPage) */
  link: string;
};

/** Each kind in words, as titles, feeds and the events page say it. */
export const EVENT_LABELS: Record<EventKind, string> = {
  outage_began: 'Outage began',
  outage_grew: 'Outage grew',
  etr_changed: 'Restoration estimate changed',
  outage_improving: 'Outage improving',
  outage_restored: 'Power restored',
  major_event: 'Major event',
  feed_stale: 'Feed stale',
  feed_recovered: 'Feed recovered',
  crew_changed: 'Crew status changed',
};

/**
 * The site page about an event: its county's page; for a utility's outage its (first) state's page; for a feed
 * going stale or recovering, and where a territory has no state page, the sources page.
 */
export function eventPage(e: Pick<EventRow, 'fips' | 'kind'>, states: readonly string[]): string {
  if (e.fips) return sitePath('county', { fips: e.fips });
  const st = STATE_PAGES.find((s) => s.code === states[0]);
  return st && e.kind !== 'feed_stale' && e.kind !== 'feed_recovered'
    ? sitePath('state', { state: st.slug })
    : sitePath('sources');
}

/** Stored events keep a utility event's states in one column, most customers out first: `VA;NC`. */
export const eventStates = (state: string | null): string[] => (state ? state.split(';') : []);

export function toPublic(e: EventRow, countyName: (fips: string) => string | undefined): PublicEvent {
  const states = eventStates(e.state);
  const county = e.fips ? `${countyName(e.fips) ?? e.fips}, ` : '';
  const where =
    e.scope === 'county' && e.fips
      ? `${countyName(e.fips) ?? e.fips}, ${e.state}`
      : e.scope === 'municipality'
        ? `${e.area} (${county}${e.state}; ${e.utility})`
        : e.scope === 'incident'
          ? `${e.utility} outage ${e.incident_id} (${county}${e.state})`
          : `${e.utility}${states.length ? ` (${states.join(', ')})` : ''}`;
  const count =
    e.customers_out !== null && e.kind !== 'feed_stale' && e.kind !== 'feed_recovered'
      ? ` — ${e.customers_out.toLocaleString('en-US')} customers out`
      : '';
  const slip = e.etr_slip_min ? ` (${e.etr_slip_min > 0 ? '+' : ''}${e.etr_slip_min} min)` : '';
  const etr = e.kind === 'etr_changed' && e.etr ? ` — now ${sayTime(e.etr)}${slip}` : '';
  const crew = e.kind === 'crew_changed' && e.crew_status ? ` — crew ${e.crew_status}` : '';
  return {
    id: e.id,
    at: e.at,
    kind: e.kind,
    scope: e.scope,
    fips: e.fips,
    state: states[0] ?? null,
    states,
    utility: e.utility,
    area: e.area,
    source_id: e.source_id,
    outage_id: e.outage_id,
    customers_out: e.customers_out,
    pct_out: e.pct_out,
    threshold: e.threshold,
    previous_customers_out: e.previous,
    etr: e.etr,
    previous_etr: e.previous_etr,
    etr_slip_min: e.etr_slip_min ?? null,
    incident_id: e.incident_id ?? null,
    cause: e.cause ?? null,
    crew_status: e.crew_status ?? null,
    previous_crew_status: e.previous_crew_status ?? null,
    county_name: e.fips ? (countyName(e.fips) ?? null) : null,
    title: `${EVENT_LABELS[e.kind]}: ${where}${count}${etr}${crew}`,
    link: eventPage(e, states),
  };
}

/** An event as published, with the county names of the atlas. */
export const publicEvent = (e: EventRow): PublicEvent => toPublic(e, (fips) => loadAtlas().byFips.get(fips)?.name);

// ---- cursors: opaque to clients ----
/** Where a page starts: after `id` reading towards newer events (oldest first), or before it towards older ones. */
export interface Cursor {
  id: number;
  order: PageOrder;
}
export type PageOrder = 'oldest_first' | 'newest_first';

/** `ev1:<id>` (the form every earlier cursor has) reads newer events; `ev1:before:<id>` older ones. */
export function encodeCursor(id: number, order: PageOrder = 'oldest_first'): string {
  return Buffer.from(order === 'oldest_first' ? `ev1:${id}` : `ev1:before:${id}`).toString('base64url');
}

export function decodeCursor(raw: string): Cursor {
  const text = /^[A-Za-z0-9_-]{1,40}$/.test(raw) ? Buffer.from(raw, 'base64url').toString('utf8') : '';
  const m = /^ev1:(before:)?(\d{1,15})$/.exec(text);
  if (!m)
    throw new ApiError({
      status: 400,
      code: 'invalid_cursor',
      param: 'after',
      message: `\`after\` is not a cursor this API issued (\`${raw.slice(0, 60)}\`). Use the next_cursor, latest_cursor or first_cursor of a page.`,
    });
  return { id: Number(m[2]), order: m[1] ? 'newest_first' : 'oldest_first' };
}

// ---- filters: a declarative allowlist ----
export interface EventFilters {
  /** the scopes asked for; absent: DEFAULT_SCOPES (county, municipality, utility), as before incident events */
  scope?: Scope[];
  fips?: string;
  state?: string;
  utility?: string;
  kind?: EventKind[];
  min_customers?: number;
  since?: string;
}

export interface EventQuery {
  filters: EventFilters;
  /** null: the latest page (the newest events, newest first) */
  after: Cursor | null;
  limit: number;
}

export function parseEventQuery(
  q: URLSearchParams,
  opts: { defaultLimit: number; maxLimit: number; utilities: ReadonlySet<string> },
): EventQuery {
  const filters: EventFilters = {};
  const scope = q.get('scope');
  if (scope !== null) filters.scope = parseScopes(scope);
  const fips = q.get('fips');
  if (fips !== null) {
    if (!/^\d{5}$/.test(fips))
      throw badParam('fips', `Expected \`fips\` to be a 5-digit county FIPS code, got \`${fips}\`.`);
    filters.fips = fips;
  }
  const state = q.get('state');
  if (state !== null) {
    const st = findState(state);
    if (!st) throw badParam('state', `Expected \`state\` to be a USPS code such as FL, got \`${state}\`.`);
    filters.state = st.code;
  }
  const utility = q.get('utility');
  if (utility !== null) {
    if (!opts.utilities.has(utility)) {
      const near = [...opts.utilities].filter((u) => u.toLowerCase().includes(utility.toLowerCase())).slice(0, 5);
      throw new ApiError({
        status: 400,
        code: 'invalid_parameter',
        param: 'utility',
        allowed: near,
        message: `No utility is named \`${utility}\`.${near.length ? ` Did you mean ${near.map((n) => `\`${n}\``).join(', ')}?` : ' Names are listed in /api/v1/live/sources.'}`,
      });
    }
    filters.utility = utility;
  }
  const kind = q.get('kind');
  if (kind !== null) {
    const kinds = kind.split(',').map((k) => k.trim());
    const bad = kinds.filter((k) => !(EVENT_KINDS as readonly string[]).includes(k));
    if (bad.length || kinds.length === 0)
      throw new ApiError({
        status: 400,
        code: 'invalid_parameter',
        param: 'kind',
        allowed: [...EVENT_KINDS],
        message: `Unknown \`kind\` \`${bad.join(',') || kind}\`; use one or more (comma-separated) of ${EVENT_KINDS.join(', ')}.`,
      });
    filters.kind = kinds as EventKind[];
  }
  const min = q.get('min_customers');
  if (min !== null) {
    if (!/^\d{1,9}$/.test(min))
      throw badParam('min_customers', `Expected \`min_customers\` to be a whole number, got \`${min}\`.`);
    filters.min_customers = Number(min);
  }
  const since = q.get('since');
  if (since !== null) filters.since = parseInstant('since', since).toISOString();
  const limitRaw = q.get('limit');
  let limit = opts.defaultLimit;
  if (limitRaw !== null) {
    if (!/^\d{1,6}$/.test(limitRaw) || Number(limitRaw) < 1)
      throw badParam(
        'limit',
        `Expected \`limit\` to be a whole number from 1 to ${opts.maxLimit}, got \`${limitRaw}\`.`,
      );
    if (Number(limitRaw) > opts.maxLimit)
      throw new ApiError({
        status: 400,
        code: 'invalid_parameter',
        param: 'limit',
        message: `\`limit\` is at most ${opts.maxLimit}; got ${limitRaw}. Follow next_cursor for more.`,
      });
    limit = Number(limitRaw);
  }
  const after = q.get('after');
  return { filters, after: after === null ? null : decodeCursor(after), limit };
}

/** `scope=incident`, `scope=county,utility`: one or more of SCOPES. */
function parseScopes(raw: string): Scope[] {
  const list = raw.split(',').map((s) => s.trim());
  const bad = list.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (bad.length)
    throw new ApiError({
      status: 400,
      code: 'invalid_parameter',
      param: 'scope',
      allowed: [...SCOPES],
      message: `Unknown \`scope\` \`${bad.join(',').slice(0, 60)}\`; use one or more (comma-separated) of ${SCOPES.join(', ')}.`,
    });
  return list as Scope[];
}

/** Whether an event of `scope` is in the answer: the scopes asked for, else the default ones. */
export const inScopes = (scope: string, f: EventFilters): boolean =>
  (f.scope ?? DEFAULT_SCOPES).includes(scope as Scope);

export function matches(e: PublicEvent | EventRow, f: EventFilters): boolean {
  if (!inScopes(e.scope, f)) return false;
  if (f.fips && e.fips !== f.fips) return false;
  if (f.state && !('states' in e ? e.states : eventStates(e.state)).includes(f.state)) return false;
  if (f.utility && e.utility !== f.utility) return false;
  if (f.kind && !f.kind.includes(e.kind)) return false;
  if (f.min_customers !== undefined && (e.customers_out ?? 0) < f.min_customers) return false;
  if (f.since && e.at < f.since) return false;
  return true;
}

/** The filters as applied, echoed in every page. */
export function echoFilters(f: EventFilters): Record<string, unknown> {
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined));
}
