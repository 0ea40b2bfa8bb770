// The numbers delivery promises (deliver.ts's design; stated in the OpenAPI webhooks section, openapi.ts): how long a
// receiver has to answer, when a failed delivery is tried again, when it is given up, when its channel is disabled,
// how much is in flight at once (per target, per account), when a target is paused, and how long the log is kept.

/** Seconds to wait after attempt n (1-based) failed, ± 20 % jitter. */
export const RETRY_SCHEDULE_S = [30, 120, 600, 1800, 3600, 10_800, 21_600];
/** After this many attempts a delivery is given up (`failed`). */
export const MAX_ATTEMPTS = RETRY_SCHEDULE_S.length + 1;
/** A channel that has failed this many attempts in a row, for at least DISABLE_AFTER_HOURS, is disabled. */
export const DISABLE_AFTER_FAILURES = 15;
export const DISABLE_AFTER_HOURS = 24;
/** No answer within this long is a timeout. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** A due delivery is leased this long while it is sent: no other worker sends it meanwhile. */
export const LEASE_S = 60;
/** Redirects followed (307/308 only, each target checked again). */
export const MAX_REDIRECTS = 3;
/** Delivered and given-up deliveries (and their attempt logs) are kept this long. */
export const LOG_RETENTION_DAYS = 30;

/**
 * Incident-event deliveries one account gets from one cycle's events, across all its rules and targets (issue 41
 * part 2): a storm's thousands of incident events never become thousands of requests. Past it they are not queued;
 * the account gets an `incident_cap` notice, and the events stream (`scope=incident`) has every one.
 */
export const INCIDENT_DELIVERIES_PER_CYCLE = 100;

/** Deliveries in flight at once in one sending process. */
export const SENDERS = 32;
/**
 * At most this many in flight to one target (its URL or address: the key the per-minute limit counts), and at most
 * ACCOUNT_IN_FLIGHT (a quarter of the senders) for one account's targets together: one account's 20 never-answering
 * URLs hold 8 of the 32 senders for one time-out, never all of them (issue 37 part 3).
 */
export const TARGET_IN_FLIGHT = 2;
export const ACCOUNT_IN_FLIGHT = 8;
/**
 * A URL target's circuit breaker (delivery-breaker.ts): after this many failed attempts in a row (no answer in time,
 * no connection, or a non-2xx) it is paused — nothing is sent to it, its deliveries wait in the job table — for
 * BREAKER_PAUSE_S, doubled at each pause since its last success, at most BREAKER_MAX_PAUSE_S. When the pause ends one
 * delivery is tried: a success closes the breaker and the backlog flows; a failure pauses it again, for longer.
 */
export const BREAKER_FAILURES = 5;
export const BREAKER_PAUSE_S = 60;
export const BREAKER_MAX_PAUSE_S = 3600;

/** How long a target is paused at its `opening`-th pause (1-based) since its last success. */
export const breakerPauseS = (opening: number): number =>
  Math.min(BREAKER_MAX_PAUSE_S, BREAKER_PAUSE_S * 2 ** Math.max(0, opening - 1));
