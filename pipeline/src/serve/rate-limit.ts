// Per-client token buckets for the function layer, so one client cannot starve the rest. Prebuilt files are the
// CDN's and are never limited; only query-filtered answers and the account endpoints spend tokens.
import type { Context } from 'hono';
import { BlockList, isIP } from 'node:net';
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
  /** the proxies whose `clientHeader` is believed: addresses or CIDRs (RATE_LIMIT_TRUSTED_PROXIES; default none) */
  trustedProxies: string[];
}

/** Which bucket a function-layer answer spends from: filtered catalogue queries and the account routes (the 410 is free). */
export function limitClass(id: string): LimitClass | null {
  if (CATALOGUE.some((e) => e.id === id && e.functionParams?.length)) return 'query';
  if (FUNCTION_ENDPOINTS.some((f) => f.id === id && !f.kind)) return 'account';
  return null;
}

/**
 * The RATE_LIMIT_* counts and their documented defaults (docs/guardrails.md: Rate limits). Read by hand, not with zod: the server
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

/** The documented defaults, overridable by the RATE_LIMIT_* environment variables (docs/guardrails.md: Rate limits). */
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
    trustedProxies: proxyList(env.RATE_LIMIT_TRUSTED_PROXIES ?? ''),
  };
}

/** `127.0.0.1, 10.0.0.0/8, ::1`: addresses or CIDRs, checked here so a typo fails at start, not on every request. */
function proxyList(raw: string): string[] {
  const list = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const p of list) {
    const [addr, bits] = p.split('/');
    const max = isIP(addr) === 4 ? 32 : 128;
    if (!isIP(addr) || (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= max)))
      throw new Error(
        `Expected \`RATE_LIMIT_TRUSTED_PROXIES\` to list IP addresses or CIDRs (e.g. \`127.0.0.1, 10.0.0.0/8\`), got \`${p}\`.`,
      );
  }
  return list;
}

const trustLists = new WeakMap<string[], BlockList>();

/** The trusted proxies as a BlockList (built once per configuration). */
function trustList(proxies: string[]): BlockList {
  let list = trustLists.get(proxies);
  if (!list) {
    list = new BlockList();
    for (const p of proxies) {
      const [addr, bits] = p.split('/');
      const type = isIP(addr) === 4 ? 'ipv4' : 'ipv6';
      if (bits === undefined) list.addAddress(addr, type);
      else list.addSubnet(addr, Number(bits), type);
    }
    trustLists.set(proxies, list);
  }
  return list;
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

const trusted = (ip: string, list: BlockList) => {
  const family = isIP(ip);
  return family !== 0 && list.check(ip, family === 4 ? 'ipv4' : 'ipv6');
};

/**
 * Who is asking. A peer that is a configured proxy (`trustedProxies`) names the client in its header: the nearest
 * address in the chain that is not itself a trusted proxy. Any other peer is the client, whatever header it sends (a
 * private or loopback address is no proof of a proxy: any process beside us could send one). Without a socket (a
 * platform runtime such as Vercel's, whose edge sets the header) the header's first address is the client.
 * Null for a request from this machine or an in-process call: those are not limited (tests, benchmarks).
 */
export function clientOf(c: Context, cfg: Pick<RateLimitConfig, 'clientHeader' | 'trustedProxies'>): string | null {
  const socketPeer = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket
    ?.remoteAddress;
  const peer = socketPeer?.replace(/^::ffff:(?=\d+\.)/i, '');
  const chain = (cfg.clientHeader ? (c.req.header(cfg.clientHeader) ?? '') : '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => isIP(s));
  let client = peer ?? chain[0];
  if (peer && chain.length) {
    const list = trustList(cfg.trustedProxies);
    if (trusted(peer, list)) client = [...chain].reverse().find((ip) => !trusted(ip, list)) ?? chain[0];
  }
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
