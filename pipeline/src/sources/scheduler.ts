// The scheduler's rules in one place: which sources are due, the interval each is polled at (hardened or not, backed
// off after 429/403), when it goes stale, and how long the poll loop sleeps. spec: Limits — polling, stale source.
import type { SourceDef } from './source-def.ts';
import type { SourceStatus } from '../state/status.ts';
import {
  hardenedInterval,
  isStale,
  pctOut,
  shouldHarden,
  staleAfterMinutes,
  TIMELINE_FRAME_MIN,
} from '../state/rules.ts';

const FRAME_MS = TIMELINE_FRAME_MIN * 60_000;

/** The utility's share out as its own feed (or the registry's customer count) sees it. */
export function utilityPct(source: SourceDef, s: SourceStatus | undefined): number | null {
  if (!s || s.customers_out === null) return null;
  return pctOut(s.customers_out, s.customers_served ?? source.customers);
}

/** Effective polling interval: hardened when the utility is ≥ 1 % out or covers a watched county. */
export function effectiveInterval(
  source: SourceDef,
  s: SourceStatus | undefined,
  watched: boolean,
): { interval: number; hardened: boolean } {
  const hardened = shouldHarden(utilityPct(source, s), watched);
  return {
    interval: hardened ? Math.min(source.interval_min, hardenedInterval(source.interval_min)) : source.interval_min,
    hardened,
  };
}

/** The interval the source is polled at now, as `/live/sources` publishes it (`interval_min`). */
export function publishedInterval(source: SourceDef, s: SourceStatus | undefined): number {
  return s?.hardened ? Math.min(source.interval_min, hardenedInterval(source.interval_min)) : source.interval_min;
}

/** Minutes after the last success at which the source is stale, on the interval it is actually polled at. */
export function staleAfterFor(source: SourceDef, s: SourceStatus | undefined): number {
  return staleAfterMinutes(publishedInterval(source, s));
}

/** The time the source becomes (or became) stale; null before its first success. */
export function staleAt(source: SourceDef, s: SourceStatus | undefined): string | null {
  if (!s?.last_success_at) return null;
  return new Date(Date.parse(s.last_success_at) + staleAfterFor(source, s) * 60_000).toISOString();
}

export type Freshness = 'fresh' | 'stale';

export function freshness(source: SourceDef, s: SourceStatus | undefined, now: Date): Freshness {
  return isStale(s?.last_success_at ? new Date(s.last_success_at) : null, publishedInterval(source, s), now)
    ? 'stale'
    : 'fresh';
}

export function isDue(s: SourceStatus | undefined, now: Date): boolean {
  return !s?.next_due_at || Date.parse(s.next_due_at) <= now.getTime();
}

/** Longest wait after refusals: a source that keeps answering 429/403 is asked at most hourly. */
export const MAX_BACKOFF_MIN = 60;

/**
 * Minutes until the next poll: the effective interval, doubled for each consecutive 429/403 refusal (capped), and never
 * sooner than the upstream's Retry-After. Never more often than the row's cadence.
 */
export function nextInterval(
  interval: number,
  s: Pick<SourceStatus, 'consecutive_failures' | 'last_reason'>,
  refusal: { status?: number; retryAfter?: number | null } | null,
): number {
  let minutes = interval;
  if (refusal && (refusal.status === 429 || refusal.status === 403)) {
    minutes = Math.min(MAX_BACKOFF_MIN, Math.max(interval, interval * 2 ** Math.min(6, s.consecutive_failures)));
  }
  if (refusal?.retryAfter) minutes = Math.max(minutes, Math.min(24 * 60, refusal.retryAfter / 60));
  return minutes;
}

/**
 * Work for a cycle with no source due: a source's stale time passed since the last evaluation (feed_stale must fire,
 * outages must hold) or a new quarter hour began (a timeline frame and an archive quarter). Null when the cycle can skip all database and publish work.
 */
export function wakeReason(
  sources: SourceDef[],
  statuses: Map<string, SourceStatus>,
  evaluatedAt: Date | null,
  now: Date,
): string | null {
  if (!evaluatedAt) return 'first cycle';
  // A timeline frame and an archive quarter are the same quarter hour, each named by its start (state/archive.ts).
  if (Math.floor(evaluatedAt.getTime() / FRAME_MS) !== Math.floor(now.getTime() / FRAME_MS)) return 'new quarter';
  for (const s of sources) {
    const at = staleAt(s, statuses.get(s.id));
    if (at && Date.parse(at) > evaluatedAt.getTime() && Date.parse(at) < now.getTime()) return `${s.id} stale`;
  }
  return null;
}

/** When the next cycle has work: the earliest next_due_at, stale time still ahead, or timeline frame. */
export function nextWake(sources: SourceDef[], statuses: Map<string, SourceStatus>, now: Date): Date {
  let next = Math.ceil((now.getTime() + 1) / FRAME_MS) * FRAME_MS;
  for (const s of sources) {
    const st = statuses.get(s.id);
    next = Math.min(next, st?.next_due_at ? Date.parse(st.next_due_at) : now.getTime());
    const at = staleAt(s, st);
    if (at && Date.parse(at) >= now.getTime()) next = Math.min(next, Date.parse(at) + 1);
  }
  return new Date(next);
}

/** How long the poll loop sleeps (wall-clock ms): until the next due source at the clock's speed, 1 s to 60 s. */
export function loopWaitMs(next: Date, now: Date, speed: number): number {
  return Math.min(60_000, Math.max(1_000, (next.getTime() - now.getTime()) / speed));
}
