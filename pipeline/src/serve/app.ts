// The local server and function layer as one Hono app: serves the prebuilt tree exactly as the CDN config does
// (routing from the catalogue) and answers what a file cannot: filtered queries, errors, the 410.
import { Hono, type Context } from 'hono';
import {
  CACHE_CONTROL,
  CATALOGUE,
  CONTENT_TYPE,
  FUNCTION_ENDPOINTS,
  REPORT_TABLES,
  TIMELINE_DEFAULT_HOURS,
  TIMELINE_MAX_HOURS,
  type Format,
} from '../contract/catalogue.ts';
import { fileFor, matchFunction, matchRoute } from '../contract/urls.ts';
import {
  ApiError,
  badFips,
  badFormat,
  badParam,
  badTable,
  errorEnvelope,
  methodNotAllowed,
  notFound,
  unknownCounty,
} from '../contract/errors.ts';
import { checkReportPath, countyReport, reportFallback } from './reports-fn.ts';
import { ACCOUNT_IDS, accountRoute } from '../accounts/api.ts';
import type { AccountService } from '../accounts/service.ts';
import { dataNotice } from '../contract/notice.ts';
import { FRAMES_FILE } from '../publish/publish.ts';
import { timelineDoc, type FrameRow } from '../publish/documents.ts';
import { PublishedTree } from '../publish/published-tree.ts';
import { landingRoutes } from './landing.ts';
import { healthLimitsFromEnv, healthOf } from './health.ts';
import { readHeartbeat } from '../state/heartbeat.ts';
import { PublishedEvents } from './event-store.ts';
import { pageEvents } from '../contract/event-pages.ts';
import {
  EVENTS_DEFAULT_LIMIT,
  EVENTS_MAX_LIMIT,
  FEED_DEFAULT_LIMIT,
  FEED_MAX_LIMIT,
  parseEventQuery,
} from '../contract/events.ts';
import { atomFeed, jsonFeed, rssFeed } from '../publish/feeds.ts';
import { INDEX_FILE } from '../publish/events.ts';
import { countyChart, countyDetail, countyProfileFallback } from './county-detail-fn.ts';
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
  /** the poll loop's state directory: /healthz reads its heartbeat (without one, the served generation only) */
  stateDir?: string;
}

/** How a request resolves: a prebuilt file, or a function handler. Shared with the host-config agreement test. */
export type Resolution =
  | { kind: 'file'; file: string; format: Format }
  | { kind: 'function'; id: string }
  | { kind: 'error'; error: ApiError }
  | { kind: 'redirect'; location: string };

export function resolve(method: string, pathname: string, query: URLSearchParams): Resolution {
  const fns = matchFunction(pathname);
  if (fns.length) {
    const hit = fns.find((f) => f.fn.method === method);
    return hit
      ? { kind: 'function', id: hit.fn.id }
      : { kind: 'error', error: methodNotAllowed(method, [...fns.map((f) => f.fn.method), 'OPTIONS']) };
  }
  const m = matchRoute(pathname);
  if (!m) return { kind: 'error', error: notFound(pathname) };
  if (method !== 'GET' && method !== 'HEAD')
    return { kind: 'error', error: methodNotAllowed(method, ['GET', 'HEAD', 'OPTIONS']) };
  const e = m.endpoint;
  if (e.key === 'fips' && !/^\d{5}$/.test(m.params.fips)) return { kind: 'error', error: badFips(m.params.fips) };
  const report = checkReportPath(m.params);
  if (report === 'redirect') {
    const q = query.toString();
    return {
      kind: 'redirect',
      location: `${pathname.replace(`/${m.params.state}/`, `/${m.params.state.toLowerCase()}/`)}${q ? `?${q}` : ''}`,
    };
  }
  if (report) return { kind: 'error', error: report };
  const format = query.get('format');
  if (format !== null && !e.formats.includes(format as Format))
    return { kind: 'error', error: badFormat(format, e.formats) };
  const table = e.tables ? (query.get('table') ?? e.tables[0]) : undefined;
  if (e.tables && !e.tables.includes(table!)) return { kind: 'error', error: badTable(table!, e.tables) };
  if (e.servedBy === 'function' || e.functionParams?.some((p) => query.has(p.name)))
    return { kind: 'function', id: e.id };
  return {
    kind: 'file',
    file: fileFor(e, m.params, (format ?? e.formats[0]) as Format, table),
    format: (format ?? e.formats[0]) as Format,
  };
}

export function createApp(opts: AppOptions): Hono {
  const tree = new PublishedTree(opts.outDir);
  const events = new PublishedEvents(tree);
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
    const client = clientOf(c, limits.clientHeader);
    const wait = client === null ? 0 : buckets[cls].take(client);
    if (wait > 0) throw rateLimited(cls, wait, limits[cls]);
  };

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

  app.route(
    '/',
    landingRoutes(() => tree.current()?.simulated ?? false, notice),
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
      return accountRoute(c, r.id, matchFunction(url.pathname)[0].params, await opts.accounts);
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
    if (r.kind === 'function') return runFunction(c, r.id, url, tree, events);
    const file = tree.read(r.file);
    if (!file) {
      const m = matchRoute(url.pathname);
      // No prebuilt file: a county without an outage gets the valid empty answer from the function layer.
      if (m && DETAIL_IDS.has(m.endpoint.id))
        return countyDetail(c, m.endpoint.id as 'live.county.areas', m.params.fips, url, tree);
      if (m && (m.endpoint.id === 'county' || m.endpoint.id === 'county.history'))
        return countyProfileFallback(c, m.endpoint.id, m.params.fips, r.format, tree);
      if (m && m.endpoint.id.startsWith('county.chart.')) return countyChart(c, m.endpoint.id, m.params.fips, tree);
      if (m && m.endpoint.id.startsWith('reports.'))
        return reportFallback(
          c,
          m.endpoint.id,
          m.params,
          url.searchParams.get('table') ?? m.endpoint.tables?.[0],
          tree,
        );
      if (m?.endpoint.key === 'fips') throw unknownCounty(m.params.fips);
      throw notFound(url.pathname);
    }
    const e = matchRoute(url.pathname)!.endpoint;
    c.header('Content-Type', CONTENT_TYPE[r.format]);
    c.header('Cache-Control', CACHE_CONTROL[e.cache]);
    c.header('ETag', file.etag);
    if (file.generatedAt) c.header('Last-Modified', new Date(file.generatedAt).toUTCString());
    c.header('Vary', 'Accept-Encoding');
    if (c.req.header('If-None-Match') === file.etag) return c.body(null, 304);
    if (method === 'HEAD') return c.body(null, 200);
    return c.body(new Uint8Array(file.body), 200);
  });
  return app;
}

function sendError(c: Context, e: ApiError) {
  for (const [k, v] of Object.entries(e.headers)) c.header(k, v);
  c.header('Cache-Control', 'no-store');
  return c.json(errorEnvelope(e.body), e.body.status as 400);
}

const ANY_DEPRECATED = [...CATALOGUE, ...FUNCTION_ENDPOINTS].some((e) => e.deprecated);

/** The deprecation of the entry this request addresses (a function route's only for its own method). */
function deprecationOf(method: string, pathname: string): Deprecation | undefined {
  if (!ANY_DEPRECATED) return undefined;
  const fns = matchFunction(pathname);
  if (fns.length) return fns.find((f) => f.fn.method === method)?.fn.deprecated;
  return matchRoute(pathname)?.endpoint.deprecated;
}

const DETAIL_IDS = new Set(['live.county.areas', 'live.county.incidents', 'live.county.alerts']);

function runFunction(c: Context, id: string, url: URL, tree: PublishedTree, events: PublishedEvents) {
  const query = url.searchParams;
  if (DETAIL_IDS.has(id))
    return countyDetail(c, id as 'live.county.areas', matchRoute(url.pathname)!.params.fips, url, tree);
  if (id === 'events' || id.includes('feeds.')) {
    const isFeed = id !== 'events';
    const utilities = new Set(events.index().utilities);
    const q = parseEventQuery(query, {
      defaultLimit: isFeed ? FEED_DEFAULT_LIMIT : EVENTS_DEFAULT_LIMIT,
      maxLimit: isFeed ? FEED_MAX_LIMIT : EVENTS_MAX_LIMIT,
      utilities,
    });
    const page = pageEvents(events, q);
    const generatedAt = tree.current()?.files[INDEX_FILE]?.generated_at ?? new Date(0).toISOString();
    c.header('Cache-Control', CACHE_CONTROL.live);
    if (!isFeed) return c.json({ data: { generated_at: generatedAt, ...page } });
    const e = CATALOGUE.find((x) => x.id === id)!;
    const canonical = new URLSearchParams(
      [...query.entries()].filter(([k]) => k !== 'after').sort(([a], [b]) => a.localeCompare(b)),
    );
    const meta = {
      baseUrl: url.origin,
      selfBase: `${url.origin}${e.path.replace(/\.(rss|atom|json)$/, '')}`,
      query: canonical.toString(),
      updated: page.events.at(-1)?.at ?? generatedAt,
      simulated: tree.current()?.simulated ?? false,
    };
    c.header('Content-Type', CONTENT_TYPE[e.formats[0]]);
    if (e.formats[0] === 'rss') return c.body(rssFeed(page.events, meta));
    if (e.formats[0] === 'atom') return c.body(atomFeed(page.events, meta));
    return c.body(JSON.stringify(jsonFeed(page.events, meta), null, 2));
  }
  switch (id) {
    case 'reports.county':
      return countyReport(c, matchRoute(url.pathname)!.params, query.get('table') ?? REPORT_TABLES.county[0], tree);
    case 'alerts.subscribe':
      c.header('Cache-Control', 'no-store');
      return c.json(
        {
          data: {
            error: {
              status: 410,
              code: 'gone',
              message:
                'Email alert subscriptions have been retired. Create an account alert rule instead: it can deliver to email, chat channels and signed webhooks.',
              see: '/api/v1/openapi.json#/webhooks',
            },
          },
        },
        410,
      );
    case 'live.timeline': {
      const raw = query.get('hours') ?? String(TIMELINE_DEFAULT_HOURS);
      if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > TIMELINE_MAX_HOURS)
        throw badParam(
          'hours',
          `Expected \`hours\` to be a whole number from 1 to ${TIMELINE_MAX_HOURS}, got \`${raw}\`.`,
        );
      const data = tree.data<{ frames: FrameRow[] }>(FRAMES_FILE);
      if (!data) throw notFound(c.req.path);
      const last = data.frames.at(-1)?.at ?? data.generated_at;
      const since = new Date(Date.parse(last) - Number(raw) * 3_600_000 + 1).toISOString();
      c.header('Cache-Control', CACHE_CONTROL.live);
      return c.json({
        data: {
          generated_at: data.generated_at,
          ...timelineDoc(
            data.frames.filter((f) => f.at >= since),
            Number(raw),
          ),
        },
      });
    }
    default:
      throw notFound(c.req.path);
  }
}

export { CATALOGUE };
