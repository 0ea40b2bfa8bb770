// The function layer's county detail endpoints: filtered variants of the prebuilt areas, incidents and alerts, and
// the valid empty answer for a county with nothing out (which has no prebuilt file).
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import { CACHE_CONTROL, CONTENT_TYPE, endpoint, type Format } from '../contract/catalogue.ts';
import { fileFor, urlFor } from '../contract/urls.ts';
import { unknownCounty } from '../contract/errors.ts';
import { dataNotice } from '../contract/notice.ts';
import {
  ALERT_DEFAULTS,
  AREA_COLUMNS,
  DETAIL_NOTICE,
  INCIDENT_COLUMNS,
  areasGeoJson,
  filterAreas,
  filterIncidents,
  incidentsGeoJson,
  parseDetailFilters,
  parsePage,
  toCsv,
  type AreaRecord,
  type IncidentRecord,
} from '../contract/county-detail.ts';
import type { PublishedTree } from '../publish/published-tree.ts';
import { countyAlerts, countyAreas } from '../contract/county-answers.ts';
import { MONTH_COLUMNS, YEAR_COLUMNS, historyDoc, profileDoc } from '../publish/county-profile.ts';
import { renderChart, type ChartSpec } from '../publish/charts.ts';
import { decadeSpec, liveSpec, monthlySpec } from '../publish/chart-specs.ts';
import { SERIES_FILE } from '../publish/publish.ts';
import { etagMatches } from './conditional.ts';
import type { CountyMonth, CountyYear } from '../history/derive.ts';

interface CountyDoc {
  name: string;
  state: string;
  customers_out: number;
  denominator: number | null;
  pct_out: number | null;
  sources: Array<{ source_id: string; utility: string; customers_out: number; customers_served: number | null }>;
}

export function countyDetail(
  c: Context,
  id: 'live.county.areas' | 'live.county.incidents' | 'live.county.alerts',
  fips: string,
  url: URL,
  tree: PublishedTree,
) {
  const county = tree.data<CountyDoc>(fileFor(endpoint('live.county'), { fips }, 'json'));
  if (!county) throw unknownCounty(fips);
  const sources = tree.data<{ sources: Array<{ id: string; utility: string; pct_out: number | null }> }>(
    fileFor(endpoint('live.sources'), {}, 'json'),
  );
  const utilities = new Set(sources?.sources.map((s) => s.utility) ?? []);
  const e = endpoint(id);
  const format = (url.searchParams.get('format') ?? e.formats[0]) as Format;
  const meta = { notice: `${dataNotice(tree.current()?.simulated ?? false)} ${DETAIL_NOTICE}` };
  c.header('Cache-Control', CACHE_CONTROL.live);
  if (id === 'live.county.alerts') {
    const f = parseDetailFilters(url.searchParams, ['min_customers', 'min_pct', 'utility'], utilities);
    const t = {
      min_customers: f.min_customers ?? ALERT_DEFAULTS.min_customers,
      min_pct: f.min_pct ?? ALERT_DEFAULTS.min_pct,
    };
    const data = countyAlerts((rel) => tree.data(rel), fips, t, f.utility)!;
    return c.json({ data, meta: { ...meta, filters: { ...t, ...(f.utility ? { utility: f.utility } : {}) } } });
  }
  const isAreas = id === 'live.county.areas';
  const f = parseDetailFilters(
    url.searchParams,
    isAreas ? ['utility', 'active', 'min_customers'] : ['utility', 'min_customers'],
    utilities,
  );
  const pre = tree.data<{ areas?: AreaRecord[]; incidents?: IncidentRecord[] }>(fileFor(e, { fips }, 'json'));
  const generatedAt = pre?.generated_at ?? county.generated_at;
  const all = isAreas
    ? filterAreas(countyAreas((rel) => tree.data(rel), fips) ?? [], f)
    : filterIncidents(pre?.incidents ?? [], f);
  const page = parsePage(url.searchParams);
  const list = all.slice(page.offset, page.offset + page.limit);
  const more = page.offset + page.limit < all.length;
  const next = more ? pageUrl(url, e, fips, page.offset + page.limit) : null;
  if (next) c.header('Link', `<${next}>; rel="next"`);
  const filters = Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined));
  const title = `${isAreas ? 'Areas out' : 'Incidents'} in ${county.name}, ${county.state}`;
  c.header('Content-Type', CONTENT_TYPE[format]);
  if (format === 'csv') return c.body(toCsv(list, isAreas ? AREA_COLUMNS : INCIDENT_COLUMNS));
  if (format === 'geojson') {
    const m = {
      generated: generatedAt,
      url: `${url.origin}${urlFor(e, { fips }, Object.fromEntries(url.searchParams))}`,
      title,
      notice: meta.notice,
    };
    return c.body(
      JSON.stringify(isAreas ? areasGeoJson(list as AreaRecord[], m) : incidentsGeoJson(list as IncidentRecord[], m)),
    );
  }
  const key = isAreas ? 'areas' : 'incidents';
  return c.json({
    data: { generated_at: generatedAt, fips, count: list.length, total: all.length, ...page, next, [key]: list },
    meta: { ...meta, filters },
  });
}

/** The next page's URL: the same query with `offset` moved on, through the one URL builder. */
function pageUrl(url: URL, e: ReturnType<typeof endpoint>, fips: string, offset: number): string {
  const query = { ...Object.fromEntries(url.searchParams), offset: String(offset) };
  return `${url.origin}${urlFor(e, { fips }, query)}`;
}

/** A county with nothing out and no imported history has no prebuilt profile/history: answer from its live doc. */
export function countyProfileFallback(
  c: Context,
  id: 'county' | 'county.history',
  fips: string,
  format: Format,
  tree: PublishedTree,
) {
  const live = tree.data<
    CountyDoc & { band: number; magnitude: number; level: number; stale: boolean; customers_modelled: number | null }
  >(fileFor(endpoint('live.county'), { fips }, 'json'));
  if (!live) throw unknownCounty(fips);
  const county = { fips, name: live.name, state: live.state };
  c.header('Cache-Control', CACHE_CONTROL[endpoint(id).cache]);
  if (format === 'csv') {
    c.header('Content-Type', CONTENT_TYPE.csv);
    return c.body(id === 'county' ? toCsv([], YEAR_COLUMNS) : toCsv([], MONTH_COLUMNS));
  }
  const data = id === 'county' ? profileDoc({ ...live, fips }, false, [], []) : historyDoc(county, undefined);
  return c.json({ data: { generated_at: live.generated_at, ...data } });
}

const chartCache = new Map<string, { png: Buffer; etag: string }>();

/** Charts without a prebuilt file: the live chart (drawn from the published 24-hour series) and empty ones. */
export async function countyChart(c: Context, id: string, fips: string, tree: PublishedTree) {
  const live = tree.data<CountyDoc>(fileFor(endpoint('live.county'), { fips }, 'json'));
  if (!live) throw unknownCounty(fips);
  const simulated = tree.current()?.simulated ?? false;
  const place = { name: live.name, state: live.state };
  let spec: ChartSpec;
  if (id === 'county.chart.live') {
    const series = tree.data<{ series: Record<string, Array<[string, number]>>; frames?: string[] }>(SERIES_FILE);
    const at = new Date(series?.generated_at ?? live.generated_at);
    spec = liveSpec(place, series?.series[fips] ?? [], at, simulated, series?.frames);
  } else if (id === 'county.chart.decade') {
    const profile = tree.data<{ years: CountyYear[]; years_loaded?: number[] }>(
      fileFor(endpoint('county'), { fips }, 'json'),
    );
    spec = decadeSpec(place, profile?.years ?? [], simulated, profile?.years_loaded);
  } else {
    const history = tree.data<{ months: CountyMonth[] }>(fileFor(endpoint('county.history'), { fips }, 'json'));
    const profile = tree.data<{ years_loaded?: number[] }>(fileFor(endpoint('county'), { fips }, 'json'));
    spec = monthlySpec(place, history?.months ?? [], simulated, profile?.years_loaded, new Date(live.generated_at));
  }
  return sendChart(c, id, spec, live.generated_at);
}

/**
 * Draws a chart on request, cached by what it shows (the most recent 200), with a strong ETag of its bytes: a client
 * that holds them gets a 304, as it does for a prebuilt file.
 */
export async function sendChart(c: Context, id: string, spec: ChartSpec, generatedAt: string) {
  const key = JSON.stringify([spec, generatedAt]);
  let chart = chartCache.get(key);
  if (!chart) {
    const png = await renderChart(spec, generatedAt);
    chart = { png, etag: `"${createHash('sha256').update(png).digest('base64url').slice(0, 27)}"` };
    if (chartCache.size > 200) chartCache.delete(chartCache.keys().next().value!);
    chartCache.set(key, chart);
  }
  c.header('Cache-Control', CACHE_CONTROL[endpoint(id).cache]);
  c.header('ETag', chart.etag);
  if (etagMatches(c.req.header('If-None-Match'), chart.etag)) return c.body(null, 304);
  c.header('Content-Type', CONTENT_TYPE.png);
  return c.body(new Uint8Array(chart.png));
}
