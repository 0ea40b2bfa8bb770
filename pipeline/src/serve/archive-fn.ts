// The past, queried (issue 25 part 4): the map at a past quarter hour and one county's 15-minute series over a range,
// answered by the function layer from the archive's internal documents (publish/archive.ts): the map from the day's,
// the series from each month's (finished days) and the day in progress's, with the envelope, errors and cache rules of
// the rest of v1.
import type { Context } from 'hono';
import { CACHE_CONTROL, CONTENT_TYPE, endpoint } from '../contract/catalogue.ts';
import { fileFor } from '../contract/urls.ts';
import { ApiError, badParam, unknownCounty } from '../contract/errors.ts';
import { csvText } from '../contract/csv.ts';
import { parseInstant } from '../contract/dates.ts';
import { loadAtlas } from '../geo/counties.ts';
import { archiveDayDoc, archiveQuarterDoc } from '../publish/archive.ts';
import type { PublishedTree } from '../publish/published-tree.ts';
import type { DayDoc } from '../state/archive-day.ts';
import { quarterOf } from '../state/archive.ts';
import type { MapEntry } from '../state/rollup.ts';
import { finishedSeries, seriesRange, unfinishedSeries } from './archive-series.ts';

export function pastMap(c: Context, url: URL, tree: PublishedTree) {
  const raw = url.searchParams.get('at');
  if (raw === null) throw badParam('at', 'Give `at`, an ISO-8601 time such as 2026-09-01T10:15:00Z.');
  const quarter = quarterOf(parseInstant('at', raw)); // the quarter containing `at`
  const doc = tree.data<DayDoc>(archiveDayDoc(quarter.slice(0, 10))) ?? tree.data<DayDoc>(archiveQuarterDoc(quarter));
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
  const range = seriesRange(url.searchParams, tree);
  const index = tree.data<{ days: Array<{ day: string }> }>(fileFor(endpoint('archive'), {}, 'json'));
  const finishedThrough = index?.days.at(-1)?.day ?? '';
  const { series, generatedAt } = finishedSeries(tree, fips, range, finishedThrough);
  const unfinishedAt = unfinishedSeries(tree, fips, range, finishedThrough, series);
  const generated = [unfinishedAt, generatedAt].sort()[1]; // the newer of two ISO times
  c.header('Cache-Control', CACHE_CONTROL.history);
  if (url.searchParams.get('format') === 'csv') {
    c.header('Content-Type', CONTENT_TYPE.csv);
    const rows = series.map((s) => [s.at, s.customers_out, s.customers_tracked, s.stale]);
    return c.body(csvText(['at', 'customers_out', 'customers_tracked', 'stale'], rows));
  }
  return c.json({ data: { generated_at: generated, fips, ...range, series } });
}
