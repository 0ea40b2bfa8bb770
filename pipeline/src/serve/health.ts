// /healthz: liveness and readiness of a deployment, from the poll loop's heartbeat (state/heartbeat.ts) and the
// generation being served. 200 while the service is ready (status `ok`, or `degraded` when sources are stale or the
// last cycle had failures); 503 `unavailable` when nothing is published, the loop has not cycled within its limit,
// or the served generation lags the poller's. Limits come from the environment (documented in docs/endpoints.md).
import type { Manifest } from '../publish/tree-parts.ts';
import type { Heartbeat } from '../state/heartbeat.ts';

export interface HealthLimits {
  /** seconds since the last cycle finished before the loop counts as stopped */
  maxCycleAgeS: number;
  /** seconds the served generation may lag the one the poller last published */
  maxPublishLagS: number;
}

const envSeconds = (v: string | undefined, fallback: number) => (v && Number(v) > 0 ? Number(v) : fallback);
export const healthLimitsFromEnv = (env: NodeJS.ProcessEnv): HealthLimits => ({
  maxCycleAgeS: envSeconds(env.OUTAGE_HEALTH_MAX_CYCLE_AGE_S, 900),
  maxPublishLagS: envSeconds(env.OUTAGE_HEALTH_MAX_PUBLISH_LAG_S, 300),
});

export interface Health {
  status: 'ok' | 'degraded' | 'unavailable';
  ready: boolean;
  checked_at: string;
  problems: string[];
  last_cycle_at: string | null;
  last_cycle_age_s: number | null;
  last_cycle_ms: number | null;
  sources: number | null;
  stale_sources: string[];
  failed_last_cycle: number | null;
  generation: string | null;
  published_at: string | null;
  publish_lag_s: number | null;
}

/** `beat` is null when the server has no state directory (a static host's function) or the loop never ran there. */
export function healthOf(beat: Heartbeat | null, served: Manifest | null, now: Date, limits: HealthLimits): Health {
  const problems: string[] = [];
  const age = beat ? Math.max(0, Math.round((now.getTime() - Date.parse(beat.finished_at)) / 1000)) : null;
  // The served generation is behind when the poller published another one since (a stuck sync or mirror).
  const lag = beat && served && beat.generation && beat.generation !== served.generation ? (age ?? 0) : beat ? 0 : null;
  if (!served) problems.push('nothing is published yet');
  if (age !== null && age > limits.maxCycleAgeS)
    problems.push(`the poll loop last finished a cycle ${age} s ago (limit ${limits.maxCycleAgeS} s)`);
  if (lag !== null && lag > limits.maxPublishLagS)
    problems.push(`the served generation lags the poller's by ${lag} s (limit ${limits.maxPublishLagS} s)`);
  const ready = problems.length === 0;
  const stale = beat?.stale_sources ?? [];
  if (ready && stale.length) problems.push(`${stale.length} source(s) stale`);
  if (ready && beat?.failed) problems.push(`${beat.failed} source(s) failed in the last cycle`);
  return {
    status: !ready ? 'unavailable' : problems.length ? 'degraded' : 'ok',
    ready,
    checked_at: now.toISOString(),
    problems,
    last_cycle_at: beat?.cycle_at ?? null,
    last_cycle_age_s: age,
    last_cycle_ms: beat?.cycle_ms ?? null,
    sources: beat?.sources ?? null,
    stale_sources: stale,
    failed_last_cycle: beat?.failed ?? null,
    generation: served?.generation ?? null,
    published_at: served?.published_at ?? null,
    publish_lag_s: lag,
  };
}
