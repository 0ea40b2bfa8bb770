// One county's archived 15-minute series over a range (archive-fn.ts answers it): the finished days from the month
// documents, the day in progress from its quarter documents. Every loop here is bounded before it starts (issue 37:
// `to=9999-12-31` stepped its day loop to `+010000-01-01`, which sorts below `to`, and held the server): the range is
// parsed strictly and capped at SERIES_MAX_DAYS, months and days are counted lists, and only the days that can have
// documents of their own (at most the last publish's day and the one before) are looked up — a year-long range over
// an archive without finished days looked up 35,000 quarter documents (0.8 s of CPU for an empty answer).
import { badParam } from '../contract/errors.ts';
import { daysThrough, parseInstant } from '../contract/dates.ts';
import { archiveCountyMonthDoc, archiveDayDoc, archiveMonthDoc, archiveQuarterDoc } from '../publish/archive.ts';
import type { PublishedTree } from '../publish/published-tree.ts';
import { monthStart, type CountyMonthDoc, type DayDoc, type DayValue, type MonthDoc } from '../state/archive-day.ts';
import { QUARTER_MS } from '../state/archive.ts';
import { nextDay } from '../state/archive-read.ts';

/** The longest county series one request may ask for: a year (a leap year's). */
export const SERIES_MAX_DAYS = 366;
const DAY_MS = 86_400_000;

export type SeriesRange = { from: string; to: string };
export type SeriesPoint = { at: string; customers_out: number; customers_tracked: number | null; stale: boolean };

/** `from` and `to` (defaults: the last publish, and 24 hours before `to`), checked before anything is read. */
export function seriesRange(query: URLSearchParams, tree: PublishedTree): SeriesRange {
  const rawTo = query.get('to');
  const rawFrom = query.get('from');
  const to = rawTo === null ? new Date(tree.current()?.published_at ?? Date.now()) : parseInstant('to', rawTo);
  const from = rawFrom === null ? new Date(to.getTime() - DAY_MS) : parseInstant('from', rawFrom);
  if (from >= to) throw badParam('from', '`from` must be before `to`.');
  if (to.getTime() - from.getTime() > SERIES_MAX_DAYS * DAY_MS)
    throw badParam('to', `A series spans at most ${SERIES_MAX_DAYS} days; ask for several ranges.`);
  return { from: from.toISOString(), to: to.toISOString() };
}

/** The months (`YYYY-MM`) from `first`'s through `last`'s (ISO times), at most `max`. */
function monthsThrough(first: string, last: string, max: number): string[] {
  const [y, m] = [Number(first.slice(0, 4)), Number(first.slice(5, 7)) - 1];
  const count = Math.min(max, (Number(last.slice(0, 4)) - y) * 12 + Number(last.slice(5, 7)) - 1 - m + 1);
  return Array.from({ length: Math.max(0, count) }, (_, i) =>
    new Date(Date.UTC(y, m + i, 1)).toISOString().slice(0, 7),
  );
}

const before = (iso: string) => new Date(Date.parse(iso) - 1).toISOString();

/**
 * The county's values at every quarter of the finished days in range, from the month documents: each month's reached
 * quarters, and the county's values where it had anyone out (elsewhere 0 — a county without a document had none).
 */
export function finishedSeries(tree: PublishedTree, fips: string, range: SeriesRange, finishedThrough: string) {
  const series: SeriesPoint[] = [];
  let generatedAt = new Date(0).toISOString();
  if (!finishedThrough || range.from >= `${nextDay(finishedThrough)}T00:00:00.000Z`) return { series, generatedAt };
  const end = [range.to, `${nextDay(finishedThrough)}T00:00:00.000Z`].sort()[0];
  const [fromMs, endMs] = [Date.parse(range.from), Date.parse(end)];
  for (const month of monthsThrough(range.from, before(end), 14)) {
    const doc = tree.data<MonthDoc>(archiveMonthDoc(month));
    if (!doc) continue;
    if (doc.generated_at > generatedAt) generatedAt = doc.generated_at;
    const county = tree.data<CountyMonthDoc>(archiveCountyMonthDoc(fips, month));
    const values = new Map((county?.values ?? []).map((v) => [v[0], v]));
    const t0 = monthStart(month);
    // only the quarter indices inside [from, end): no month's quarters are walked outside the range
    const [lo, hi] = [Math.ceil((fromMs - t0) / QUARTER_MS), Math.ceil((endMs - t0) / QUARTER_MS)];
    for (const [first, count] of doc.quarters)
      for (let i = Math.max(first, lo); i < Math.min(first + count, hi); i++) {
        const v = values.get(i);
        const at = new Date(t0 + i * QUARTER_MS).toISOString();
        series.push({ at, customers_out: v?.[1] ?? 0, customers_tracked: v?.[2] ?? null, stale: v?.[3] ?? false });
      }
  }
  return { series, generatedAt };
}

type Doc = DayDoc & { generated_at: string };

/** A day's documents: the finished day's one, else (the day in progress) one per quarter the poller reached. */
function docsOf(tree: PublishedTree, day: string): Doc[] {
  const finished = tree.data<DayDoc>(archiveDayDoc(day));
  if (finished) return [finished];
  const t0 = Date.parse(`${day}T00:00:00Z`);
  const docs: Doc[] = [];
  for (let i = 0; i < 96; i++) {
    const doc = tree.data<DayDoc>(archiveQuarterDoc(new Date(t0 + i * QUARTER_MS).toISOString()));
    if (doc) docs.push(doc);
  }
  return docs;
}

/**
 * The days not in the month documents yet, within the range: after the last finished day, from the day before the
 * last publish (a day that finished as this request read the tree) through the publish's own (a quarter is named by
 * its start, never after the publish). Any earlier day is finished or was never reached: it has no documents of its own.
 */
function unfinishedDays(tree: PublishedTree, range: SeriesRange, finishedThrough: string): string[] {
  const published = tree.current()?.published_at;
  if (!published) return [];
  const dayBefore = new Date(Date.parse(published) - DAY_MS).toISOString().slice(0, 10);
  const first = [range.from.slice(0, 10), finishedThrough ? nextDay(finishedThrough) : '', dayBefore].sort().at(-1)!;
  const last = [before(range.to), published].sort()[0].slice(0, 10);
  return daysThrough(first, last, 3);
}

/** The county's values at the quarters of the unfinished days in range, appended to `series`; the newest generation. */
export function unfinishedSeries(
  tree: PublishedTree,
  fips: string,
  range: SeriesRange,
  finishedThrough: string,
  series: SeriesPoint[],
): string {
  let generated = new Date(0).toISOString();
  for (const day of unfinishedDays(tree, range, finishedThrough))
    for (const doc of docsOf(tree, day)) {
      if (doc.generated_at > generated) generated = doc.generated_at;
      const byQuarter = new Map<number, DayValue>((doc.counties[fips] ?? []).map((v) => [v[0], v]));
      doc.quarters.forEach(([at], i) => {
        if (at < range.from || at >= range.to) return;
        const v = byQuarter.get(i);
        series.push({ at, customers_out: v?.[1] ?? 0, customers_tracked: v?.[6] ?? null, stale: v?.[7] ?? false });
      });
    }
  return generated;
}
