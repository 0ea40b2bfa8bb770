// The past, queried (issue 25 part 4): the map at a past quarter hour and one county's 15-minute series over a range,
// answered by the function layer from the archive's internal documents (publish/archive.ts): the map from the day's,
// the series from each month's (finished days) and the day in progress's, with the envelope, errors and cache rules of
// the rest of v1.
import type { Context } from 'hono';
import { CACHE_CONTROL, CONTENT_TYPE, endpoint } from '../contract/catalogue.ts';
import { fileFor } from '../contract/urls.ts';
import { ApiError, badParam, unknownCounty } from '../contract/errors.ts';
import { csvText } from '../contract/csv.ts';
import { loadAtlas } from '../geo/counties.ts';
import { archiveCountyMonthDoc, archiveDayDoc, archiveMonthDoc, archiveQuarterDoc } from '../publish/archive.ts';
import type { PublishedTree } from '../publish/published-tree.ts';
import {
  monthOf,
  monthStart,
  type CountyMonthDoc,
  type DayDoc,
  type DayValue,
  type MonthDoc,
} from '../state/archive-day.ts';
import { QUARTER_MS } from '../state/archive.ts';
import { nextDay, quarterAtOrBefore } from '../state/archive-read.ts';
import type { MapEntry } from '../state/rollup.ts';

/** The longest county series one request may ask for: a year (a leap year's). */
export const SERIES_MAX_DAYS = 366;
const DAY_MS = 86_400_000;

function timeParam(name: string, raw: string | null, fallback: Date): Date {
  if (raw === null) return fallback;
  const t = Date.parse(raw);
  if (!/^\d{4}-\d{2}-\d{2}/.test(raw) || Number.isNaN(t))
    throw badParam(name, `Expected \`${name}\` to be an ISO-8601 time such as 2026-09-01T10:15:00Z, got \`${raw}\`.`);
  return new Date(t);
}

type Doc = DayDoc & { generated_at: string };
const dayDocOf = (tree: PublishedTree, day: string) => tree.data<DayDoc>(archiveDayDoc(day));

/** A day's documents: the finished day's one, else (the day in progress) one per quarter the poller reached. */
function docsOf(tree: PublishedTree, day: string): Doc[] {
  const finished = dayDocOf(tree, day);
  if (finished) return [finished];
  const t0 = Date.parse(`${day}T00:00:00Z`);
  const docs: Doc[] = [];
  for (let i = 0; i < 96; i++) {
    const doc = tree.data<DayDoc>(archiveQuarterDoc(new Date(t0 + i * QUARTER_MS).toISOString()));
    if (doc) docs.push(doc);
  }
  return docs;
}

export function pastMap(c: Context, url: URL, tree: PublishedTree) {
  const raw = url.searchParams.get('at');
  if (raw === null) throw badParam('at', 'Give `at`, an ISO-8601 time such as 2026-09-01T10:15:00Z.');
  const quarter = quarterAtOrBefore(timeParam('at', raw, new Date()));
  const doc = dayDocOf(tree, quarter.slice(0, 10)) ?? tree.data<DayDoc>(archiveQuarterDoc(quarter));
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

type SeriesPoint = { at: string; customers_out: number; customers_tracked: number | null; stale: boolean };

export function countySeries(c: Context, fips: string, url: URL, tree: PublishedTree) {
  if (!loadAtlas().byFips.has(fips)) throw unknownCounty(fips);
  const to = timeParam('to', url.searchParams.get('to'), new Date(tree.current()?.published_at ?? Date.now()));
  const from = timeParam('from', url.searchParams.get('from'), new Date(to.getTime() - DAY_MS));
  if (from >= to) throw badParam('from', '`from` must be before `to`.');
  if (to.getTime() - from.getTime() > SERIES_MAX_DAYS * DAY_MS)
    throw badParam('to', `A series spans at most ${SERIES_MAX_DAYS} days; ask for several ranges.`);
  const range = { from: from.toISOString(), to: to.toISOString() };
  const index = tree.data<{ days: Array<{ day: string }> }>(fileFor(endpoint('archive'), {}, 'json'));
  const finishedThrough = index?.days.at(-1)?.day ?? '';
  const { series, generatedAt } = finishedSeries(tree, fips, range, finishedThrough);
  // The days not in the month documents yet (the day in progress) from their documents.
  let generated = generatedAt;
  const fromDay = [range.from.slice(0, 10), finishedThrough ? nextDay(finishedThrough) : ''].sort().at(-1)!;
  for (let day = fromDay; day < range.to; day = nextDay(day))
    for (const doc of docsOf(tree, day)) {
      if (doc.generated_at > generated) generated = doc.generated_at;
      const byQuarter = new Map<number, DayValue>((doc.counties[fips] ?? []).map((v) => [v[0], v]));
      doc.quarters.forEach(([at], i) => {
        if (at < range.from || at >= range.to) return;
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
  return c.json({ data: { generated_at: generated, fips, ...range, series } });
}

/**
 * The county's values at every quarter of the finished days in range, from the month documents: each month's reached
 * quarters, and the county's values where it had anyone out (elsewhere 0 — a county without a document had none).
 */
function finishedSeries(
  tree: PublishedTree,
  fips: string,
  range: { from: string; to: string },
  finishedThrough: string,
): { series: SeriesPoint[]; generatedAt: string } {
  const series: SeriesPoint[] = [];
  let generatedAt = new Date(0).toISOString();
  const end = finishedThrough ? [range.to, `${nextDay(finishedThrough)}T00:00:00.000Z`].sort()[0] : range.from;
  for (let month = monthOf(range.from); `${month}-01` < end; month = nextMonth(month)) {
    const doc = tree.data<MonthDoc>(archiveMonthDoc(month));
    if (!doc) continue;
    if (doc.generated_at > generatedAt) generatedAt = doc.generated_at;
    const county = tree.data<CountyMonthDoc>(archiveCountyMonthDoc(fips, month));
    const values = new Map((county?.values ?? []).map((v) => [v[0], v]));
    const t0 = monthStart(month);
    for (const [first, count] of doc.quarters)
      for (let i = first; i < first + count; i++) {
        const at = new Date(t0 + i * QUARTER_MS).toISOString();
        if (at < range.from || at >= end) continue;
        const v = values.get(i);
        series.push({ at, customers_out: v?.[1] ?? 0, customers_tracked: v?.[2] ?? null, stale: v?.[3] ?? false });
      }
  }
  return { series, generatedAt };
}

const nextMonth = (month: string): string => {
  const [y, m] = month.split('-').map(Number);
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
};
