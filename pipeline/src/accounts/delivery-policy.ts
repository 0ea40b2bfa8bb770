// The numbers delivery promises (deliver.ts's design; stated in the OpenAPI webhooks section, openapi.ts): how long a
// receiver has to answer, when a failed delivery is tried again, when it is given up, when its channel is disabled,
// and how long the log is kept.

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
