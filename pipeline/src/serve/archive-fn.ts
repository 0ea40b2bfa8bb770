// The past, queried (issue 25 part 4): the map at a past quarter hour and one county's 15-minute series over a range,
// answered by the function layer from the archive's per-day documents (publish/archive.ts), with the envelope, errors
// and cache rules of the rest of v1.
import type { Context } from 'hono';
import { CACHE_CONTROL, CONTENT_TYPE, endpoint } from '../contract/catalogue.ts';
import { fileFor } from '../contract/urls.ts';
import { ApiError, badParam, unknownCounty } from '../contract/errors.ts';
import { csvText } from '../contract/csv.ts';
import { loadAtlas } from '../geo/counties.ts';
import { archiveDayDoc } from '../publish/archive.ts';
import type { PublishedTree } from '../publish/published-tree.ts';
import type { DayDoc, DayValue } from '../state/archive-day.ts';
import { nextDay, quarterAtOrBefore } from '../state/archive-read.ts';
import type { MapEntry } from '../state/rollup.ts';

/** The longest county series one request may ask for. */
export const SERIES_MAX_DAYS = 31;
const DAY_MS = 86_400_000;

function timeParam(name: string, raw: string | null, fallback: Date): Date {
  if (raw === null) return fallback;
  const t = Date.parse(raw);
  if (!/^\d{4}-\d{2}-\d{2}/.test(raw) || Number.isNaN(t))
    throw badParam(name, `Expected \`${name}\` to be an ISO-8601 time such as 2026-09-01T10:15:00Z, got \`${raw}\`.`);
  return new Date(t);
}

const dayDocOf = (tree: PublishedTree, day: string) => tree.data<DayDoc & { generated_at: string }>(archiveDayDoc(day));

export function pastMap(c: Context, url: URL, tree: PublishedTree) {
  const raw = url.searchParams.get('at');
  if (raw === null) throw badParam('at', 'Give `at`, an ISO-8601 time such as 2026-09-01T10:15:00Z.');
  const quarter = quarterAtOrBefore(timeParam('at', raw, new Date()));
  const doc = dayDocOf(tree, quarter.slice(0, 10));
  const qi = doc?.quarters.findIndex((q) => q[0] === quarter) ?? -1;
  if (!doc || qi < 0) throw notArchived(quarter, tree);
  const [, cycle_at, sources_total, sources_fresh, customers_tracked] = doc.quarters[qi];
  const map: Record<string, MapEntry> = {};
  for (const [key, values] of [...Object.entries(doc.counties), ...Object.entries(doc.states)]) {
    const v = values.find((x) => x[0] === qi);
    if (v) map[key] = v.slice(1, 6) as MapEntry;
  }
  c.header('Cache-Control', CACHE_CONTROL.history);
  return c.json({
    data: {
      generated_at: doc.generated_at,
      quarter_at: quarter,
      simulated: doc.simulated,
      coverage: { cycle_at, sources_total, sources_fresh, customers_tracked },
      map,
    },
  });
}

function notArchived(quarter: string, tree: PublishedTree): ApiError {
  const index = tree.data<{ first_quarter: string | null }>(fileFor(endpoint('archive'), {}, 'json'));
  const since = index?.first_quarter ? ` The archive starts at ${index.first_quarter}.` : ' Nothing is archived yet.';
  return new ApiError({
    status: 404,
    code: 'not_found',
    param: 'at',
    message: `No archived quarter hour at ${quarter}: the poller did not reach it.${since} Archived days are listed in /api/v1/archive.`,
    see: '/api/v1/archive',
  });
}

export function countySeries(c: Context, fips: string, url: URL, tree: PublishedTree) {
  if (!loadAtlas().byFips.has(fips)) throw unknownCounty(fips);
  const to = timeParam('to', url.searchParams.get('to'), new Date(tree.current()?.published_at ?? Date.now()));
  const from = timeParam('from', url.searchParams.get('from'), new Date(to.getTime() - DAY_MS));
  if (from >= to) throw badParam('from', '`from` must be before `to`.');
  if (to.getTime() - from.getTime() > SERIES_MAX_DAYS * DAY_MS)
    throw badParam('to', `A series spans at most ${SERIES_MAX_DAYS} days; ask for several ranges.`);
  const series: Array<{ at: string; customers_out: number; customers_tracked: number | null; stale: boolean }> = [];
  let generatedAt = new Date(0).toISOString();
  for (let day = from.toISOString().slice(0, 10); day < to.toISOString(); day = nextDay(day)) {
    const doc = dayDocOf(tree, day);
    if (!doc) continue;
    if (doc.generated_at > generatedAt) generatedAt = doc.generated_at;
    const byQuarter = new Map<number, DayValue>((doc.counties[fips] ?? []).map((v) => [v[0], v]));
    doc.quarters.forEach(([at], i) => {
      if (at < from.toISOString() || at >= to.toISOString()) return;
      const v = byQuarter.get(i);
      series.push({ at, customers_out: v?.[1] ?? 0, customers_tracked: v?.[6] ?? null, stale: v?.[7] ?? false });
    });
  }
  c.header('Cache-Control', CACHE_CONTROL.history);
  if (url.searchParams.get('format') === 'csv') {
    c.header('Content-Type', CONTENT_TYPE.csv);
    const rows = series.map((s) => [s.at, s.customers_out, s.customers_tracked, s.stale]);
    return c.body(csvText(['at', 'customers_out', 'customers_tracked', 'stale'], rows));
  }
  const range = { from: from.toISOString(), to: to.toISOString() };
  return c.json({ data: { generated_at: generatedAt, fips, ...range, series } });
}
