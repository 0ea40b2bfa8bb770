// Per-client token buckets for the function layer, so one client cannot starve the rest. Prebuilt files are the
// CDN's and are never limited; only query-filtered answers and the account endpoints spend tokens.
import type { Context } from 'hono';
import { isIP } from 'node:net';
import { ApiError } from '../contract/errors.ts';
import { CATALOGUE, FUNCTION_ENDPOINTS } from '../contract/catalogue.ts';

export type LimitClass = 'query' | 'account';

export interface BucketConfig {
  /** tokens added per minute (the sustained rate); 0 turns the limit off */
  perMinute: number;
  /** bucket size: requests a quiet client may send at once */
  burst: number;
}

export interface RateLimitConfig {
  query: BucketConfig;
  account: BucketConfig;
  /** request header naming the client when the request came through a proxy (Vercel sets X-Forwarded-For) */
  clientHeader: string;
}

/** Which bucket a function-layer answer spends from: filtered catalogue queries and the account routes (the 410 is free). */
export function limitClass(id: string): LimitClass | null {
  if (CATALOGUE.some((e) => e.id === id && e.functionParams?.length)) return 'query';
  if (FUNCTION_ENDPOINTS.some((f) => f.id === id && !f.kind)) return 'account';
  return null;
}

/**
 * The RATE_LIMIT_* counts and their documented defaults (README: Rate limits). Read by hand, not with zod: the server
 * thread of `outage start` then loads without zod's ~95 modules, before its first page.
 */
const COUNTS = {
  RATE_LIMIT_QUERY_PER_MIN: 120,
  RATE_LIMIT_QUERY_BURST: 60,
  RATE_LIMIT_ACCOUNT_PER_MIN: 30,
  RATE_LIMIT_ACCOUNT_BURST: 10,
};

function count(env: Record<string, string | undefined>, name: keyof typeof COUNTS): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return COUNTS[name];
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`Expected \`${name}\` to be a whole number ≥ 0, got \`${raw}\`; fix or unset it.`);
  return n;
}

/** The documented defaults, overridable by the RATE_LIMIT_* environment variables (README: Rate limits). */
export function rateLimitsFromEnv(env: Record<string, string | undefined>): RateLimitConfig {
  return {
    query: {
      perMinute: count(env, 'RATE_LIMIT_QUERY_PER_MIN'),
      burst: Math.max(1, count(env, 'RATE_LIMIT_QUERY_BURST')),
    },
    account: {
      perMinute: count(env, 'RATE_LIMIT_ACCOUNT_PER_MIN'),
      burst: Math.max(1, count(env, 'RATE_LIMIT_ACCOUNT_BURST')),
    },
    clientHeader: (env.RATE_LIMIT_CLIENT_HEADER || 'x-forwarded-for').toLowerCase(),
  };
}

/** One bucket per client: `burst` tokens, refilled continuously at `perMinute`. */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly cfg: BucketConfig,
    private readonly now: () => number,
  ) {}

  /** Spends a token; returns 0 when allowed, else the whole seconds until one is available (for Retry-After). */
  take(client: string): number {
    if (this.cfg.perMinute === 0) return 0;
    const now = this.now();
    const perMs = this.cfg.perMinute / 60_000;
    const b = this.buckets.get(client) ?? { tokens: this.cfg.burst, at: now };
    b.tokens = Math.min(this.cfg.burst, b.tokens + (now - b.at) * perMs);
    b.at = now;
    this.buckets.set(client, b);
    if (this.buckets.size > 50_000) this.forgetFull(now, perMs);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / perMs / 1000));
  }

  /** Drops clients whose bucket has refilled: they are indistinguishable from new ones (bounds memory). */
  private forgetFull(now: number, perMs: number): void {
    for (const [k, b] of this.buckets) if (b.tokens + (now - b.at) * perMs >= this.cfg.burst) this.buckets.delete(k);
  }
}

const PRIVATE = /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|::1$|f[cd][0-9a-f]{2}:|fe80:|::ffff:127\.)/i;

/**
 * Who is asking. Behind a proxy (no socket, as on Vercel, or a socket from a private or loopback address) the proxy's
 * header names the client; a peer on a public address is the client itself, whatever header it sends.
 * Null for a request from this machine or an in-process call: those are not limited (tests, benchmarks).
 */
export function clientOf(c: Context, header: string): string | null {
  const peer = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket
    ?.remoteAddress;
  const forwarded = header ? c.req.header(header)?.split(',')[0]?.trim() : undefined;
  const client = (!peer || PRIVATE.test(peer)) && forwarded && isIP(forwarded) ? forwarded : peer;
  if (!client || /^(127\.|::1$|::ffff:127\.)/.test(client)) return null;
  return client;
}

export const rateLimited = (cls: LimitClass, retryAfterS: number, cfg: BucketConfig): ApiError =>
  new ApiError(
    {
      status: 429,
      code: 'rate_limited',
      message: `Too many ${cls === 'query' ? 'filtered queries' : 'account requests'} from this client (limit ${cfg.perMinute} a minute, bursts of ${cfg.burst}). Retry after ${retryAfterS} s, or use the prebuilt unfiltered files, which are not limited.`,
    },
    { 'Retry-After': String(retryAfterS) },
  );
