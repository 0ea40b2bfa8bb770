// Every live rule in one place, each citing the spec section it implements. Pure functions; tested at each boundary.

/** spec: Resources — Percentage denominator. The larger of the feeds' published count and the modelled count. */
export function denominator(feedServed: number | null, modelled: number | null): number | null {
  const candidates = [feedServed, modelled].filter((v): v is number => typeof v === 'number' && v > 0);
  return candidates.length ? Math.max(...candidates) : null;
}

/**
 * spec: Live map entry — pct_out. Percent (0–100, two decimals) of customers out; null when there is no denominator
 * or it is smaller than the outage. Never clamped.
 */
export function pctOut(customersOut: number, denom: number | null): number | null {
  if (denom === null || denom <= 0 || denom < customersOut) return null;
  return Math.round((customersOut / denom) * 10_000) / 100;
}

/** spec: Limits — share ramp for `band`. */
export const BAND_THRESHOLDS_PCT = [1, 3, 10, 25, 50] as const;

/**
 * `band` 0–5 from the share out; −1 where no denominator can be trusted. A denominator is trusted when it exists
 * (feed-published or modelled, > 0) and is at least the outage, i.e. exactly when `pct_out` is not null.
 */
export function band(pct: number | null): number {
  if (pct === null) return -1;
  let b = 0;
  for (const t of BAND_THRESHOLDS_PCT) if (pct >= t) b += 1;
  return b;
}

/** Headcount ramp for `magnitude` (our choice; documented in the OpenAPI document and docs/polling-and-rules.md). */
export const MAGNITUDE_THRESHOLDS = [100, 1_000, 10_000, 50_000, 250_000] as const;

export function magnitude(customersOut: number): number {
  let m = 0;
  for (const t of MAGNITUDE_THRESHOLDS) if (customersOut >= t) m += 1;
  return m;
}

/**
 * Legacy `level` (spec: superseded by band, formula unchanged):
 *   level = 0.5 × magnitude + 0.3 × min(pct_out, 100) / 20 + 0.2 × neighbour_mean_magnitude, rounded to 2 decimals,
 * where neighbour_mean_magnitude is the mean `magnitude` of the county's adjacent counties (0 when it has none) and a
 * null pct_out contributes 0. Range 0–5.
 */
export function level(mag: number, pct: number | null, neighbourMeanMagnitude: number): number {
  const pctPart = pct === null ? 0 : Math.min(pct, 100) / 20;
  return Math.round((0.5 * mag + 0.3 * pctPart + 0.2 * neighbourMeanMagnitude) * 100) / 100;
}

/** spec: Limits — stale source: older than 2 × interval_min + 5 minutes, with a minimum of 20 minutes. */
export function staleAfterMinutes(intervalMin: number): number {
  return Math.max(20, 2 * intervalMin + 5);
}

export function isStale(lastSuccessAt: Date | null, intervalMin: number, now: Date): boolean {
  if (!lastSuccessAt) return true;
  return now.getTime() - lastSuccessAt.getTime() > staleAfterMinutes(intervalMin) * 60_000;
}

/** spec: Limits — polling hardened when the utility has 1 % or more of its customers out (or watched counties). */
export const HARDEN_AT_PCT = 1;

/** Hardened interval: a third of the registry interval, at least 2 minutes. */
export function hardenedInterval(intervalMin: number): number {
  return Math.max(2, Math.ceil(intervalMin / 3));
}

export function shouldHarden(utilityPct: number | null, watched: boolean): boolean {
  return watched || (utilityPct !== null && utilityPct >= HARDEN_AT_PCT);
}

/** spec: Alert evaluation — a utility at or above 10 % of its customers out is on the major-event line. */
export const MAJOR_EVENT_PCT = 10;

/** spec: Live timeline — one state-level frame per 15-minute bucket. */
export const TIMELINE_FRAME_MIN = 15;
