// The outage lifecycle and the events it emits, as pure functions of (previous state, observation).
// spec: States and transitions — Outage; Events — Kinds; Limits — Outage close. Thresholds and emission conditions
// are our choices, documented in the OpenAPI document and docs/events-and-feeds.md.
import { MAJOR_EVENT_PCT } from './rules.ts';

export type Scope = 'county' | 'municipality' | 'utility' | 'incident';
/** The scopes an events answer or feed without `scope` holds: today's content (incident events are asked for). */
export const DEFAULT_SCOPES: readonly Scope[] = ['county', 'municipality', 'utility'];
export const SCOPES: readonly Scope[] = [...DEFAULT_SCOPES, 'incident'];
export const EVENT_KINDS = [
  'outage_began',
  'outage_grew',
  'etr_changed',
  'outage_improving',
  'outage_restored',
  'major_event',
  'feed_stale',
  'feed_recovered',
  'crew_changed',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** One scope's reading in this cycle. */
export interface Observation {
  scope: Scope;
  /** county: FIPS; municipality: source id + area path; utility: utility name */
  key: string;
  fips: string | null;
  state: string | null;
  utility: string | null;
  area: string | null;
  source_id: string | null;
  customers_out: number;
  /** customers the scope has (denominator), when known */
  customers: number | null;
  pct_out: number | null;
  etr: string | null;
  /** a covering feed was fetched successfully this cycle */
  polled: boolean;
  /** a covering feed is stale */
  stale: boolean;
  /** an incident's own fields (incident scope) */
  incident?: IncidentFacts;
}

/** What an incident event carries besides the counts: the feed's id, cause and crew status. */
export interface IncidentFacts {
  id: string;
  cause: string | null;
  crew_status: string | null;
  /** the incident has left its feed, whose poll this cycle succeeded: it is restored at once */
  gone: boolean;
}

export interface OutageState {
  id: string;
  scope: Scope;
  key: string;
  fips: string | null;
  state: string | null;
  utility: string | null;
  area: string | null;
  opened_at: string;
  threshold: number;
  peak: number;
  last_value: number;
  /** consecutive successful polls below half the opening threshold */
  below_polls: number;
  grew_base: number;
  improving_base: number;
  etr: string | null;
  major: boolean;
  /** an incident's crew status at its last event (incident scope; null elsewhere) */
  crew_status: string | null;
}

export interface EventDraft {
  kind: EventKind;
  scope: Scope;
  fips: string | null;
  state: string | null;
  utility: string | null;
  area: string | null;
  source_id: string | null;
  outage_id: string | null;
  customers_out: number | null;
  pct_out: number | null;
  threshold: number | null;
  previous: number | null;
  etr: string | null;
  previous_etr: string | null;
  /** etr_changed: minutes the ETR moved (later positive), when both the previous and the new ETR are known */
  etr_slip_min?: number | null;
  /** incident events: the feed's incident id, its cause and crew status (and, crew_changed, the status before) */
  incident_id?: string | null;
  cause?: string | null;
  crew_status?: string | null;
  previous_crew_status?: string | null;
}

const envInt = (name: string, fallback: number, min: number, max: number): number => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v >= min && v <= max ? v : fallback;
};
/** Incidents at or above this many customers out have events (OUTAGE_INCIDENT_EVENT_MIN, 25 to 5,000; default 100). */
export const INCIDENT_EVENT_MIN = envInt('OUTAGE_INCIDENT_EVENT_MIN', 100, 25, 5_000);

/** Opening thresholds, in customers out. */
export function openingThreshold(scope: Scope, customers: number | null): number {
  switch (scope) {
    case 'county':
      return customers ? Math.min(500, Math.max(50, Math.ceil(customers * 0.01))) : 500;
    case 'municipality':
      return customers ? Math.min(100, Math.max(20, Math.ceil(customers * 0.05))) : 50;
    case 'utility':
      return customers ? Math.max(100, Math.ceil(customers * 0.01)) : 1000;
    case 'incident':
      return INCIDENT_EVENT_MIN;
  }
}

export const GROWTH_RATIO = 1.5;
export const IMPROVING_RATIO = 0.5;
export const ETR_CHANGE_MIN = 60;
/** major_event re-arms only after the utility falls below this share out */
export const MAJOR_REARM_PCT = 8;

const draft = (
  o: Observation,
  s: OutageState | null,
  kind: EventKind,
  extra: Partial<EventDraft> = {},
): EventDraft => ({
  kind,
  scope: o.scope,
  fips: o.fips,
  state: o.state,
  utility: o.utility,
  area: o.area,
  source_id: o.source_id,
  outage_id: s?.id ?? null,
  customers_out: o.customers_out,
  pct_out: o.pct_out,
  threshold: s?.threshold ?? null,
  previous: null,
  etr: o.etr,
  previous_etr: null,
  etr_slip_min: null,
  incident_id: o.incident?.id ?? null,
  cause: o.incident?.cause ?? null,
  crew_status: o.incident?.crew_status ?? null,
  previous_crew_status: null,
  ...extra,
});

const minutesApart = (a: string, b: string) => Math.abs(Date.parse(a) - Date.parse(b)) / 60_000;

/**
 * One cycle of one scope. Returns the outage's next state (null when there is no open outage) and the events.
 * Only successful polls move an outage; a stale covering feed holds it open.
 */
export function step(
  prev: OutageState | null,
  o: Observation,
  now: Date,
  newId: () => string,
): { next: OutageState | null; events: EventDraft[] } {
  if (!o.polled) return { next: prev, events: [] };
  const events: EventDraft[] = [];
  if (!prev) {
    const threshold = openingThreshold(o.scope, o.customers);
    if (o.customers_out < threshold) return { next: null, events };
    const s: OutageState = {
      id: newId(),
      scope: o.scope,
      key: o.key,
      fips: o.fips,
      state: o.state,
      utility: o.utility,
      area: o.area,
      opened_at: now.toISOString(),
      threshold,
      peak: o.customers_out,
      last_value: o.customers_out,
      below_polls: 0,
      grew_base: o.customers_out,
      improving_base: o.customers_out,
      etr: o.etr,
      major: false,
      crew_status: o.incident?.crew_status ?? null,
    };
    events.push(draft(o, s, 'outage_began'));
    majorCheck(s, o, events);
    return { next: s, events };
  }
  const s: OutageState = { ...prev, last_value: o.customers_out, peak: Math.max(prev.peak, o.customers_out) };
  // An incident that left its feed while the feed answers (this poll succeeded, it is not stale) is restored at once.
  if (o.incident?.gone && !o.stale) {
    events.push(draft(o, s, 'outage_restored', { previous: s.peak, customers_out: 0 }));
    return { next: null, events };
  }
  // Close: two consecutive successful polls below half the opening threshold, never while a covering feed is stale.
  if (o.customers_out < s.threshold / 2) {
    if (!o.stale) s.below_polls += 1;
    if (s.below_polls >= 2) {
      events.push(draft(o, s, 'outage_restored', { previous: s.peak }));
      return { next: null, events };
    }
  } else {
    s.below_polls = 0;
  }
  if (o.customers_out >= s.grew_base * GROWTH_RATIO && o.customers_out - s.grew_base >= s.threshold) {
    events.push(draft(o, s, 'outage_grew', { previous: s.grew_base }));
    s.grew_base = o.customers_out;
    s.improving_base = o.customers_out;
  } else {
    s.improving_base = Math.max(s.improving_base, o.customers_out);
    if (
      o.customers_out <= s.improving_base * IMPROVING_RATIO &&
      s.improving_base - o.customers_out >= s.threshold / 2 &&
      s.below_polls === 0
    ) {
      events.push(draft(o, s, 'outage_improving', { previous: s.improving_base }));
      s.improving_base = o.customers_out;
      s.grew_base = Math.min(s.grew_base, o.customers_out);
    }
  }
  if (o.etr && (!s.etr || minutesApart(o.etr, s.etr) >= ETR_CHANGE_MIN)) {
    const slip = s.etr ? Math.round((Date.parse(o.etr) - Date.parse(s.etr)) / 60_000) : null;
    events.push(draft(o, s, 'etr_changed', { previous_etr: s.etr, etr_slip_min: slip }));
    s.etr = o.etr;
  }
  crewCheck(s, o, events);
  majorCheck(s, o, events);
  return { next: s, events };
}

/** crew_changed: an open incident's crew status, as its feed gives it, is a new (non-empty) one. */
function crewCheck(s: OutageState, o: Observation, events: EventDraft[]): void {
  const crew = o.incident?.crew_status ?? null;
  if (crew === null || crew === s.crew_status) return;
  events.push(draft(o, s, 'crew_changed', { previous_crew_status: s.crew_status }));
  s.crew_status = crew;
}

function majorCheck(s: OutageState, o: Observation, events: EventDraft[]): void {
  if (o.scope !== 'utility' || o.pct_out === null) return;
  if (!s.major && o.pct_out >= MAJOR_EVENT_PCT) {
    events.push(draft(o, s, 'major_event'));
    s.major = true;
  } else if (s.major && o.pct_out < MAJOR_REARM_PCT) {
    s.major = false;
  }
}

/** Source freshness transitions (spec: States and transitions — Source freshness). */
export function freshnessEvent(
  prev: 'fresh' | 'stale' | null,
  now: 'fresh' | 'stale',
  o: Omit<Observation, 'polled' | 'stale'>,
): EventDraft | null {
  if (prev === 'fresh' && now === 'stale') return draft({ ...o, polled: false, stale: true }, null, 'feed_stale');
  if (prev === 'stale' && now === 'fresh') return draft({ ...o, polled: true, stale: false }, null, 'feed_recovered');
  return null;
}
