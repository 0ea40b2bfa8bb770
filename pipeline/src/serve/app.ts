// The local server and function layer as one Hono app: serves the prebuilt tree exactly as the CDN config does
// (routing from the catalogue) and answers what a file cannot: filtered queries, errors, the 410.
import { Hono, type Context } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { CACHE_CONTROL, CATALOGUE, CONTENT_TYPE, FUNCTION_ENDPOINTS } from '../contract/catalogue.ts';
import { matchFunction, matchRoute } from '../contract/urls.ts';
import { ApiError, errorEnvelope } from '../contract/errors.ts';
import { withoutIgnored } from '../contract/query-params.ts';
import { resolve } from './resolve.ts';
import { ACCOUNT_IDS, accountRoute } from '../accounts/api.ts';
import type { AccountService } from '../accounts/service.ts';
import { dataNotice } from '../contract/notice.ts';
import { PublishedTree } from '../publish/published-tree.ts';
import { landingRoutes } from './landing.ts';
import { geometryCacheDir } from './topology-cache.ts';
import { healthLimitsFromEnv, healthOf } from './health.ts';
import { readHeartbeat } from '../state/heartbeat.ts';
import { inlineRunner, loadFunctions, type FunctionRunner } from './function-runner.ts';
import { conditionalAnswer, headLength } from './conditional.ts';
import { notFoundHtml, prefersHtml } from './html-errors.ts';
import { compression, matchedTag } from './compress.ts';
import { codedEtag, negotiate } from '../contract/encodings.ts';
import { cspDirectives, REFERRER_POLICY } from '../contract/security-headers.ts';
import { deprecationHeaders, EXPOSE_HEADERS, isV1Path, requestId, type Deprecation } from '../contract/v1-headers.ts';
import {
  clientOf,
  limitClass,
  rateLimited,
  rateLimitsFromEnv,
  TokenBuckets,
  type LimitClass,
  type RateLimitConfig,
} from './rate-limit.ts';

/** Loads the function layer's modules in this thread (inlineRunner's), before its first request. */
export const warmFunctions = async (): Promise<void> => void (await loadFunctions());

const ALLOW_HEADERS = 'Content-Type, Authorization, If-None-Match';

export interface AppOptions {
  outDir: string;
  clock?: () => Date;
  /**
   * the account service behind the account, key and rule endpoints (503 `accounts_unavailable` without it); a promise
   * while it opens (`start` serves the last generation before the account database is ready: those requests wait)
   */
  accounts?: AccountService | Promise<AccountService>;
  /** per-client limits of the function layer (default: the RATE_LIMIT_* environment, see rate-limit.ts) */
  rateLimits?: RateLimitConfig;
  /**
   * the poll loop's state directory: /healthz reads its heartbeat (without one, the served generation only), and the
   * built map geometry is kept in its cache/ between starts
   */
  stateDir?: string;
  /**
   * the deployment's public URL (`--base-url`): the only origin of the function layer's absolute links (feeds,
   * GeoJSON `metadata.url`), which are cached, so never the request's Host (default: the CLI's default base URL)
   */
  baseUrl?: string;
  /**
   * where function answers are computed: startServer passes its threads' (function-pool.ts, under the per-request
   * budget); without it, in this thread (in-process tests)
   */
  functions?: FunctionRunner;
}

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787';

export function createApp(opts: AppOptions): Hono {
  const tree = new PublishedTree(opts.outDir);
  const baseUrl = (opts.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const functions = opts.functions ?? inlineRunner(tree, baseUrl);
  const app = new Hono();
  const notice = () => dataNotice(tree.current()?.simulated ?? false);
  const limits = opts.rateLimits ?? rateLimitsFromEnv(process.env);
  const clock = opts.clock ?? (() => new Date());
  const healthLimits = healthLimitsFromEnv(process.env);
  const buckets = {
    query: new TokenBuckets(limits.query, () => clock().getTime()),
    account: new TokenBuckets(limits.account, () => clock().getTime()),
  };
  const spend = (c: Context, cls: LimitClass) => {
    const client = clientOf(c, limits);
    const wait = client === null ? 0 : buckets[cls].take(client);
    if (wait > 0) throw rateLimited(cls, wait, limits[cls]);
  };

  // The one security policy (contract/security-headers.ts); the embed pages' own, set inside, is kept.
  app.use('*', securityHeaderMiddleware(false));
  app.use('/embed/*', securityHeaderMiddleware(true));
  app.use('*', headLength);
  app.use('*', compression());
  app.use('*', async (c, next) => {
    await next();
    c.header('Access-Control-Allow-Origin', '*');
    c.header('Access-Control-Expose-Headers', EXPOSE_HEADERS);
    if (isV1Path(c.req.path)) {
      // spec: Versioning. The edge middleware forwards the id it put on the response; locally it is made here.
      c.header('X-Request-Id', requestId(c.req.header('X-Request-Id')));
      c.header('X-API-Version', '1');
      c.header('X-Data-Notice', notice());
      const deprecated = deprecationOf(c.req.method, c.req.path);
      if (deprecated) for (const [k, v] of Object.entries(deprecationHeaders(deprecated))) c.header(k, v);
    }
  });

  app.onError((err, c) => {
    const e =
      err instanceof ApiError
        ? err
        : new ApiError({ status: 500, code: 'internal', message: 'Internal error; it has been logged.' });
    if (!(err instanceof ApiError)) console.error(err);
    return sendError(c, e);
  });

  // The built map geometry is kept beside the poll loop's state, so a later start serves it at once.
  app.route(
    '/',
    landingRoutes(() => tree.current()?.simulated ?? false, notice, geometryCacheDir(opts.stateDir)),
  );

  app.all('*', async (c) => {
    const method = c.req.method;
    const url = new URL(c.req.url);
    if (method === 'OPTIONS') {
      const fns = matchFunction(url.pathname);
      const r = resolve(fns[0]?.fn.method ?? 'GET', url.pathname, new URLSearchParams());
      if (r.kind === 'error' && r.error.body.status === 404) throw r.error;
      c.header(
        'Access-Control-Allow-Methods',
        fns.length ? `${fns.map((f) => f.fn.method).join(', ')}, OPTIONS` : 'GET, HEAD, OPTIONS',
      );
      c.header('Access-Control-Allow-Headers', ALLOW_HEADERS);
      c.header('Access-Control-Max-Age', '86400');
      return c.body(null, 204);
    }
    const r = resolve(method, url.pathname, url.searchParams);
    if (r.kind === 'error') throw r.error;
    if (r.kind === 'redirect') return c.redirect(r.location, 308);
    const cls = r.kind === 'function' ? limitClass(r.id) : null;
    if (cls) spend(c, cls);
    if (r.kind === 'function' && ACCOUNT_IDS.has(r.id))
      return accountRoute(
        c,
        r.id,
        matchFunction(url.pathname)[0].params,
        await opts.accounts,
        clientOf(c, limits) ?? undefined,
      );
    if (r.kind === 'function' && r.id === 'healthz') {
      const health = healthOf(
        opts.stateDir ? readHeartbeat(opts.stateDir) : null,
        tree.current(),
        clock(),
        healthLimits,
      );
      c.header('Cache-Control', 'no-store');
      return c.json({ data: health }, health.ready ? 200 : 503);
    }
    // Function answers are validated as files are (an ETag, a charset, 304), built without the ignored names.
    const inm = c.req.header('If-None-Match');
    if (r.kind === 'function') return conditionalAnswer(inm, await functions.answer(c, r.id, withoutIgnored(url)));
    // A GET in brotli or gzip gets the file's precompressed sibling (HEAD: the identity headers, see compress.ts);
    // a file without one goes as it is and the compression middleware codes it.
    const coding = method === 'GET' ? negotiate(c.req.header('Accept-Encoding')).coding : 'identity';
    const file = tree.read(r.file, coding);
    if (!file) return conditionalAnswer(inm, await functions.missingFile(c, withoutIgnored(url), r.format));
    const e = matchRoute(url.pathname)!.endpoint;
    c.header('Content-Type', CONTENT_TYPE[r.format]);
    c.header('Cache-Control', CACHE_CONTROL[e.cache]);
    c.header('ETag', file.coding ? codedEtag(file.etag, file.coding) : file.etag);
    if (file.generatedAt) c.header('Last-Modified', new Date(file.generatedAt).toUTCString());
    c.header('Vary', 'Accept-Encoding');
    const held = matchedTag(c, file.etag, file.coding ?? 'identity');
    if (held) {
      c.header('ETag', held);
      return c.body(null, 304);
    }
    if (file.coding) c.header('Content-Encoding', file.coding);
    c.header('Content-Length', String(file.body.byteLength));
    return c.body(new Uint8Array(file.body), 200);
  });
  return app;
}

/**
 * hono's secureHeaders with the policy of contract/security-headers.ts and nothing else it would add (the same set
 * the Vercel and nginx configs send). The outer (site-wide) one does not overwrite the embed pages' policy.
 */
function securityHeaderMiddleware(embed: boolean) {
  return secureHeaders({
    contentSecurityPolicy: cspDirectives(embed),
    xContentTypeOptions: true,
    referrerPolicy: REFERRER_POLICY,
    crossOriginResourcePolicy: false,
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    strictTransportSecurity: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
    overwrite: embed,
  });
}

/**
 * The one error body, in JSON with its charset; a 404 a browser asked for is the site's 404 page (html-errors.ts).
 * A 404 varies on Accept, so a cache never gives a program the page or a person the JSON.
 */
async function sendError(c: Context, e: ApiError) {
  for (const [k, v] of Object.entries(e.headers)) c.header(k, v);
  c.header('Cache-Control', 'no-store');
  if (e.body.status === 404) c.header('Vary', 'Accept');
  const page = prefersHtml(c.req.header('Accept')) ? await notFoundHtml(e, new URL(c.req.url).pathname) : null;
  if (page) return c.html(page, 404);
  c.header('Content-Type', CONTENT_TYPE.json);
  return c.body(JSON.stringify(errorEnvelope(e.body)), e.body.status as 400);
}

const ANY_DEPRECATED = [...CATALOGUE, ...FUNCTION_ENDPOINTS].some((e) => e.deprecated);

/** The deprecation of the entry this request addresses (a function route's only for its own method). */
function deprecationOf(method: string, pathname: string): Deprecation | undefined {
  if (!ANY_DEPRECATED) return undefined;
  const fns = matchFunction(pathname);
  if (fns.length) return fns.find((f) => f.fn.method === method)?.fn.deprecated;
  return matchRoute(pathname)?.endpoint.deprecated;
}

export { CATALOGUE };
export { resolve, type Resolution } from './resolve.ts';
