// Retries of idempotent requests inside the source's deadline: a network error, one attempt's timeout, 5xx, 408 or 429
// is tried again after a jittered backoff (or the Retry-After asked), so one fault does not fail a chain of dozens. A
// host that never answered (no connection, no headers within the time-out) is not: it would wait the same way again.
// Not undici's RetryAgent: it would wait while holding the host's p-queue slot, knows nothing of the source deadline,
// and would turn a Retry-After longer than the deadline into a timeout instead of the 429 the scheduler backs off on.
import { setTimeout as sleep } from 'node:timers/promises';
import { SourceError, UnansweredError } from '../errors.ts';

export interface RetryPolicy {
  /** attempts in all, the first included */
  attempts: number;
  /** the backoff before retry n (0-based) is a random share of min(maxMs, baseMs · 2^n): "full jitter" */
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseMs: 200, maxMs: 5_000 };

/** What one request may do again: an idempotent request (GET, or a POST its connector marks so), within `deadlineAt`. */
export interface RetryScope {
  idempotent: boolean;
  /** when the source's deadline passes (ms since epoch): a wait that would end later is not started */
  deadlineAt: number;
  /** the source's deadline signal: a wait in progress ends with it */
  signal?: AbortSignal;
}

/** Seconds from a Retry-After header (delta seconds or an HTTP date), or null. */
export function retryAfterSeconds(value: string | string[] | undefined, nowMs: number): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return null;
  if (/^\d+$/.test(v.trim())) return Number(v.trim());
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : Math.max(0, Math.ceil((t - nowMs) / 1000));
}

/**
 * A failure worth another try: the upstream or the path to it faltered. Never a 4xx other than 408 and 429, and never
 * a host that did not answer at all (UnansweredError: connect or headers time-out).
 */
export function retryable(err: unknown): err is SourceError {
  if (!(err instanceof SourceError) || err instanceof UnansweredError) return false;
  if (err.reason === 'network' || err.reason === 'timeout') return true;
  const s = err.status ?? 0;
  return err.reason === 'http_status' && (s >= 500 || s === 408 || s === 429);
}

/** Milliseconds to wait before retry `n`: the upstream's Retry-After when it gave one, else the jittered backoff. */
export function backoffMs(n: number, err: SourceError, policy: RetryPolicy, random = Math.random): number {
  if (err.retryAfter != null) return err.retryAfter * 1000;
  return Math.round(random() * Math.min(policy.maxMs, policy.baseMs * 2 ** n));
}

/**
 * Runs `attempt` until it succeeds, fails for good, runs out of attempts, or the next wait would pass the deadline (or
 * is a Retry-After over `maxMs`); then throws the last failure as it was (a 429 keeps its status and Retry-After for
 * the scheduler).
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  scope: RetryScope,
  policy: RetryPolicy = DEFAULT_RETRY,
): Promise<T> {
  for (let n = 0; ; n += 1) {
    try {
      return await attempt();
    } catch (err) {
      if (!scope.idempotent || n + 1 >= policy.attempts || !retryable(err) || scope.signal?.aborted) throw err;
      const wait = backoffMs(n, err, policy);
      // A Retry-After longer than the policy's longest wait is left to the scheduler, which honours it between
      // polls: waiting it out here would hold the whole cycle's publish for it.
      if (wait > policy.maxMs || Date.now() + wait >= scope.deadlineAt) throw err;
      // An abort during the wait ends the poll with the failure that caused the wait, not a bare AbortError.
      await sleep(wait, undefined, { signal: scope.signal }).catch(() => {
        throw err;
      });
    }
  }
}
