// Alert rules: what a rule is (validated input), and which events it matches. spec: Events — Delivery channels.
//  - scope: a county (5-digit FIPS: its county and municipality events), a state (USPS code: every event there), a
//    utility (exact name as in /api/v1/live/sources: its utility and municipality events) or a municipality (area
//    name as the utility reports it, in a county);
//  - kinds: event kinds (default: the outage kinds, without feed_stale/feed_recovered);
//  - min_customers / min_pct: an event matches when its customers out (for outage_improving and outage_restored: the
//    larger of now and before, so the end of an outage reaches whoever got its start) is ≥ min_customers and, when
//    min_pct is set, pct_out ≥ min_pct; feed events carry no count and are not thresholded;
//  - quiet hours: matching events are held, not dropped, and delivered when the quiet window ends;
//  - watch: the rule's counties are polled hardened (county, municipality and county_incidents scopes, 25 counties an
//    account);
//  - incident watches (issue 41 part 2) receive only incident-scope events, and only they do: county_incidents (the
//    incidents of a county), utility_incidents (of one source, by its id in /api/v1/live/sources) — both above a size
//    of at least the incident threshold — or incident (one incident by source and feed id; it ends with the incident's
//    outage_restored and matches again only if the feed lists the id again). Checked in rule-checks.ts.
import { z } from 'zod';
import { EVENT_KINDS } from '../state/lifecycle.ts';
import type { PublicEvent } from '../contract/events.ts';

export const OUTAGE_KINDS = EVENT_KINDS.filter((k) => k !== 'feed_stale' && k !== 'feed_recovered');
export const MAX_WATCHED_PER_ACCOUNT = 25;
export const SYNC_MIN_INTERVAL = 15;
export const CHANNEL_KINDS = ['webhook', 'slack', 'discord', 'teams', 'email'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time HH:MM');
const timezone = z.string().refine((tz) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}, 'an IANA time zone such as America/Chicago');

/** A source id, as the registry spells them (registry.ts) and /api/v1/live/sources lists them. */
const sourceId = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'a source id as in /api/v1/live/sources');

export const channelInput = z.discriminatedUnion('type', [
  z.object({ type: z.literal('webhook'), url: z.string().max(2048) }).strict(),
  z.object({ type: z.literal('slack'), url: z.string().max(2048) }).strict(),
  z.object({ type: z.literal('discord'), url: z.string().max(2048) }).strict(),
  z.object({ type: z.literal('teams'), url: z.string().max(2048) }).strict(),
  z.object({ type: z.literal('email'), to: z.string().email().max(254) }).strict(),
]);
export type ChannelInput = z.infer<typeof channelInput>;

export const ruleInput = z
  .object({
    name: z.string().min(1).max(120),
    scope: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('county'), fips: z.string().regex(/^\d{5}$/, 'a 5-digit county FIPS code') }).strict(),
      z
        .object({
          kind: z.literal('state'),
          state: z
            .string()
            .regex(/^[A-Za-z]{2}$/, 'a USPS state code')
            .transform((s) => s.toUpperCase()),
        })
        .strict(),
      z.object({ kind: z.literal('utility'), utility: z.string().min(1).max(200) }).strict(),
      z
        .object({
          kind: z.literal('municipality'),
          fips: z.string().regex(/^\d{5}$/, 'a 5-digit county FIPS code'),
          name: z.string().min(1).max(200),
        })
        .strict(),
      z
        .object({
          kind: z.literal('county_incidents'),
          fips: z.string().regex(/^\d{5}$/, 'a 5-digit county FIPS code'),
        })
        .strict(),
      z.object({ kind: z.literal('utility_incidents'), source: sourceId }).strict(),
      z.object({ kind: z.literal('incident'), source: sourceId, id: z.string().min(1).max(200) }).strict(),
    ]),
    kinds: z
      .array(z.enum(EVENT_KINDS as unknown as [string, ...string[]]))
      .min(1)
      .max(EVENT_KINDS.length)
      .default([...OUTAGE_KINDS]),
    min_customers: z.number().int().min(0).max(100_000_000).default(0),
    min_pct: z.number().min(0).max(100).nullable().default(null),
    quiet_hours: z.object({ start: hhmm, end: hhmm, timezone }).strict().nullable().default(null),
    watch: z.boolean().default(false),
    sync_interval_min: z.number().int().min(SYNC_MIN_INTERVAL).max(1440).nullable().default(null),
    channels: z.array(channelInput).min(1).max(10),
  })
  .strict();
export type RuleInput = z.infer<typeof ruleInput>;
/** PATCH: any subset; channels, when given, replace the rule's channels (secrets of kept webhook URLs are kept). */
export const rulePatch = ruleInput.partial().strict();

export interface Rule {
  id: string;
  account_id: string;
  name: string;
  scope_kind: RuleInput['scope']['kind'];
  scope_value: string;
  /** the county of a municipality scope; the source of an incident scope */
  scope_state: string | null;
  kinds: string[];
  min_customers: number;
  min_pct: number | null;
  quiet_start: string | null;
  quiet_end: string | null;
  quiet_tz: string | null;
  watched: string[];
}

export function scopeColumns(scope: RuleInput['scope']): Pick<Rule, 'scope_kind' | 'scope_value' | 'scope_state'> {
  switch (scope.kind) {
    case 'county':
      return { scope_kind: 'county', scope_value: scope.fips, scope_state: null };
    case 'state':
      return { scope_kind: 'state', scope_value: scope.state, scope_state: null };
    case 'utility':
      return { scope_kind: 'utility', scope_value: scope.utility, scope_state: null };
    case 'municipality':
      return { scope_kind: 'municipality', scope_value: scope.name, scope_state: scope.fips };
    case 'county_incidents':
      return { scope_kind: 'county_incidents', scope_value: scope.fips, scope_state: null };
    case 'utility_incidents':
      return { scope_kind: 'utility_incidents', scope_value: scope.source, scope_state: null };
    case 'incident':
      return { scope_kind: 'incident', scope_value: scope.id, scope_state: scope.source };
  }
}

export function scopeOf(r: Pick<Rule, 'scope_kind' | 'scope_value' | 'scope_state'>): RuleInput['scope'] {
  switch (r.scope_kind) {
    case 'county':
      return { kind: 'county', fips: r.scope_value };
    case 'state':
      return { kind: 'state', state: r.scope_value };
    case 'utility':
      return { kind: 'utility', utility: r.scope_value };
    case 'municipality':
      return { kind: 'municipality', fips: r.scope_state!, name: r.scope_value };
    case 'county_incidents':
      return { kind: 'county_incidents', fips: r.scope_value };
    case 'utility_incidents':
      return { kind: 'utility_incidents', source: r.scope_value };
    case 'incident':
      return { kind: 'incident', source: r.scope_state!, id: r.scope_value };
  }
}

const same = (a: string | null, b: string) => a !== null && a.toLowerCase() === b.toLowerCase();

export function inScope(r: Pick<Rule, 'scope_kind' | 'scope_value' | 'scope_state'>, e: PublicEvent): boolean {
  switch (r.scope_kind) {
    case 'county':
      return e.fips === r.scope_value;
    case 'state':
      return e.states.includes(r.scope_value);
    case 'utility':
      return e.utility !== null && e.utility === r.scope_value;
    case 'municipality':
      return e.scope === 'municipality' && e.fips === r.scope_state && same(e.area, r.scope_value);
    case 'county_incidents':
      return e.fips === r.scope_value;
    case 'utility_incidents':
      return e.source_id === r.scope_value;
    case 'incident':
      return e.source_id === r.scope_state && e.incident_id === r.scope_value;
  }
}

/** The scopes that watch single incidents (and receive nothing else). */
export const INCIDENT_SCOPES: ReadonlySet<string> = new Set(['county_incidents', 'utility_incidents', 'incident']);

export function matches(r: Rule, e: PublicEvent): boolean {
  // Incident events are asked for (the stream's `scope=incident`): only an incident watch receives them.
  if ((e.scope === 'incident') !== INCIDENT_SCOPES.has(r.scope_kind)) return false;
  if (!r.kinds.includes(e.kind) || !inScope(r, e)) return false;
  if (e.kind === 'feed_stale' || e.kind === 'feed_recovered') return true;
  const ending = e.kind === 'outage_improving' || e.kind === 'outage_restored';
  const count = Math.max(e.customers_out ?? 0, ending ? (e.previous_customers_out ?? 0) : 0);
  if (count < r.min_customers) return false;
  return r.min_pct === null || (e.pct_out !== null && e.pct_out >= r.min_pct);
}

/** When a delivery of an event at `at` may go out: `at`, or the end of the rule's quiet window. */
export function releaseAt(r: Pick<Rule, 'quiet_start' | 'quiet_end' | 'quiet_tz'>, at: Date): Date {
  if (!r.quiet_start || !r.quiet_end || !r.quiet_tz) return at;
  const minutesOf = (s: string) => Number(s.slice(0, 2)) * 60 + Number(s.slice(3));
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: r.quiet_tz, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  const now = Number(parts.hour) * 60 + Number(parts.minute);
  const [start, end] = [minutesOf(r.quiet_start), minutesOf(r.quiet_end)];
  const inside = start <= end ? now >= start && now < end : now >= start || now < end;
  if (!inside) return at;
  const wait = (end - now + 1440) % 1440;
  return new Date(Math.floor(at.getTime() / 60_000) * 60_000 + wait * 60_000);
}
