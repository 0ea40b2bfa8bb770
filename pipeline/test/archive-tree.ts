// A published tree with a year of archive for one county, written as the archive publisher writes it (publish/
// archive.ts): a month document per month with every quarter reached, the county's values in each (someone out at
// every quarter: the longest answer a series can be), and the archive index listing the finished days. The heaviest
// query the function layer allows is a year-long series over it.
import { endpoint } from '../src/contract/catalogue.ts';
import { fileFor } from '../src/contract/urls.ts';
import { archiveCountyMonthDoc, archiveMonthDoc } from '../src/publish/archive.ts';
import { FsTreeWriter } from '../src/publish/tree-writer.ts';

export const ARCHIVE_FIPS = '12086';
/** When the tree was published: the last finished day is the one before. */
export const PUBLISHED_AT = new Date('2026-11-30T12:00:00Z');
/** The twelve finished months the tree holds (December 2025 to November 2026, the 30th not finished). */
export const MONTHS = Array.from({ length: 12 }, (_, i) =>
  new Date(Date.UTC(2025, 11 + i, 1)).toISOString().slice(0, 7),
);
/** The year-long series over every finished month: 34,000 points. */
export const YEAR_SERIES = `/api/v1/archive/counties/${ARCHIVE_FIPS}?from=2025-12-01T00:00:00Z&to=2026-11-30T00:00:00Z`;

const daysIn = (month: string) => new Date(Date.UTC(+month.slice(0, 4), +month.slice(5, 7), 0)).getUTCDate();

/** Writes the tree into `outDir` (with `months` finished; none: an archive with nothing finished yet). */
export async function writeArchiveTree(outDir: string, months: string[] = MONTHS): Promise<void> {
  const w = new FsTreeWriter(outDir, PUBLISHED_AT);
  const put = (rel: string, data: object) => {
    const body = Buffer.from(JSON.stringify({ data: { generated_at: PUBLISHED_AT.toISOString(), ...data } }));
    w.put(rel, () => body, body);
  };
  const days: Array<{ day: string }> = [];
  for (const month of months) {
    const last = month === '2026-11' ? 29 : daysIn(month);
    const quarters = last * 96;
    put(archiveMonthDoc(month), { month, simulated: true, quarters: [[0, quarters]] });
    const values = Array.from({ length: quarters }, (_, i) => [i, 1 + (i % 500), 1000, false]);
    put(archiveCountyMonthDoc(ARCHIVE_FIPS, month), { fips: ARCHIVE_FIPS, month, values });
    for (let d = 1; d <= last; d++) days.push({ day: `${month}-${String(d).padStart(2, '0')}` });
  }
  put(fileFor(endpoint('archive'), {}, 'json'), {
    simulated: true,
    first_quarter: null,
    columns: [],
    days,
    today: null,
  });
  await w.commit({ simulated: true, notice: 'test' });
}
