// After a cycle's polls: each polled source's next status (its counts, failures, hardening and next_due_at), and the
// deep rows reconciled with ODIN's counts (reconcile.ts) — the statuses the cycle stores.
import { effectiveInterval, nextInterval } from '../sources/scheduler.ts';
import type { SourceDef } from '../sources/source-def.ts';
import type { HeldSnapshot } from '../sources/snapshot.ts';
import type { Db } from './db.ts';
import { reconcileWithOdin } from './reconcile.ts';
import { blankStatus, type SourceStatus } from './status.ts';
import type { PollOutcome } from './store.ts';

/** The sources covering a county an account watches (they poll hardened). */
export async function watchedSources(db: Db, counties: ReadonlySet<string>): Promise<Set<string>> {
  if (counties.size === 0) return new Set();
  const rows = await db.all<{ source_id: string; fips: string }>('SELECT DISTINCT source_id, fips FROM obs_county');
  return new Set(rows.filter((r) => counties.has(r.fips)).map((r) => r.source_id));
}

/** What a cycle's statuses advance with: the registry, the snapshots held, the watched sources, the cycle's time. */
export interface StatusContext {
  sources: SourceDef[];
  known: ReadonlyMap<string, HeldSnapshot>;
  watched: ReadonlySet<string>;
  now: Date;
}

/**
 * Sets each polled source's next status in `statuses` and reconciles the deep rows with the ODIN snapshot held;
 * returns the statuses that changed (the ones to store).
 */
export function advanceStatuses(
  outcomes: PollOutcome[],
  statuses: Map<string, SourceStatus>,
  { sources, known, watched, now }: StatusContext,
): SourceStatus[] {
  for (const o of outcomes)
    statuses.set(o.source.id, nextStatus(o, statuses.get(o.source.id), now, watched.has(o.source.id)));
  const odin = sources.find((s) => s.connector === 'odin');
  const reconciled = reconcileWithOdin(
    sources,
    statuses,
    odin ? (known.get(odin.id) ?? null) : null,
    new Set(outcomes.filter((o) => o.ok).map((o) => o.source.id)),
  );
  return [...new Set([...outcomes.map((o) => o.source.id), ...reconciled])].map((id) => statuses.get(id)!);
}

/** A source's status after a poll: a success takes the held snapshot's counts, a failure counts one more. */
export function nextStatus(o: PollOutcome, prev: SourceStatus | undefined, now: Date, watched: boolean): SourceStatus {
  const s: SourceStatus = { ...(prev ?? blankStatus(o.source.id)) };
  s.last_attempt_at = o.at;
  if (o.ok && o.held) {
    s.last_success_at = o.at;
    s.last_reason = null;
    s.last_error = null;
    s.consecutive_failures = 0;
    s.snapshot_hash = o.hash;
    s.basis = o.held.basis;
    s.unit = o.held.unit;
    s.notice = o.held.notice;
    s.customers_out = o.held.customers_out;
    s.customers_served = o.held.customers_served;
    s.unmatched = o.held.unmatched;
    s.unreadable = o.held.unreadable ?? 0;
    s.planned_out = o.held.planned_out ?? null;
  } else {
    s.last_reason = o.reason;
    s.last_error = o.message;
    s.consecutive_failures += 1;
  }
  const { interval, hardened } = effectiveInterval(o.source, s, watched);
  s.hardened = hardened;
  s.next_due_at = new Date(
    now.getTime() + nextInterval(interval, s, o.ok ? null : (o.refusal ?? null)) * 60_000,
  ).toISOString();
  return s;
}
