// The function layer's answers that need the publisher's modules: events and feeds, the timeline, county details,
// charts and report tables, and the answers for files not prebuilt. app.ts loads this module on first use, so the
// server answers the page (the prebuilt tree) before these modules are loaded (a later `outage start`).
import type { Context } from 'hono';
import {
  CACHE_CONTROL,
  CATALOGUE,
  CONTENT_TYPE,
  REPORT_TABLES,
  TIMELINE_DEFAULT_HOURS,
  TIMELINE_MAX_HOURS,
  type Format,
} from '../contract/catalogue.ts';
import { matchRoute } from '../contract/urls.ts';
import { badParam, notFound, unknownCounty } from '../contract/errors.ts';
import { countyReport, reportFallback } from './reports-fn.ts';
import { FRAMES_FILE } from '../publish/publish.ts';
import { timelineDoc, type FrameRow } from '../publish/documents.ts';
import type { PublishedTree } from '../publish/published-tree.ts';
import { PublishedEvents } from './event-store.ts';
import { pageEvents } from '../contract/event-pages.ts';
import {
  EVENTS_DEFAULT_LIMIT,
  EVENTS_MAX_LIMIT,
  FEED_DEFAULT_LIMIT,
  FEED_MAX_LIMIT,
  parseEventQuery,
} from '../contract/events.ts';
import { atomFeed, jsonFeed, newestAt, rssFeed } from '../publish/feeds.ts';
import { INDEX_FILE } from '../publish/events.ts';
import { countySeries, pastMap } from './archive-fn.ts';
import { countyChart, countyDetail, countyProfileFallback } from './county-detail-fn.ts';

/** One app's function layer: its published tree and the parsed event chunks it keeps. */
export class FunctionLayer {
  private readonly events: PublishedEvents;

  /** `baseUrl`: `--base-url`, the origin of every absolute link (never the request's Host: answers are cached). */
  constructor(
    private readonly tree: PublishedTree,
    private readonly baseUrl: string,
  ) {
    this.events = new PublishedEvents(tree);
  }

  /** A function route's answer. */
  answer(c: Context, id: string, url: URL) {
    return runFunction(c, id, publicUrl(url, this.baseUrl), this.tree, this.events, this.baseUrl);
  }

  /** No prebuilt file: a county without an outage gets the valid empty answer; an unknown one its 404. */
  missingFile(c: Context, requested: URL, format: Format) {
    const tree = this.tree;
    const url = publicUrl(requested, this.baseUrl);
    const m = matchRoute(url.pathname);
    if (!m) throw notFound(url.pathname);
    const { id } = m.endpoint;
    if (DETAIL_IDS.has(id)) return countyDetail(c, id as 'live.county.areas', m.params.fips, url, tree);
    if (id === 'county' || id === 'county.history') return countyProfileFallback(c, id, m.params.fips, format, tree);
    if (id.startsWith('county.chart.')) return countyChart(c, id, m.params.fips, tree);
    if (id.startsWith('reports.'))
      return reportFallback(c, id, m.params, url.searchParams.get('table') ?? m.endpoint.tables?.[0], tree);
    if (m.endpoint.key === 'fips') throw unknownCounty(m.params.fips);
    throw notFound(url.pathname);
  }
}

/** The request's path and query on the deployment's origin: what answers build their absolute links from. */
function publicUrl(url: URL, baseUrl: string): URL {
  return new URL(`${url.pathname}${url.search}`, baseUrl);
}

const DETAIL_IDS = new Set(['live.county.areas', 'live.county.incidents', 'live.county.alerts']);

function runFunction(c: Context, id: string, url: URL, tree: PublishedTree, events: PublishedEvents, baseUrl: string) {
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
      baseUrl,
      selfBase: `${baseUrl}${e.path.replace(/\.(rss|atom|json)$/, '')}`,
      query: canonical.toString(),
      updated: newestAt(page.events) ?? generatedAt,
      simulated: tree.current()?.simulated ?? false,
    };
    c.header('Content-Type', CONTENT_TYPE[e.formats[0]]);
    if (e.formats[0] === 'rss') return c.body(rssFeed(page.events, meta));
    if (e.formats[0] === 'atom') return c.body(atomFeed(page.events, meta));
    return c.body(JSON.stringify(jsonFeed(page.events, meta), null, 2));
  }
  switch (id) {
    case 'archive.map':
      return pastMap(c, url, tree);
    case 'archive.county':
      return countySeries(c, matchRoute(url.pathname)!.params.fips, url, tree);
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
